#pragma once
/// @file
/// BinarySel (Auto4OMP, `auto,4`; in the code, not in the papers'
/// evaluations): a bisection along the portfolio order driven by load
/// imbalance only. Step k moves by ⌊2A / 2^k⌋ (24, 12, 6, 3, 1 for A = 12):
/// up (towards more adaptive arms) on the first move or when LIB rose since
/// the previous instance, down otherwise; clamped to the portfolio. When the
/// step reaches 0 the arm is kept for good. From the initial position −1 the
/// first move lands on the last arm (mAF in Auto4OMP's order).

#include <autosched/select/selectors/selector.hpp>

namespace autosched {

class BinarySelector final : public Selector {
 public:
  explicit BinarySelector(int arms) : arms_(arms) {}
  [[nodiscard]] std::string_view name() const noexcept override { return "binary"; }
  Decision choose(const Context& context) override;
  void observe(const Decision& decision, const Outcome& outcome) override;
  [[nodiscard]] std::string summary() const override;

 private:
  int arms_;
  int current_ = -1;
  int trials_ = 0;
  bool stopped_ = false;
  double last_lib_ = -1;      ///< LIB of the instance that just ran
  double previous_lib_ = -1;  ///< LIB of the one before (LB4OMP's bestLB)
};

}  // namespace autosched
