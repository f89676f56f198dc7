#pragma once
// HEFT (Topcuoglu et al. 2002): a static plan from expected durations,
// executed in each processor's planned order with the actual durations.
#include <autosched/dag/ranks.hpp>
#include <autosched/dag/scheduler.hpp>

#include <vector>

namespace autosched::dag {

enum class HeftRules {
  standard,  ///< `heft`: rank on the mean over processors, ties to the lower id, a gap fits when >= the duration
  readys,    ///< `readys-heft`: READYS's HEFT package bit for bit (ties to the higher id, strict gaps, isolated tasks last)
  fastest,   ///< `heft-min`: rank on the fastest kind (not misled by a 30× GPU speed-up)
};

class Heft final : public Scheduler {
 public:
  explicit Heft(HeftRules rules = HeftRules::standard) : rules_(rules) {}
  std::string name() const override;
  void start(const Problem& problem, std::uint64_t seed) override;
  TaskId choose(const SchedulingView& view, std::size_t p) override;

  /// The plan: per processor, its tasks in planned order with planned start
  /// and end (valid after start()).
  struct Slot {
    TaskId task;
    double start, end;
  };
  const std::vector<std::vector<Slot>>& plan() const noexcept { return plan_; }
  /// The plan's own makespan (= the simulated one when durations are exact).
  double planned_makespan() const noexcept { return planned_makespan_; }
  /// The makespan of the tasks READYS's HEFT package schedules (it leaves
  /// isolated tasks out): its reference number. Equal to planned_makespan()
  /// unless the graph has isolated tasks and the rules are `readys`.
  double package_makespan() const noexcept { return package_makespan_; }

 private:
  HeftRules rules_;
  std::vector<std::vector<Slot>> plan_;
  std::vector<std::size_t> next_;  ///< per processor: the index of its next task in plan_
  double planned_makespan_ = 0, package_makespan_ = 0;
};

}  // namespace autosched::dag
