#include <autosched/dag/problem.hpp>

#include <autosched/core/error.hpp>

#include <cmath>

namespace autosched::dag {

Problem::Problem(const TaskGraph& g, Platform p, const DurationTable& table)
    : Problem(g, std::move(p), table.expected(g), table.unit) {}

Problem::Problem(const TaskGraph& g, Platform p, std::vector<KindDurations> expected_durations, std::string unit)
    : graph(&g), platform(std::move(p)), expected(std::move(expected_durations)), time_unit(std::move(unit)) {
  if (!g.finalized()) detail::throw_error("task graph '" + g.name() + "': finalize() it before scheduling");
  if (expected.size() != g.size())
    detail::throw_error("task graph '" + g.name() + "': " + std::to_string(expected.size()) + " durations for " +
                        std::to_string(g.size()) + " tasks");
  if (platform.size() == 0) detail::throw_error("platform: no processor");
  for (std::size_t t = 0; t < g.size(); ++t) {
    bool somewhere = false;
    for (std::size_t q = 0; q < platform.size(); ++q) somewhere = somewhere || runs_on(static_cast<TaskId>(t), q);
    if (!somewhere)
      detail::throw_error("task " + std::to_string(t) + " (" + g.kernel_name(static_cast<TaskId>(t)) +
                          ") has no implementation on platform " + platform.describe());
  }
}

bool Problem::runs_on(TaskId t, std::size_t processor) const { return std::isfinite(expected_on(t, processor)); }

double Problem::input_transfer(TaskId t, std::size_t processor, const std::vector<int>& placed_on) const {
  const Communication& c = platform.communication;
  if (!c.enabled) return 0;
  double worst = 0;
  const auto preds = graph->predecessors(t);
  const auto bytes = graph->predecessor_bytes(t);
  const int here = platform.memory(processor);
  for (std::size_t i = 0; i < preds.size(); ++i) {
    const int where = placed_on[static_cast<std::size_t>(preds[i])];
    if (where < 0 || platform.memory(static_cast<std::size_t>(where)) == here) continue;
    const double b = bytes[i] > 0 ? bytes[i] : c.default_edge_bytes;
    worst = std::max(worst, c.latency + b / c.bandwidth);
  }
  return worst;
}

}  // namespace autosched::dag
