#pragma once
// The state of one run of a task graph, and the one place where idle
// processors are offered decisions. The simulator and the real executor
// both drive a scheduler through it, so they cannot drift apart: the same
// order of questions, the same no-stall rule, the same checks of the
// scheduler's answers. They differ only in where time comes from and in
// what starting a task means (a finish time, or a worker woken).
#include <autosched/dag/scheduler.hpp>

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace autosched::dag::detail {

class DecisionState {
 public:
  /// `readys_pass_rules`: READYS's exact pass rules (SimulationOptions).
  DecisionState(const Problem& problem, Scheduler& scheduler, bool readys_pass_rules = false);

  /// Starts the scheduler (seed as given) and makes the sources ready.
  void begin(std::uint64_t seed, double now);

  /// Starts the scheduler (seed as given) on a run caught mid-way: tasks in
  /// `state`, `running[p]` on each processor expected to end at
  /// `expected_end[p]`, inputs placed as `placed_on` says. The ready tasks
  /// (ascending) go to the scheduler's on_ready().
  void resume(std::uint64_t seed, double now, std::span<const TaskState> state, std::span<const TaskId> running,
              std::span<const double> expected_end, std::span<const int> placed_on);
  /// Offers the instant `now` to the idle processors, lowest index first:
  /// a pass moves on to the next one, a task starts (`launch(task, p,
  /// transfer)` is called once the state has it running; `transfer` is the
  /// input transfer time). Returns when every idle processor passed or no
  /// task is ready. When nothing runs and tasks are ready, the first ready
  /// task goes to the first idle processor that can run it (no stall).
  template <class Launch>
  void decide(double now, Launch&& launch);

  /// Task `t` ended on `p` at `now`; its successors that became ready wait
  /// for announce_ready(). The simulator completes every task ending at one
  /// time, then announces once; the executor announces each completion.
  void complete(TaskId t, std::size_t p, double now);
  /// The tasks completions made ready, ascending, to the ready list and to
  /// the scheduler's on_ready().
  void announce_ready();

  bool finished() const noexcept { return done_ == state_.size(); }
  bool nothing_running() const noexcept { return running_count_ == 0; }
  TaskId running_on(std::size_t p) const { return running_[p]; }
  std::size_t decisions() const noexcept { return decisions_; }
  std::size_t passes() const noexcept { return passes_; }
  std::size_t forced() const noexcept { return forced_; }
  const Scheduler& scheduler() const noexcept { return scheduler_; }

 private:
  SchedulingView view() const { return {&problem_, now_, ready(), running_, expected_end_, state_}; }
  /// The ready tasks in the order they became ready: ready_ from ready_head_.
  std::span<const TaskId> ready() const noexcept { return std::span<const TaskId>(ready_).subspan(ready_head_); }
  /// Takes `t` out of the ready list, keeping the others' order.
  void remove_ready(TaskId t);
  TaskId first_ready_for(std::size_t p) const;
  /// Checks the choice and marks it running; returns the input transfer time.
  double start(TaskId t, std::size_t p);
  /// The no-stall rule's choice: the first ready task, on the first idle
  /// processor that can run it.
  std::pair<TaskId, std::size_t> no_stall_choice() const;

  const Problem& problem_;
  Scheduler& scheduler_;
  bool readys_pass_rules_;
  double now_ = 0;
  std::size_t done_ = 0, running_count_ = 0;
  std::size_t decisions_ = 0, passes_ = 0, forced_ = 0;
  // The ready list is a vector whose first ready_head_ entries are gone: a
  // task taken near the front (list schedulers mostly take the oldest)
  // shifts the ones before it instead of the ones after, so that taking
  // costs its distance to the nearer end, not the list's length (10^6
  // ready tasks took minutes).
  std::vector<TaskId> ready_, newly_ready_;
  std::size_t ready_head_ = 0;
  std::vector<TaskId> running_;
  std::vector<double> expected_end_;
  std::vector<TaskState> state_;
  std::vector<std::uint32_t> waiting_for_;
  std::vector<int> placed_on_;
};

template <class Launch>
void DecisionState::decide(double now, Launch&& launch) {
  now_ = now;
  for (std::size_t p = 0; p < running_.size(); ++p) {
    if (running_[p] == no_task) expected_end_[p] = now_;
  }
  std::size_t cur = 0;
  const std::size_t processors = running_.size();
  while (!finished()) {
    while (cur < processors && running_[cur] != no_task) ++cur;
    if (ready().empty() || cur == processors) {
      if (!nothing_running()) return;
      const auto [t, p] = no_stall_choice();
      ++forced_;
      launch(t, p, start(t, p));
      cur = 0;
      continue;
    }
    TaskId choice = scheduler_.choose(view(), cur);
    ++decisions_;
    if (choice == pass && readys_pass_rules_ && nothing_running()) {
      choice = first_ready_for(cur);
      if (choice != pass) ++forced_;
    }
    if (choice == pass) {
      ++passes_;
      // READYS: on a homogeneous platform a pass makes every idle processor
      // wait for the next completion.
      if (readys_pass_rules_ && problem_.platform.homogeneous() && !nothing_running()) return;
      ++cur;
      continue;
    }
    const double transfer = start(choice, cur);
    launch(choice, cur, transfer);
  }
}

}  // namespace autosched::dag::detail
