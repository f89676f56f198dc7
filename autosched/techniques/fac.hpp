#pragma once
/// @file
/// FAC — factoring (Flynn Hummel, Schonberg & Flynn 1992). Chunks come in
/// batches of P equal chunks; each batch takes a fraction of what remains that
/// shrinks with the iteration-time variability:
///   b = P·sigma / (2·mu·sqrt(R)),
///   batch 0:  x = 1 + b² + b·sqrt(b² + 2)
///   later:    x = 2 + b² + b·sqrt(b² + 4),    chunk = ⌈R/(x·P)⌉, then max(·, c)
/// with R the iterations remaining when the batch opens. Every batch holds
/// exactly P chunks, so R is known in advance and the sequence is planned
/// once: this is also mFAC (LB4OMP's lock-free FAC), which replays the same
/// recurrence; LB4OMP's FAC takes a mutex per request, ours needs none.
/// mu and sigma are floating point (LB4OMP's integer mu divides by zero below
/// 1 µs); mu must be > 0.

#include <autosched/techniques/loop_shape.hpp>

#include <algorithm>
#include <cmath>

namespace autosched {

class Fac {
 public:
  Fac(const LoopShape& s, double mu_ns, double sigma_ns) noexcept
      : p_(s.workers), c_(min_chunk(s)), cv_(sigma_ns / mu_ns) {}
  std::int64_t next_size(std::int64_t k, std::int64_t r) noexcept {
    if (k % p_ == 0) {
      const double p = static_cast<double>(p_);
      const double b = p * cv_ / (2.0 * std::sqrt(static_cast<double>(r)));
      const double x = k == 0 ? 1.0 + b * b + b * std::sqrt(b * b + 2.0) : 2.0 + b * b + b * std::sqrt(b * b + 4.0);
      const auto chunk = static_cast<std::int64_t>(std::ceil(static_cast<double>(r) / (x * p)));
      // Later batches have x >= 2 and a smaller R, hence never a larger chunk.
      steady_ = k > 0 && chunk <= c_;
      size_ = std::max(chunk, c_);
    }
    return size_;
  }
  [[nodiscard]] bool steady() const noexcept { return steady_; }

 private:
  std::int64_t p_;
  std::int64_t c_;
  double cv_;  ///< sigma / mu
  std::int64_t size_ = 1;
  bool steady_ = false;
};

}  // namespace autosched
