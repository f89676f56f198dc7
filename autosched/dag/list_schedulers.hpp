#pragma once
// Dynamic list schedulers: they decide as tasks become ready or as
// processors go idle, with expected durations, so they adapt to noise.
#include <autosched/dag/scheduler.hpp>

#include <deque>
#include <random>
#include <vector>

namespace autosched::dag {

/// MCT (StarPU's `dm`): each task, as it becomes ready, is committed to the
/// processor where it would complete first, judging by expected durations
/// of what that processor runs and has queued (lowest index on ties); each
/// processor runs its queue in order. With `priorities` (`mct-prio`, like
/// StarPU's `dmdas`): tasks that become ready together are committed in
/// bottom-level order and each queue runs highest bottom level first; and,
/// since commitments rest on expected durations, a processor that goes idle
/// with an empty queue takes a task queued elsewhere when it would finish
/// it sooner than the processor it waits for (the highest bottom level
/// among those). Without noise and on a model that fits, that never fires
/// for plain MCT's FIFO queues; with priorities it also repairs a task
/// pushed back by later, more urgent ones.
class Mct final : public Scheduler {
 public:
  explicit Mct(bool priorities = false) : priorities_(priorities) {}
  std::string name() const override { return priorities_ ? "mct-prio" : "mct"; }
  void start(const Problem& problem, std::uint64_t seed) override;
  void on_ready(const SchedulingView& view, std::span<const TaskId> tasks) override;
  TaskId choose(const SchedulingView& view, std::size_t p) override;

 private:
  TaskId take_from_another_queue(const SchedulingView& view, std::size_t p);
  bool priorities_;
  std::vector<double> priority_;
  std::vector<std::deque<TaskId>> queue_;
  std::vector<double> queued_work_;  ///< expected duration of each processor's queue
  std::vector<TaskId> order_;
};

/// Heteroprio (Beaumont et al.): an idle GPU takes the ready task that
/// gains most from a GPU, an idle CPU the one that gains least; ties by
/// bottom level. A CPU takes a task only if it would finish it no later
/// than a GPU would: the GPUs take the ready tasks in their order (most
/// accelerated first), so a task waits for the GPU work ahead of it, spread
/// over the GPUs, after the earliest GPU is free. (Heteroprio's answer to
/// the same problem is spoliation, taking a task back from a slow worker;
/// deciding before the start needs no preemption.) On a platform of one
/// kind it is a priority list: the highest bottom level first.
class Heteroprio final : public Scheduler {
 public:
  std::string name() const override { return "heteroprio"; }
  void start(const Problem& problem, std::uint64_t seed) override;
  TaskId choose(const SchedulingView& view, std::size_t p) override;

 private:
  bool higher_priority(TaskId a, TaskId b) const;  ///< higher bottom level, then lower id
  bool gpu_first(TaskId a, TaskId b) const;        ///< the GPUs' order: most accelerated, then higher_priority
  std::vector<double> priority_, acceleration_;
  std::vector<TaskId> by_gpu_order_;
};

/// `heft-online`: HEFT's choice made at run time instead of in a plan
/// (READYS study §5.4: in the idle-processor decision model HEFT answers
/// "the top-ranked ready task whose earliest finish is here, else pass").
/// An idle processor takes the ready task of highest bottom level (on the
/// fastest kinds, as heft-min ranks) among those it would finish within
/// `slack` times the time another processor would need: from now, by
/// expected durations, counting how long the other is still busy. Else it
/// passes. The slack keeps a CPU from taking a task a busy GPU would finish
/// only slightly sooner, which a strict earliest-finish test does at every
/// instant and loses the long run for (docs/dag-policy.md: slack 1 costs
/// 6% at T = 8, and any slack in [1.75, 3] gives the same schedules). It
/// decides from the view alone, so it is also the learned policy's teacher.
class HeftOnline final : public Scheduler {
 public:
  explicit HeftOnline(double slack = 2.0);
  std::string name() const override { return "heft-online"; }
  void start(const Problem& problem, std::uint64_t seed) override;
  TaskId choose(const SchedulingView& view, std::size_t p) override;

 private:
  double slack_;
  std::vector<double> rank_;
  std::vector<TaskId> order_;
};

/// Eager: the first ready task, for whichever processor asks (StarPU's
/// `eager`; READYS's "first of the ready list" never-pass policy).
class Eager final : public Scheduler {
 public:
  std::string name() const override { return "eager"; }
  void start(const Problem&, std::uint64_t) override {}
  TaskId choose(const SchedulingView& view, std::size_t p) override;
};

/// The smallest ready id (READYS's other never-pass test policy).
class SmallestId final : public Scheduler {
 public:
  std::string name() const override { return "smallest-id"; }
  void start(const Problem&, std::uint64_t) override {}
  TaskId choose(const SchedulingView& view, std::size_t p) override;
};

/// A uniformly random ready task the processor can run (a sanity floor).
class RandomChoice final : public Scheduler {
 public:
  std::string name() const override { return "random"; }
  void start(const Problem&, std::uint64_t seed) override { rng_.seed(seed); }
  TaskId choose(const SchedulingView& view, std::size_t p) override;

 private:
  std::mt19937_64 rng_;
  std::vector<TaskId> candidates_;
};

}  // namespace autosched::dag
