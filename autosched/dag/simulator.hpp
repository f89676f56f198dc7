#pragma once
// The event-driven simulator of a task graph on a platform.
//
// Semantics (READYS's, docs/dag.md): time jumps from completion to
// completion. At each event the idle processors are offered a decision in
// index order (GPUs first); a scheduler answers a ready task or passes. A
// pass leaves that processor idle until the next completion and the same
// instant goes to the next idle processor. When every idle processor
// passed and nothing runs, the first ready task goes to the first idle
// processor that can run it (a scheduler cannot stall the machine).
// Deterministic for a seed.
#include <autosched/dag/scheduler.hpp>

#include <cstdint>
#include <vector>

namespace autosched::dag {

struct SimulationOptions {
  Noise noise;             ///< actual = noisy expected durations
  std::uint64_t seed = 1;  ///< noise and randomised schedulers
  /// READYS's exact pass rules, for its policies: a pass while nothing runs
  /// is replaced by the first ready task on that processor at once, and on
  /// a homogeneous platform a pass makes every idle processor wait for the
  /// next completion.
  bool readys_pass_rules = false;
  bool keep_schedule = true;  ///< fill SimulationResult::schedule
};

struct ScheduledTask {
  TaskId task = no_task;
  int processor = -1;
  double start = 0, end = 0;
};

struct SimulationResult {
  double makespan = 0;
  std::size_t decisions = 0;  ///< scheduler calls to choose()
  std::size_t passes = 0;
  std::size_t forced = 0;  ///< passes replaced by the no-stall rule
  std::vector<ScheduledTask> schedule;  ///< by task id (when kept)
};

/// Runs one episode: actual durations drawn from `options.noise` and
/// `options.seed`, decisions from `scheduler`. Throws when the scheduler
/// picks a task that is not ready or cannot run on the processor.
SimulationResult simulate(const Problem& problem, Scheduler& scheduler, const SimulationOptions& options = {});

/// The same with actual durations given (one per task and kind).
SimulationResult simulate(const Problem& problem, Scheduler& scheduler, const std::vector<KindDurations>& actual,
                          const SimulationOptions& options = {});

/// A run caught mid-way, to go on from (what-if studies: a lookahead tries
/// each answer to a decision and finishes the run with another scheduler).
struct RunSnapshot {
  double now = 0;
  std::vector<TaskState> state;  ///< per task
  std::vector<TaskId> running;   ///< per processor: its task, or no_task
  std::vector<double> end;       ///< per processor: when its running task ends
  std::vector<int> placed_on;    ///< per task: the processor it ran or runs on, -1 if none
};
/// Goes on from `from` with `scheduler` (started afresh) and `actual`
/// durations for the tasks still to start; the makespan counts from time 0.
/// No schedule is kept.
SimulationResult simulate_from(const Problem& problem, Scheduler& scheduler, const RunSnapshot& from,
                               const std::vector<KindDurations>& actual, const SimulationOptions& options = {});

}  // namespace autosched::dag
