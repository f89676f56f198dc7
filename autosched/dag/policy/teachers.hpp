#pragma once
// Teachers for the learned policy's imitation warm start: what a good
// scheduler would answer at a decision, from the same view the policy has.
#include <autosched/dag/policy/readys_scheduler.hpp>
#include <autosched/dag/simulator.hpp>

#include <memory>
#include <string_view>

namespace autosched::dag::policy {

/// A scheduler that decides from the view alone (heft-online, heteroprio,
/// eager) as a teacher.
class SchedulerTeacher final : public Teacher {
 public:
  explicit SchedulerTeacher(std::unique_ptr<Scheduler> scheduler) : scheduler_(std::move(scheduler)) {}
  void start(const Problem& problem, const std::vector<KindDurations>&) override { scheduler_->start(problem, 1); }
  TaskId choose(const SchedulingView& view, std::size_t p) override { return scheduler_->choose(view, p); }

 private:
  std::unique_ptr<Scheduler> scheduler_;
};

/// One step of policy improvement over a base scheduler: each answer open
/// to the processor (every candidate, and pass while something runs) is
/// tried by finishing the run with the base scheduler from the current
/// state, on expected durations (or on the mean of `samples` noisy
/// futures), and the answer with the shortest finish wins (the base's own
/// answer on ties). It knows only what the policy knows: the past, and
/// running tasks by their expected ends.
class LookaheadTeacher final : public Teacher {
 public:
  /// `base` must decide from the view alone (heft-online by default).
  explicit LookaheadTeacher(std::string_view base = "heft-online", int samples = 1, double sigma = 0);
  void start(const Problem& problem, const std::vector<KindDurations>& actual) override;
  TaskId choose(const SchedulingView& view, std::size_t p) override;

 private:
  double finish_with(const RunSnapshot& from, std::size_t p, TaskId answer);
  std::string base_name_;
  int samples_;
  double sigma_;
  const Problem* problem_ = nullptr;
  std::unique_ptr<Scheduler> base_;
  std::vector<std::vector<KindDurations>> futures_;
  std::uint64_t calls_ = 0;
};

/// A teacher as a scheduler (to measure it in tables).
class TeacherScheduler final : public Scheduler {
 public:
  TeacherScheduler(std::string name, std::unique_ptr<Teacher> teacher) : name_(std::move(name)), teacher_(std::move(teacher)) {}
  std::string name() const override { return name_; }
  void start(const Problem& problem, std::uint64_t) override { teacher_->start(problem, problem.expected); }
  TaskId choose(const SchedulingView& view, std::size_t p) override { return teacher_->choose(view, p); }

 private:
  std::string name_;
  std::unique_ptr<Teacher> teacher_;
};

}  // namespace autosched::dag::policy
