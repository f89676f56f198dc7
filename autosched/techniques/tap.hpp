#pragma once
/// @file
/// TAP — tapering (Lucco 1992): GSS corrected for the iteration-time spread,
///   T = R/P,  v = alpha·sigma/mu,  chunk = ⌈T + v²/2 − v·sqrt(2T + v²/4)⌉, then max(·, c).
/// The formula is below c for small T on both sides of its minimum, so once a
/// chunk falls to c every later one does too. mu must be > 0.

#include <autosched/techniques/loop_shape.hpp>

#include <algorithm>
#include <cmath>

namespace autosched {

class Tap {
 public:
  Tap(const LoopShape& s, double mu_ns, double sigma_ns, double alpha) noexcept
      : p_(s.workers), c_(min_chunk(s)), v_(alpha * sigma_ns / mu_ns) {}
  std::int64_t next_size(std::int64_t, std::int64_t r) noexcept {
    const double t = static_cast<double>(r) / static_cast<double>(p_);
    const double f = t + v_ * v_ / 2.0 - v_ * std::sqrt(2.0 * t + v_ * v_ / 4.0);
    const auto chunk = static_cast<std::int64_t>(std::ceil(f));
    steady_ = chunk <= c_;
    return std::max(chunk, c_);
  }
  [[nodiscard]] bool steady() const noexcept { return steady_; }

 private:
  std::int64_t p_;
  std::int64_t c_;
  double v_;
  bool steady_ = false;
};

}  // namespace autosched
