#pragma once
/// @file
/// The membership functions and rule weights of Auto4OMP's ExpertSel, as the
/// published code has them (LB4OMP's papers and published code). Tuned data kept
/// apart from the mechanism; expert_selector.cpp applies them.
/// Inputs: T = loop time in seconds, LB = load imbalance in percent,
/// dT = change of loop time in percent of the current one, dLB = change of LB
/// in percentage points. Outside the listed ranges a set takes its end value.

namespace autosched::fuzzy {

// Loop time T (s)
inline double short_time(double t) { return t <= 0.01 ? 1.0 : t < 0.03 ? 1.5 - 50.0 * t : 0.0; }
inline double medium_time(double t) {
  if (t < 0 || t > 10) return 0.0;
  if (t < 0.1) return 10.0 * t;
  if (t <= 1) return 1.0;
  return 1.11 - 0.11 * t;
}
inline double long_time(double t) { return t <= 1 ? 0.0 : t < 10 ? 0.11 * t - 0.11 : 1.0; }

// Load imbalance LB (%)
inline double low_lb(double lb) { return lb <= 1 ? 1.0 : lb < 2 ? 2.0 - lb : 0.0; }
inline double moderate_lb(double lb) {
  if (lb < 1 || lb > 5) return 0.0;
  if (lb < 2) return lb - 1.0;
  if (lb <= 4) return 1.0;
  return 5.0 - lb;
}
inline double high_lb(double lb) { return lb <= 4 ? 0.0 : lb < 10 ? 0.166 * lb - 0.64 : 1.0; }

// Change of loop time dT (%)
inline double improved_time(double x) { return x > -0.5 ? 0.0 : x >= -3 ? -0.4 * x - 0.2 : 1.0; }
inline double unchanged_time(double x) {
  if (x < -1 || x > 1) return 0.0;
  if (x <= -0.5) return 2.0 * x + 2.0;
  if (x <= 0.5) return 1.0;
  return 2.0 - 2.0 * x;
}
inline double degraded_time(double x) { return x < 0.5 ? 0.0 : x <= 3 ? 0.4 * x - 0.2 : 1.0; }

// Change of load imbalance dLB (percentage points)
inline double improved_lb(double x) { return x < -3 ? 1.0 : x <= 0 ? -0.33 * x : 0.0; }
inline double unchanged_lb(double x) {
  if (x < -3 || x > 3) return 0.0;
  if (x <= -1.5) return 0.66 * x + 2.0;
  if (x <= 1.5) return 1.0;
  return 2.0 - 0.66 * x;
}
inline double degraded_lb(double x) { return x <= 0 ? 0.0 : x < 3 ? 0.33 * x : 1.0; }

// Defuzzification areas per unit membership. Phase A: the "aggressive"
// trapezoid's area is computed in integer arithmetic in the code (17/2 → 8).
inline constexpr double area_aggressive = 8.0;
inline constexpr double area_moderate = 3.75;
inline constexpr double area_simple = 0.75;
// Phase A: DLS = ⌊14·w_agg + 3·w_mod + 1·(1 − w_sim)⌋.
inline constexpr double weight_aggressive = 14.0;
inline constexpr double weight_moderate = 3.0;
inline constexpr double weight_not_simple = 1.0;
// Phase B: areas of "less aggressive", "same", "more aggressive"; step = 4·(w_more − w_less).
inline constexpr double area_less = 2.75;
inline constexpr double area_same = 1.5;
inline constexpr double area_more = 2.75;
inline constexpr double step_scale = 4.0;

}  // namespace autosched::fuzzy
