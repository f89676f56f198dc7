#pragma once
/// @file
/// auto's first instances: what a loop's first instance in each process
/// cost, per arm, across runs. A loop instance that may be the only one in
/// its process is not spent profiling (a profile times every block, and a
/// loop that runs once never uses the ranking it buys): it runs the arm
/// these records say is best, guided while there are none, and its time
/// and its threads' imbalance join the records through the store. A loop
/// that repeats profiles on its second instance.
///
/// Across runs of a loop that runs once per process: the best-recorded arm
/// runs unless its threads finished far enough apart that balancing could
/// save more than `once_imbalance` of its time; then the next robust arm
/// not yet recorded (guided, static-steal, static) runs once. So a loop
/// guided balances stays on guided from its first run (no warm run pays
/// for a try), and an uneven one converges within three runs to the best
/// of the three.
///
///   FirstInstances first(portfolio.size());
///   const FirstInstances::Pick pick = first.pick(portfolio, 0.05);  // arm, exploring
///   … run pick.arm …
///   first.add(pick.arm, loop_ns, metrics.percent_imbalance);

#include <autosched/core/running_stats.hpp>
#include <autosched/select/grammar/arm.hpp>

#include <iosfwd>
#include <vector>

namespace autosched::autoselect {

class FirstInstances {
 public:
  explicit FirstInstances(int arms = 0) : arms_(arms) {
    if (arms > 0) records_.reserve(2);  // the first records add nothing to the program's heap
  }

  struct Pick {
    int arm = -1;            ///< -1: the portfolio has none of the robust arms
    bool exploring = false;  ///< a robust arm tried because the best one was uneven
  };
  /// The arm for this process's first instance of the loop.
  [[nodiscard]] Pick pick(const Portfolio& arms, double once_imbalance) const;
  /// One first instance: its arm, loop time (ns) and the percent imbalance
  /// of its threads' finishing times (LoopMetrics::percent_imbalance).
  void add(int arm, double time_ns, double percent_imbalance);
  [[nodiscard]] bool empty() const noexcept { return count() == 0; }
  /// First instances recorded, over every arm.
  [[nodiscard]] long count() const noexcept;
  /// The arm with the lowest mean first-instance time, -1 with none.
  [[nodiscard]] int best() const noexcept;
  /// The first-instance times of `arm` (count 0: none).
  [[nodiscard]] const RunningStats& time(int arm) const noexcept;

  /// " once K" then K times " arm count mean m2 imbalance" (arms with records).
  void write(std::ostream& out) const;
  /// The inverse of write() after its "once" tag; false on anything a run
  /// could not have written (an arm out of range, a count or time no run has).
  bool read(std::istream& in);

 private:
  struct Record {
    int arm = 0;
    RunningStats time;
    double imbalance = 0;  ///< percent, the last first instance's
  };
  [[nodiscard]] const Record* find(int arm) const noexcept;

  int arms_ = 0;
  /// Only the arms that ran a first instance, by arm: a run adds one, so a
  /// loop holds a few records, not one per arm (every loop name has this).
  std::vector<Record> records_;
};

}  // namespace autosched::autoselect
