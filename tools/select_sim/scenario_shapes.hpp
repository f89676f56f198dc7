#pragma once
/// @file
/// Generated select-sim scenarios: a loop whose cost profile changes from
/// step to step by a rule, so that the selectors meet the loops of real
/// codes whose imbalance moves (a heavy band that travels, an imbalance that
/// grows and fades, heavy rows that move from the front to the back). Each
/// step's profile is generated, and each arm's time at that step is its
/// simulated loop time on it (techniques/loop_simulator.hpp), as for the
/// trace-driven scenarios: simulated, not measured. A selector that asks for
/// a profiling instance gets that step's profile.
///
///   shape band 0.08 4 100 0.37   # width, peak, period, move per step
///   shape ramp 3 0.5             # cost 1 + 3x over the index, reversed at half time

#include <autosched/select/grammar/arm.hpp>
#include <autosched/techniques/cost_profile.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace autosched {

/// How a generated loop's blocks cost at each step. Block b of B sits at
/// x = (b + ½)/B; a block of the balanced loop costs 1 (scaled so that the
/// balanced loop runs `time_ms` on the scenario's workers).
struct ShapeRule {
  enum class Kind { none, band, ramp };
  Kind kind = Kind::none;
  /// band: 1 + A(t)·exp(−d²/2w²), d the circular distance of x from the
  /// band's centre c(t) = frac(t·move), A(t) = peak·(1 − cos(2πt/period))/2:
  /// the imbalance grows and fades with the period while the band moves
  /// every step.
  double width = 0.1, peak = 4, period = 100, move = 0.37;
  /// ramp: 1 + slope·x before the flip (a fraction of the run), 1 + slope·(1 − x) after.
  double slope = 3, flip = 0.5;
  double time_ms = 10;       ///< the balanced loop's time on the scenario's workers
  double overhead_ns = 80;   ///< h, what a dispatch costs (a chunk request and its clock read)
  int blocks = 256;

  /// The profile of step `t` of `steps`, for a loop of `n` iterations on `workers`.
  [[nodiscard]] CostProfile profile(int t, int steps, std::int64_t n, int workers) const;
};

/// Reads `shape band <width> <peak> <period> <move>` or `shape ramp <slope>
/// <flip>` (the words after `shape`); throws autosched::Error naming `where`.
ShapeRule parse_shape(const std::vector<std::string_view>& words, const std::string& where);

/// Per-step base times (ms) of `arms` and of the profiling instance on the
/// generated loop, and the profiles themselves.
struct GeneratedSteps {
  std::vector<CostProfile> profiles;       ///< [t]
  std::vector<std::vector<double>> arm_ms; ///< [t][arm]
  std::vector<double> profiling_ms;        ///< [t]
};
GeneratedSteps generate_steps(const ShapeRule& rule, const Portfolio& arms, int steps, std::int64_t n, int workers);

}  // namespace autosched
