#pragma once
// Teachers for the learned policy's imitation warm start: what a good
// scheduler would answer at a decision, from the same view the policy has.
#include <autosched/dag/policy/readys_scheduler.hpp>
#include <autosched/dag/simulator.hpp>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

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

/// One step of policy improvement over one or more base schedulers: each
/// answer open to the processor (every candidate, and pass while something
/// runs) is tried by finishing the run from the current state with each base
/// scheduler, on expected durations (or on the mean of `samples` noisy
/// futures); an answer is worth its best finish over the bases, and the
/// answer with the shortest one wins (the first base's own answer on ties).
/// With several bases the teacher is never worse than the best of them
/// without noise, so it can follow whichever rule suits the graph's shape
/// (heft-online on Cholesky, heteroprio on large LU and QR). It knows only
/// what the policy knows: the past, and running tasks by their expected ends.
class LookaheadTeacher final : public Teacher {
 public:
  /// Every base must decide from the view alone (heft-online by default).
  explicit LookaheadTeacher(std::string_view base = "heft-online", int samples = 1, double sigma = 0);
  LookaheadTeacher(const std::vector<std::string>& bases, int samples, double sigma);
  void start(const Problem& problem, const std::vector<KindDurations>& actual) override;
  TaskId choose(const SchedulingView& view, std::size_t p) override;

 private:
  double finish_with(const RunSnapshot& from, std::size_t p, TaskId answer);
  int samples_;
  double sigma_;
  const Problem* problem_ = nullptr;
  std::vector<std::unique_ptr<Scheduler>> bases_;
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
