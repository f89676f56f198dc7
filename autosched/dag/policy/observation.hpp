#pragma once
// What the learned policy sees at one decision: the windowed sub-DAG
// around the current frontier, one feature row per visible task, and the
// candidates (the ready tasks the idle processor can run).
//
// The window holds the running and ready tasks plus `window` hops of their
// unfinished successors, in ascending task id; its edges are every
// remaining edge between two visible tasks. Features are normalised so the
// same weights apply to any tile count and platform (docs/dag-policy.md
// lists them): durations in units of the graph's mean expected duration,
// ranks relative to the critical path, counts clipped.
#include <autosched/dag/scheduler.hpp>

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

namespace autosched::dag::policy {

/// Feature columns, in order. Changing them changes the model format
/// (observation_version below).
enum Feature : int {
  f_ready,             ///< 1 when ready
  f_running,           ///< 1 when running
  f_waiting,           ///< 1 when neither (a successor seen through the window)
  f_cpu_duration,      ///< expected duration on a CPU / scale (0 when it has none)
  f_gpu_duration,      ///< same on a GPU
  f_no_cpu,            ///< 1 when the task cannot run on a CPU
  f_no_gpu,            ///< 1 when it cannot run on a GPU
  f_acceleration,      ///< log2(cpu / gpu duration) / 4, clipped to [-2, 2]; 0 when one is missing
  f_duration_here,     ///< expected duration on the current processor's kind / scale
  f_rank_fastest,      ///< bottom level on the fastest kinds / the graph's critical path (fastest)
  f_rank_mean,         ///< bottom level on mean durations / the critical path (mean)
  f_rank_among_ready,  ///< bottom level (fastest) / the largest among ready tasks, clipped to 2
  f_hops_to_end,       ///< longest path in hops to a sink / the graph's longest
  f_remaining,         ///< running: expected time left / scale (0 when overdue or not running)
  f_successors,        ///< unfinished successors / 4, clipped to 2
  f_predecessors,      ///< unfinished predecessors / 4, clipped to 2
  f_finish_gain,       ///< ready: (earliest finish on another processor - finish here) / scale, clipped to [-8, 8]
  f_finish_cpu,        ///< ready: earliest finish on another CPU - now, / scale, clipped to 8 (8: none)
  f_finish_gpu,        ///< ready: same on another GPU
  f_current_is_gpu,    ///< broadcast: the current processor is a GPU
  f_cpu_share,         ///< broadcast: CPUs / processors
  f_gpu_share,         ///< broadcast: GPUs / processors
  f_cpu_wait,          ///< broadcast: soonest another CPU frees / scale (0 idle, 8 none)
  f_gpu_wait,          ///< broadcast: same for GPUs
  f_done_fraction,     ///< broadcast: finished tasks / tasks
  f_ready_per_processor,  ///< broadcast: ready tasks / processors / 4, clipped to 1
  feature_count
};
inline constexpr int observation_version = 1;
std::string_view feature_name(int feature);

struct Observation {
  std::size_t nodes = 0;                    ///< visible tasks
  std::vector<TaskId> task;                 ///< per node, ascending id
  std::vector<float> features;              ///< nodes × feature_count, row-major
  std::vector<std::int32_t> edge_from;      ///< per edge: local index of the predecessor
  std::vector<std::int32_t> edge_to;        ///< per edge: local index of the successor
  std::vector<std::int32_t> candidates;     ///< local indices of the choosable tasks, ascending id
  const float* row(std::size_t node) const { return features.data() + node * feature_count; }
};

/// Precomputes what depends only on the problem (ranks, hops, the scale),
/// then builds observations without allocating once warm.
class ObservationBuilder {
 public:
  ObservationBuilder(const Problem& problem, int window);
  /// The observation for idle processor `current` at `view`.
  void build(const SchedulingView& view, std::size_t current, Observation& out);
  int window() const noexcept { return window_; }
  /// The time unit of the features: the mean expected duration of a task
  /// (over the kinds that can run it).
  double scale() const noexcept { return scale_; }

 private:
  const Problem& problem_;
  int window_;
  double scale_ = 1;
  std::vector<double> rank_fastest_, rank_mean_, hops_;
  double critical_fastest_ = 1, critical_mean_ = 1, longest_hops_ = 1;
  std::vector<std::uint32_t> seen_;  ///< per task: the build() stamp that saw it
  std::vector<std::int32_t> local_;  ///< per task: local index in the current window
  std::uint32_t stamp_ = 0;
  std::vector<TaskId> frontier_, next_;
};

}  // namespace autosched::dag::policy
