#pragma once
// `readys`: the learned policy as a scheduler of the common interface. At
// each decision it builds the observation, runs the network (plain C++,
// policy_weights.hpp) and answers the best-scoring candidate or pass; in
// training it samples instead and logs what it saw and did.
#include <autosched/dag/policy/policy_weights.hpp>

#include <memory>
#include <random>

namespace autosched::dag::policy {

/// One decision, as training needs it.
struct Decision {
  Observation observation;
  std::int32_t action = 0;   ///< index into the logits: a candidate, or candidates.size() for pass
  std::int32_t label = -1;   ///< the teacher's action (imitation), -1 when no teacher
  float log_prob = 0;        ///< of `action` under the policy that acted
  float value = 0;           ///< the critic's estimate
  double now = 0;            ///< when it was made
};

/// Gives the action a teacher would take at a decision (imitation labels).
/// Stateless between calls: it sees only the view.
class Teacher {
 public:
  virtual ~Teacher() = default;
  virtual void start(const Problem& problem, const std::vector<KindDurations>& actual) = 0;
  virtual TaskId choose(const SchedulingView& view, std::size_t p) = 0;
};

struct ReadysOptions {
  bool sample = false;             ///< sample from the policy (training) instead of taking the best
  std::vector<Decision>* log = nullptr;  ///< when set, every decision is appended
  Teacher* teacher = nullptr;      ///< when set, its choice is logged as the label
  double follow_teacher = 0;       ///< probability of acting as the teacher did (DAgger's beta)
};

class ReadysScheduler final : public Scheduler {
 public:
  explicit ReadysScheduler(std::shared_ptr<const PolicyWeights> weights, ReadysOptions options = {});
  std::string name() const override { return "readys"; }
  void start(const Problem& problem, std::uint64_t seed) override;
  TaskId choose(const SchedulingView& view, std::size_t p) override;
  void set_options(const ReadysOptions& options) { options_ = options; }
  const PolicyWeights& weights() const noexcept { return *weights_; }
  /// Decisions that ran the network, and their total time (inference cost).
  std::size_t evaluations() const noexcept { return evaluations_; }
  double evaluation_seconds() const noexcept { return evaluation_seconds_; }
  /// Every decision's whole cost: observation, network and choice (logging
  /// and the teacher excluded).
  std::size_t decisions_timed() const noexcept { return decisions_timed_; }
  /// Visible tasks in the latest decision's window.
  std::size_t last_window() const noexcept { return obs_.nodes; }
  double decision_seconds() const noexcept { return decision_seconds_; }

 private:
  std::shared_ptr<const PolicyWeights> weights_;
  ReadysOptions options_;
  PolicyEvaluator evaluator_;
  std::unique_ptr<ObservationBuilder> builder_;
  Observation obs_;
  std::mt19937_64 rng_;
  std::size_t evaluations_ = 0, decisions_timed_ = 0;
  double evaluation_seconds_ = 0, decision_seconds_ = 0;
};

}  // namespace autosched::dag::policy
