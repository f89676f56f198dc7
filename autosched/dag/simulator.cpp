#include <autosched/dag/simulator.hpp>

#include <autosched/dag/detail/decision_state.hpp>

#include <autosched/core/error.hpp>

#include <algorithm>
#include <limits>

namespace autosched::dag {

namespace {

// The event loop shared by simulate() and simulate_from(): decide, jump to
// the next completion, complete every task ending then, until done.
// `finish[p]` is when p's running task ends; returns the makespan.
double run_events(const Problem& problem, detail::DecisionState& state, const std::vector<KindDurations>& actual,
                  std::vector<double>& finish, double now, std::vector<ScheduledTask>* schedule) {
  const std::size_t processors = problem.processors();
  auto launch = [&](TaskId t, std::size_t p, double transfer) {
    const auto i = static_cast<std::size_t>(t);
    finish[p] = now + transfer + actual[i][static_cast<std::size_t>(problem.platform.kind(p))];
    if (schedule) (*schedule)[i] = {t, static_cast<int>(p), now, finish[p]};
  };
  for (;;) {
    state.decide(now, launch);
    if (state.finished()) return now;
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
}

SimulationResult counts(const detail::DecisionState& state, double makespan) {
  SimulationResult result;
  result.makespan = makespan;
  result.decisions = state.decisions();
  result.passes = state.passes();
  result.forced = state.forced();
  return result;
}

}  // namespace

SimulationResult simulate(const Problem& problem, Scheduler& scheduler, const std::vector<KindDurations>& actual,
                          const SimulationOptions& options) {
  const TaskGraph& g = *problem.graph;
  if (actual.size() != g.size())
    autosched::detail::throw_error("simulate: " + std::to_string(actual.size()) + " actual durations for " +
                                   std::to_string(g.size()) + " tasks");
  detail::DecisionState state(problem, scheduler, options.readys_pass_rules);
  std::vector<double> finish(problem.processors(), 0);
  std::vector<ScheduledTask> schedule;
  if (options.keep_schedule) schedule.assign(g.size(), {});
  state.begin(options.seed ^ 0x5eedf00dULL, 0);
  SimulationResult result =
      counts(state, run_events(problem, state, actual, finish, 0, options.keep_schedule ? &schedule : nullptr));
  result.schedule = std::move(schedule);
  return result;
}

SimulationResult simulate_from(const Problem& problem, Scheduler& scheduler, const RunSnapshot& from,
                               const std::vector<KindDurations>& actual, const SimulationOptions& options) {
  const std::size_t processors = problem.processors();
  if (actual.size() != problem.tasks() || from.end.size() != processors || from.running.size() != processors)
    autosched::detail::throw_error("simulate_from: the snapshot or the durations do not match the problem");
  detail::DecisionState state(problem, scheduler, options.readys_pass_rules);
  std::vector<double> finish = from.end;
  // What the scheduler sees of a running task: it ends when it does.
  std::vector<double> expected_end(processors, from.now);
  for (std::size_t p = 0; p < processors; ++p) {
    if (from.running[p] != no_task) expected_end[p] = from.end[p];
  }
  state.resume(options.seed ^ 0x5eedf00dULL, from.now, from.state, from.running, expected_end, from.placed_on);
  return counts(state, run_events(problem, state, actual, finish, from.now, nullptr));
}

SimulationResult simulate(const Problem& problem, Scheduler& scheduler, const SimulationOptions& options) {
  const auto actual = sample_durations(problem.expected, options.noise, options.seed);
  return simulate(problem, scheduler, actual, options);
}

}  // namespace autosched::dag
