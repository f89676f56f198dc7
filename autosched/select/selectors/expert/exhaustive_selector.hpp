#pragma once
/// @file
/// ExhaustiveSel (Auto4OMP, `auto,3`): try every arm once, in order, keep the
/// fastest and run it. While running it, re-search when its load imbalance
/// rises by more than `lib_rise` percentage points over the best's recorded
/// LIB, or its loop time drifts by more than `drift` (relative) from the
/// best's recorded time. A re-search forgets the stale best (LB4OMP keeps it,
/// so an old time can win the new search) and tries every arm again.

#include <autosched/select/selectors/selector.hpp>

namespace autosched {

class ExhaustiveSelector final : public Selector {
 public:
  ExhaustiveSelector(int arms, double lib_rise, double drift) : arms_(arms), lib_rise_(lib_rise), drift_(drift) {}
  [[nodiscard]] std::string_view name() const noexcept override { return "exhaustive"; }
  Decision choose(const Context& context) override;
  void observe(const Decision& decision, const Outcome& outcome) override;
  [[nodiscard]] std::string save_state() const override;
  bool load_state(std::string_view state) override;
  [[nodiscard]] std::string summary() const override;
  [[nodiscard]] int searches() const noexcept { return searches_; }

 private:
  int arms_;
  double lib_rise_;
  double drift_;
  int next_trial_ = 0;  ///< next arm to try; arms_ when the search is over
  int best_ = -1;
  double best_time_ = 0;
  double best_lib_ = 0;
  int searches_ = 1;
};

}  // namespace autosched
