#pragma once
/// @file
/// ExpertSel (Auto4OMP, `auto,5`): a fuzzy-logic expert that moves along the
/// portfolio order (simple → moderate → aggressive techniques) from what the
/// previous instances measured, exactly as the published code does
/// (LB4OMP's papers and published code; rules in fuzzy_rules.hpp).
///   Instance 1 runs arm 0 (STATIC). Instance 2: phase A maps STATIC's loop
///   time and LIB to an arm. Later: phase B moves the arm by
///   4·(w_more − w_less) from the changes of loop time and LIB between the
///   last two instances. If every membership is 0 the arm stays (the code
///   divides 0 by 0 there). Never stops.

#include <autosched/select/selectors/selector.hpp>

namespace autosched {

class ExpertSelector final : public Selector {
 public:
  explicit ExpertSelector(int arms) : arms_(arms) {}
  [[nodiscard]] std::string_view name() const noexcept override { return "expert"; }
  Decision choose(const Context& context) override;
  void observe(const Decision& decision, const Outcome& outcome) override;
  [[nodiscard]] std::string summary() const override;

  /// Phase A on STATIC's measurement: the arm index (unclamped rules, then
  /// clamped to [0, 11] as in the code).
  static int initial_arm(double time_ms, double lib);
  /// Phase B: the change of arm index, 4·(w_more − w_less); 0 when every
  /// membership is 0.
  static double arm_change(double time_ms, double previous_time_ms, double lib, double previous_lib);

 private:
  int arms_;
  int current_ = 0;
  int instances_ = 0;  ///< outcomes observed
  double time_ms_ = 0, lib_ = 0;
  double previous_time_ms_ = 0, previous_lib_ = 0;
};

}  // namespace autosched
