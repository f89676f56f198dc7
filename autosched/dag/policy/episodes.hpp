#pragma once
// Simulated episodes for training and validating the learned policy: the
// problems (one per tile count and platform, built once), the reference
// makespans of HEFT and MCT per episode, and running many episodes of the
// policy in parallel with their decisions logged. No libtorch here.
#include <autosched/dag/policy/readys_scheduler.hpp>

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

namespace autosched::dag::policy {

/// One episode to run: which graph, platform and noise, and the seed of its
/// actual durations.
struct EpisodeSpec {
  int tiles = 4;
  std::size_t platform = 0;  ///< index into Environments' platforms
  double sigma = 0;
  std::uint64_t seed = 1;
};

/// A problem per (tiles, platform), built once; reference makespans per
/// episode, computed once. Thread-safe.
class Environments {
 public:
  /// `family`: cholesky, lu, qr, or a graph file (tile counts then ignored).
  Environments(std::string family, const std::vector<std::string>& platforms, const std::string& durations);
  const Problem& problem(int tiles, std::size_t platform);
  /// HEFT's and MCT's makespans on the episode's actual durations (HEFT
  /// planned from expected durations, the paper's static reference,
  /// evaluated afresh for each episode's noise).
  std::pair<double, double> references(const EpisodeSpec& e);
  std::size_t platform_count() const noexcept { return platforms_.size(); }

 private:
  struct Slot {
    std::unique_ptr<TaskGraph> graph;
    std::unique_ptr<Problem> problem;
  };
  std::string family_;
  DurationTable table_;
  std::vector<Platform> platforms_;
  std::mutex mutex_;
  std::map<std::pair<int, std::size_t>, Slot> problems_;
  std::map<std::tuple<int, std::size_t, double, std::uint64_t>, std::pair<double, double>> references_;
};

struct Episode {
  EpisodeSpec spec;
  std::vector<Decision> decisions;  ///< when logged
  double makespan = 0, heft = 0, mct = 0;
};

enum class Acting { greedy, sample };

/// "lookahead" (LookaheadTeacher over heft-online) or any scheduler name.
std::unique_ptr<Teacher> make_teacher(const std::string& name);

/// Runs `specs` on `threads` threads with the policy `weights`, results in
/// the order of `specs` whatever the threads do. Decisions are logged when
/// `log`, with the teacher's labels when `teacher` names one (acting as the
/// teacher with probability `follow`). An exception in any episode stops
/// the others and is rethrown.
std::vector<Episode> run_episodes(Environments& envs, const std::vector<EpisodeSpec>& specs,
                                  std::shared_ptr<const PolicyWeights> weights, Acting acting, bool log,
                                  const std::string& teacher, double follow, int threads);

/// The value target of decision `k`: minus the time left until the end, in
/// units of the episode's HEFT makespan (the per-event shaped rewards -Δt /
/// HEFT summed to the end; plus 1 it is READYS's terminal reward).
double time_left(const Episode& episode, std::size_t k);

/// The score of a set of episodes: the mean over points (tiles, platform,
/// σ) of mean makespan / mean of the better of HEFT and MCT. Lower is better.
double score(const std::vector<Episode>& episodes);

}  // namespace autosched::dag::policy
