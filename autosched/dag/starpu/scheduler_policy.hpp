#pragma once
// Any autosched::dag scheduler as a StarPU 1.3 scheduling policy.
//
// StarPU's push/pop API maps onto the one scheduler interface
// (scheduler.hpp) as the simulator drives it:
//   push_task(task)       -> the task is ready: Scheduler::on_ready(view, {id})
//   pop_task on worker w  -> processor w is idle: Scheduler::choose(view, w);
//                            a task is handed to w, `pass` returns NULL and
//                            is remembered until the next push or completion
//                            (StarPU's CPU drivers poll, so w asks again and
//                            again; the scheduler is not re-asked meanwhile)
//   post_exec_hook(task)  -> Scheduler::on_finish(view, id, w)
// and the simulator's no-stall rule holds: when nothing runs and every
// processor has passed since the last event, the worker asking gets the
// first ready task.
//
// StarPU worker w is processor w of the Problem's platform (CPU workers only
// with Debian's StarPU). The whole graph is known in advance: the Problem
// names it, and every starpu_task carries its TaskId (the caller says how
// to read it). Times in the view are milliseconds since release(); the
// expected durations should be in ms too (a calibrated DurationTable).
//
// Differences from the simulator: the idle workers are asked in the order
// they poll, not in index order, and several tasks that become ready at one
// completion reach on_ready one by one.
//
// One policy at a time per process: StarPU 1.3 selects it by address in
// starpu_conf::sched_policy before starpu_init(), and its callbacks carry no
// user pointer but the scheduling context's.
#include <autosched/dag/scheduler.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

struct starpu_sched_policy;  // <starpu_scheduler.h>
struct starpu_task;          // <starpu_task.h>

namespace autosched::dag::starpu {

class SchedulerPolicy {
 public:
  /// Reads the TaskId a submitted starpu_task stands for.
  using TaskIdOf = std::function<TaskId(const starpu_task*)>;

  /// Drives `scheduler` (started here with `seed`) over `problem`. Both must
  /// outlive the policy, and the policy must outlive starpu_shutdown().
  /// Throws when another SchedulerPolicy exists.
  SchedulerPolicy(const Problem& problem, Scheduler& scheduler, TaskIdOf task_id, std::uint64_t seed = 1);
  ~SchedulerPolicy();
  SchedulerPolicy(const SchedulerPolicy&) = delete;
  SchedulerPolicy& operator=(const SchedulerPolicy&) = delete;

  /// What to put in starpu_conf::sched_policy (with sched_policy_name NULL).
  starpu_sched_policy* policy() noexcept;

  /// Starts the clock the scheduler sees (view.now = 0): call it right
  /// before the workers may pop (starpu_resume() after submitting paused).
  void release();

  struct Stats {
    std::size_t decisions = 0;  ///< calls to choose()
    std::size_t passes = 0;     ///< of which answered pass
    std::size_t forced = 0;     ///< passes replaced by the no-stall rule
    std::size_t finished = 0;   ///< tasks through post_exec_hook
  };
  Stats stats() const;
  /// The first misbehaviour seen inside a StarPU callback (the scheduler
  /// threw, or chose a task that is not ready), where no exception may
  /// cross; empty when none. The run went on with the first ready task.
  std::string error() const;

  struct State;  // the callbacks' state (scheduler_policy.cpp)

 private:
  std::unique_ptr<State> state_;
};

}  // namespace autosched::dag::starpu
