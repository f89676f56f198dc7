#pragma once
/// @file
/// mFSC — FSC without a profile (LB4OMP): a fixed chunk giving about as many
/// chunks as factoring would,
///   m = ⌈N/P⌉,  chunk = ⌊0.55 + m · ln 2 / ln m⌋,  then max(·, c).
/// Guard: m <= 1 (ln 1 = 0, i.e. N <= P) → 1.

#include <autosched/techniques/loop_shape.hpp>

#include <algorithm>
#include <cmath>

namespace autosched {

[[nodiscard]] inline std::int64_t mfsc_chunk(const LoopShape& s) noexcept {
  const std::int64_t m = ceil_div(s.n, s.workers);
  if (m <= 1) return 1;
  const double md = static_cast<double>(m);
  return std::max<std::int64_t>(1, static_cast<std::int64_t>(0.55 + md * std::log(2.0) / std::log(md)));
}

class Mfsc {
 public:
  explicit Mfsc(const LoopShape& s) noexcept : size_(std::max(mfsc_chunk(s), min_chunk(s))) {}
  [[nodiscard]] std::int64_t next_size(std::int64_t, std::int64_t) const noexcept { return size_; }
  [[nodiscard]] bool steady() const noexcept { return true; }

 private:
  std::int64_t size_;
};

}  // namespace autosched
