#pragma once
// The one scheduler interface of task graphs. The simulator and the real
// executor drive it the same way: whenever a processor is idle, it is
// asked for a ready task to run there, or to pass (leave the processor
// idle until the next completion). This is READYS's decision model; the
// static and queue-based heuristics fit it too (HEFT answers with the next
// task of its plan for that processor, MCT with the head of its queue).
#include <autosched/dag/problem.hpp>

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace autosched::dag {

/// The answer "leave this processor idle until the next event".
inline constexpr TaskId pass = no_task;

enum class TaskState : std::uint8_t { waiting, ready, running, done };

/// What a scheduler sees when asked. Times are in the problem's unit.
struct SchedulingView {
  const Problem* problem = nullptr;
  double now = 0;
  std::span<const TaskId> ready;         ///< ready tasks, in the order they became ready
  std::span<const TaskId> running;       ///< per processor: its task, or no_task
  std::span<const double> expected_end;  ///< per processor: start + expected duration, or now when idle
  std::span<const TaskState> state;      ///< per task
  bool is_ready(TaskId t) const { return state[static_cast<std::size_t>(t)] == TaskState::ready; }
};

class Scheduler {
 public:
  virtual ~Scheduler() = default;
  virtual std::string name() const = 0;
  /// A new run of `problem`; static schedulers plan here. `seed` feeds the
  /// randomised ones.
  virtual void start(const Problem& problem, std::uint64_t seed) = 0;
  /// Tasks that just became ready (ascending ids), before any decision at
  /// this time. Queue-based schedulers commit them here.
  virtual void on_ready(const SchedulingView& view, std::span<const TaskId> tasks) {
    static_cast<void>(view), static_cast<void>(tasks);
  }
  /// Processor `p` is idle at `view.now`: a ready task it can run, or pass.
  virtual TaskId choose(const SchedulingView& view, std::size_t p) = 0;
  /// `task` finished on processor `p` at `view.now`.
  virtual void on_finish(const SchedulingView& view, TaskId task, std::size_t p) {
    static_cast<void>(view), static_cast<void>(task), static_cast<void>(p);
  }
};

/// The built-in schedulers by name: heft, readys-heft, heft-min, mct,
/// mct-prio, heteroprio, eager, random (and "readys:<model>" once the
/// learned policy is built). Throws naming the accepted names.
std::unique_ptr<Scheduler> make_scheduler(std::string_view name);
/// The names make_scheduler() accepts, in the order tables list them.
std::vector<std::string> scheduler_names();

/// Schedulers built in another library (the learned policy needs libtorch)
/// join make_scheduler() under a prefix: "readys:<model file>" calls the
/// factory registered for "readys" with "<model file>" (and a bare
/// "readys" with ""). Registering a prefix again replaces its factory.
using SchedulerFactory = std::unique_ptr<Scheduler> (*)(std::string_view argument);
void register_scheduler_family(std::string_view prefix, SchedulerFactory factory);

}  // namespace autosched::dag
