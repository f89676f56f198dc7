#include <autosched/dag/simulator.hpp>

#include <autosched/dag/detail/decision_state.hpp>

#include <autosched/core/error.hpp>

#include <algorithm>
#include <limits>

namespace autosched::dag {

SimulationResult simulate(const Problem& problem, Scheduler& scheduler, const std::vector<KindDurations>& actual,
                          const SimulationOptions& options) {
  const TaskGraph& g = *problem.graph;
  if (actual.size() != g.size())
    autosched::detail::throw_error("simulate: " + std::to_string(actual.size()) + " actual durations for " +
                        std::to_string(g.size()) + " tasks");
  const std::size_t processors = problem.processors();
  detail::DecisionState state(problem, scheduler, options.readys_pass_rules);
  std::vector<double> finish(processors, 0);
  SimulationResult result;
  if (options.keep_schedule) result.schedule.assign(g.size(), {});
  double now = 0;
  state.begin(options.seed ^ 0x5eedf00dULL, now);
  auto launch = [&](TaskId t, std::size_t p, double transfer) {
    const auto i = static_cast<std::size_t>(t);
    finish[p] = now + transfer + actual[i][static_cast<std::size_t>(problem.platform.kind(p))];
    if (options.keep_schedule) result.schedule[i] = {t, static_cast<int>(p), now, finish[p]};
  };
  for (;;) {
    state.decide(now, launch);
    if (state.finished()) break;
    // Jump to the next completion and complete every task ending then.
    double next = std::numeric_limits<double>::infinity();
    for (std::size_t p = 0; p < processors; ++p) {
      if (state.running_on(p) != no_task) next = std::min(next, finish[p]);
    }
    now = next;
    for (std::size_t p = 0; p < processors; ++p) {
      const TaskId t = state.running_on(p);
      if (t != no_task && finish[p] <= now) state.complete(t, p, now);
    }
    state.announce_ready();
  }
  result.makespan = now;
  result.decisions = state.decisions();
  result.passes = state.passes();
  result.forced = state.forced();
  return result;
}

SimulationResult simulate(const Problem& problem, Scheduler& scheduler, const SimulationOptions& options) {
  const auto actual = sample_durations(problem.expected, options.noise, options.seed);
  return simulate(problem, scheduler, actual, options);
}

}  // namespace autosched::dag
