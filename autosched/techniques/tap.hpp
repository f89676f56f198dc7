#pragma once
/// @file
/// TAP — tapering (Lucco 1992): GSS corrected for the iteration-time spread,
///   T = R/P,  v = alpha·sigma/mu,  chunk = ⌈T + v²/2 − v·sqrt(2T + v²/4)⌉, then max(·, c).
/// The formula is below c for small T on both sides of its minimum, so once a
/// chunk falls to c every later one does too. mu must be > 0.

#include <autosched/techniques/loop_shape.hpp>
#include <autosched/techniques/shrinking_sequence.hpp>

#include <cmath>

namespace autosched {

struct TapFormula {
  double p;
  double v;  ///< alpha·sigma/mu
  std::int64_t operator()(std::int64_t, std::int64_t r) const noexcept {
    const double t = static_cast<double>(r) / p;
    return static_cast<std::int64_t>(std::ceil(t + v * v / 2.0 - v * std::sqrt(2.0 * t + v * v / 4.0)));
  }
};

class Tap : public Shrinking<TapFormula> {
 public:
  Tap(const LoopShape& s, double mu_ns, double sigma_ns, double alpha) noexcept
      : Shrinking(min_chunk(s), TapFormula{static_cast<double>(s.workers), alpha * sigma_ns / mu_ns}) {}
};

}  // namespace autosched
