#pragma once
// Training the learned policy (`autosched dag train`): an imitation warm
// start from a teacher (DAgger rounds), then PPO over many simulated
// episodes in parallel, with curriculum over tile counts and noise, model
// selection on a fixed validation set, and checkpoints to resume from.
// docs/dag-policy.md explains each choice and the defects of READYS's
// release it avoids.
#include <autosched/dag/policy/policy_weights.hpp>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace autosched::dag::learned {

struct TrainingOptions {
  std::string family = "cholesky";                  ///< cholesky, lu, qr, or a graph file (tiles then ignored)
  std::vector<std::string> platforms{"2cpu+2gpu"};  ///< each episode draws one
  std::string durations = "readys";                 ///< duration table name or file
  int min_tiles = 4, max_tiles = 8;                 ///< curriculum: PPO starts small, reaches max by mid-run
  std::vector<double> sigmas{0, 0.1, 0.3, 0.5};     ///< noise levels episodes draw from
  policy::PolicyShape shape;

  // Imitation warm start.
  std::string teacher = "lookahead";  ///< "lookahead" (one-step rollouts of heft-online), or a scheduler name
  int imitation_episodes = 48;        ///< per DAgger round
  int dagger_rounds = 3;              ///< round 0 follows the teacher; later rounds the student acts
  int imitation_epochs = 12;          ///< passes over the aggregated data per round
  double imitation_learning_rate = 2e-3;

  // PPO.
  int iterations = 60;
  int episodes_per_iteration = 16;  ///< environments run in parallel per iteration
  int ppo_epochs = 4;
  int minibatch = 256;  ///< decisions per gradient step
  double learning_rate = 3e-4;
  double clip = 0.2;
  double entropy = 0.003;
  double value_coefficient = 0.5;
  double gae_lambda = 0.95;
  double max_grad_norm = 0.5;

  // Validation: greedy episodes, scored by the mean of makespan / best of
  // (heft, mct) over these points.
  std::vector<int> validation_tiles{6, 8};
  std::vector<double> validation_sigmas{0, 0.3, 0.5};
  int validation_samples = 6;
  int validate_every = 5;  ///< PPO iterations between validations

  int threads = 2;
  std::uint64_t seed = 1;
  std::string output;          ///< the model file written at the end (the best validated weights)
  std::string checkpoint_dir;  ///< default: output + ".checkpoint"
  bool resume = true;          ///< continue from checkpoint_dir when it holds a checkpoint
  std::string command_line;    ///< recorded in the model's sidecar
};

struct TrainingProgress {
  std::string phase;  ///< "imitation" or "ppo"
  int step = 0, steps = 0;
  double loss = 0;
  double accuracy = -1;          ///< imitation: share of decisions that match the teacher
  double running_ratio = 0;      ///< makespan / HEFT over the latest episodes
  double validation = 0;         ///< the latest validation score (0: none yet)
  double best_validation = 0;
};

struct TrainingResult {
  policy::PolicyWeights weights;       ///< the best validated weights
  double best_validation = 0;          ///< their score
  double teacher_validation = 0;       ///< the teacher's score on the same points
  double imitation_validation = 0;     ///< after the warm start
  int ppo_iterations = 0;
  double seconds = 0;
  bool resumed = false;
};

/// Trains and writes options.output (and its sidecar). Throws naming the
/// bad option; a checkpoint it cannot read is reported and ignored.
TrainingResult train(const TrainingOptions& options,
                     const std::function<void(const TrainingProgress&)>& progress = {});

}  // namespace autosched::dag::learned
