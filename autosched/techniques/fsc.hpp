#pragma once
/// @file
/// FSC — fixed size chunking (Kruskal & Weiss 1985): the chunk size that
/// balances scheduling overhead h against the expected imbalance from the
/// iteration-time spread sigma,
///   chunk = ( sqrt(2) · N · h / (sigma · P · sqrt(ln P)) )^(2/3),  then max(·, c).
/// Guards (a division by zero LB4OMP's published code does not guard): P = 1 → one chunk of N (ln 1 = 0);
/// sigma = 0 → ⌈N/P⌉ (the formula grows without bound); h = 0 → c.

#include <autosched/techniques/loop_shape.hpp>

#include <algorithm>
#include <cmath>

namespace autosched {

[[nodiscard]] inline std::int64_t fsc_chunk(const LoopShape& s, double sigma_ns, double h_ns) noexcept {
  if (s.n == 0) return 1;
  if (s.workers == 1) return s.n;
  if (sigma_ns <= 0) return ceil_div(s.n, s.workers);
  const double p = s.workers;
  const double x = std::sqrt(2.0) * static_cast<double>(s.n) * h_ns / (sigma_ns * p * std::sqrt(std::log(p)));
  const double chunk = std::pow(x, 2.0 / 3.0);
  if (!(chunk < static_cast<double>(s.n))) return s.n;  // also catches inf/NaN
  return std::max<std::int64_t>(1, static_cast<std::int64_t>(chunk));
}

class Fsc {
 public:
  Fsc(const LoopShape& s, double sigma_ns, double h_ns) noexcept
      : size_(std::max(fsc_chunk(s, sigma_ns, h_ns), min_chunk(s))) {}
  [[nodiscard]] std::int64_t next_size(std::int64_t, std::int64_t) const noexcept { return size_; }
  [[nodiscard]] bool steady() const noexcept { return true; }

 private:
  std::int64_t size_;
};

}  // namespace autosched
