#pragma once
/// @file
/// TSS — trapezoid self-scheduling (Tzen & Ni 1993): chunk sizes fall
/// linearly from F to L over A chunks,
///   F = max(1, ⌊N/(2P)⌋),  L = clamp(c, 1, F) (c defaults to 1),
///   A = max(2, ⌈2N/(F+L)⌉),  chunk i = F − round(i·(F−L)/(A−1)).
/// The decrement δ = (F−L)/(A−1) is kept exact (a rational), not truncated
/// to an integer as LB4OMP does, which turns TSS into SS-with-F whenever
/// F − L < A − 1. Rounding each size to the nearest integer keeps every chunk
/// at or above L; any rest after A chunks is handed out in chunks of L.

#include <autosched/techniques/loop_shape.hpp>

#include <algorithm>

namespace autosched {

/// The trapezoid of Tzen & Ni: first size F, last size L, A chunks.
struct Trapezoid {
  std::int64_t first = 1;  ///< F
  std::int64_t last = 1;   ///< L
  std::int64_t count = 2;  ///< A

  Trapezoid(std::int64_t n, std::int64_t f, std::int64_t l) noexcept
      : first(std::max<std::int64_t>(1, f)),
        last(std::clamp<std::int64_t>(l, 1, first)),
        // 2N overflows 64 bits for N near 2^62: divide in 128 bits.
        count(std::max<std::int64_t>(
            2, static_cast<std::int64_t>((int128{2} * n + (first + last) - 1) / (first + last)))) {}

  /// Size of chunk i (i >= 0); L from chunk A on.
  [[nodiscard]] std::int64_t size(std::int64_t i) const noexcept {
    if (i >= count) return last;
    // round(i·(F−L)/(A−1)) = ⌊(2·i·(F−L) + (A−1)) / (2(A−1))⌋, in 128 bits.
    const int128 num = int128{2} * i * (first - last) + (count - 1);
    return first - static_cast<std::int64_t>(num / (int128{2} * (count - 1)));
  }
};

class Tss {
 public:
  explicit Tss(const LoopShape& s) noexcept
      : shape_(s.n, s.n / (2 * std::int64_t{s.workers}), s.chunk > 0 ? s.chunk : 1) {}
  std::int64_t next_size(std::int64_t k, std::int64_t) noexcept {
    steady_ = k >= shape_.count;
    return shape_.size(k);
  }
  [[nodiscard]] bool steady() const noexcept { return steady_; }
  [[nodiscard]] const Trapezoid& trapezoid() const noexcept { return shape_; }

 private:
  Trapezoid shape_;
  bool steady_ = false;
};

}  // namespace autosched
