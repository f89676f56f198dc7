#pragma once
/// @file
/// VISS — variable increase self-scheduling (Philip & Das 1997): batches of P
/// chunks growing towards twice the first,
///   C0 = ⌊N/(V·P)⌋,  chunk_j = ⌊2·C0·(1 − 0.5^(j+1))⌋ = 2·C0 − ⌈C0/2^j⌉,  then max(·, c).
/// V defaults to P. LB4OMP ignores the chunk parameter here; we apply it as
/// the minimum like every other technique. C0 = 0 (N < V·P) gives chunks of c.

#include <autosched/techniques/loop_shape.hpp>

#include <algorithm>

namespace autosched {

class Viss {
 public:
  Viss(const LoopShape& s, int divisor) noexcept : p_(s.workers), c_(min_chunk(s)) {
    const std::int64_t v = divisor > 0 ? divisor : s.workers;
    first_ = static_cast<std::int64_t>(int128{s.n} / (int128{v} * p_));
  }
  std::int64_t next_size(std::int64_t k, std::int64_t) noexcept {
    last_k_ = k;
    const std::int64_t j = k / p_;
    const std::int64_t missing = j >= 62 ? (first_ > 0 ? 1 : 0) : ceil_div(first_, std::int64_t{1} << j);
    steady_ = missing <= 1;  // from here on the size is 2·C0 − 1 (or c)
    // 2·C0 overflows for N near 2^62 with V·P = 1; a chunk never needs more than N.
    const auto size = static_cast<std::int64_t>(std::min<int128>(int128{2} * first_ - missing, max_iterations));
    return std::max(size, c_);
  }
  [[nodiscard]] bool steady() const noexcept { return steady_; }
  [[nodiscard]] std::int64_t same_size_chunks() const noexcept { return p_ - last_k_ % p_; }

 private:
  std::int64_t p_;
  std::int64_t c_;
  std::int64_t first_ = 0;  ///< C0
  std::int64_t last_k_ = 0;
  bool steady_ = false;
};

}  // namespace autosched
