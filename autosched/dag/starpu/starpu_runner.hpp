#pragma once
// Runs a task graph on StarPU's CPU workers, under our policy (any
// autosched::dag scheduler, through SchedulerPolicy) or under one of
// StarPU's own, and measures the makespan.
//
// Each kernel of the graph is one codelet (CPU only, no data handles: the
// task body works on memory of its own, e.g. a TiledFactorization's tiles,
// and orders itself by the graph's edges, which become StarPU task
// dependencies). Every codelet has a STARPU_PER_ARCH cost model that returns
// the expected duration from the DurationTable, so StarPU's model-based
// policies (dm, dmda, dmdas, ...) plan with the same numbers as ours. Task
// priorities are the bottom levels (upward ranks), as StarPU's Cholesky
// example sets them; under StarPU's heteroprio the priority is instead the
// task's bucket, one per kernel, most critical kernel first.
//
// A run is starpu_init(), submitting the whole graph paused, release
// (starpu_resume), starpu_task_wait_for_all() and starpu_shutdown(). StarPU
// reads its environment as usual (STARPU_HOME for its files, STARPU_SILENT,
// binding), except for the policy and the worker count, which the options
// set. Debian's StarPU 1.3 has CPU workers only, at most 4.
//
//   auto run = run_on_starpu(cholesky(8), calibrated, [&](TaskId t) { f.run(t); },
//                            {.policy = "mct-prio", .workers = 2});
#include <autosched/dag/durations.hpp>
#include <autosched/dag/scheduler.hpp>
#include <autosched/dag/task_graph.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace autosched::dag::starpu {

/// The work of one task; called on a StarPU worker thread, concurrently
/// for tasks the graph does not order.
using TaskBody = std::function<void(TaskId)>;

struct RunOptions {
  /// Ours: any make_scheduler() name ("mct-prio", "heft", ...). StarPU's:
  /// "starpu:<name>" with a name of starpu_policy_names().
  std::string policy = "mct-prio";
  int workers = 2;          ///< CPU workers (= processors of a "<n>cpu" platform)
  std::uint64_t seed = 1;   ///< for randomised schedulers
  bool priorities = true;   ///< bottom-level task priorities (StarPU's heteroprio: buckets, always)
};

struct RunResult {
  std::string policy;
  double makespan_ms = 0;  ///< wall time from release to starpu_task_wait_for_all()
  /// Per task: the worker that ran it, and the order of its start and end
  /// among all starts and ends of the run (one counter for both).
  std::vector<int> worker;
  std::vector<std::uint64_t> start_seq, end_seq;
  /// Our policy only: its decisions, passes and no-stall interventions.
  std::size_t decisions = 0, passes = 0, forced = 0;
  /// How often StarPU asked the cost models (0 under policies without models).
  std::size_t model_queries = 0;
};

/// StarPU 1.3 policies run_on_starpu accepts after "starpu:".
std::vector<std::string> starpu_policy_names();
/// Whether `policy` names one of StarPU's ("starpu:dmdas").
bool is_starpu_policy(std::string_view policy);

/// Runs `graph` once. `expected` gives every kernel's CPU duration in ms
/// (the cost models and our schedulers' plans). Throws naming the problem
/// when StarPU does not start, gives another number of CPU workers than
/// asked, the policy name is unknown, a body threw (the first such
/// exception, after the run drained), or our scheduler misbehaved.
RunResult run_on_starpu(const TaskGraph& graph, const DurationTable& expected, const TaskBody& body,
                        const RunOptions& options = {});

/// The same under our policy driving `scheduler` (a scheduler of your own,
/// e.g. a learned one); options.policy only names the run.
RunResult run_on_starpu(const TaskGraph& graph, const DurationTable& expected, const TaskBody& body,
                        Scheduler& scheduler, const RunOptions& options = {});

}  // namespace autosched::dag::starpu
