#pragma once
// What every scheduler plans against: a graph, a platform, and the
// expected duration of each task on each resource kind.
#include <autosched/dag/durations.hpp>
#include <autosched/dag/platform.hpp>
#include <autosched/dag/task_graph.hpp>

#include <vector>

namespace autosched::dag {

struct Problem {
  const TaskGraph* graph = nullptr;  ///< not owned: outlives the problem
  Platform platform;
  std::vector<KindDurations> expected;  ///< per task
  std::string time_unit = "units";

  Problem(const TaskGraph& g, Platform p, const DurationTable& table);
  Problem(const TaskGraph& g, Platform p, std::vector<KindDurations> expected_durations, std::string unit = "units");

  std::size_t tasks() const noexcept { return graph->size(); }
  std::size_t processors() const noexcept { return platform.size(); }
  double expected_on(TaskId t, std::size_t processor) const {
    return expected[static_cast<std::size_t>(t)][static_cast<std::size_t>(platform.kind(processor))];
  }
  /// Whether the task has an implementation on the processor's kind.
  bool runs_on(TaskId t, std::size_t processor) const;
  /// Transfer time for the inputs of `t` when it runs on `processor` and
  /// its predecessors ran where `placed_on` says (-1: not placed, no cost).
  double input_transfer(TaskId t, std::size_t processor, const std::vector<int>& placed_on) const;
};

}  // namespace autosched::dag
