#pragma once
/// @file
/// FISS — fixed increase self-scheduling (Philip & Das 1997): batches of P
/// chunks that grow by a fixed step over B stages,
///   X = 2 + B,  C0 = max(⌊N/(X·P)⌋, c),
///   δ = ⌊2N(1 − B/X) / (P·B·(B−1))⌋ = ⌊4N / (X·P·B·(B−1))⌋,   chunk_j = C0 + j·δ.
/// B = stages, default P − 1. Guard: B < 2 (P <= 2 by default) would divide
/// by zero; δ is then 0 and FISS hands out chunks of C0.

#include <autosched/techniques/loop_shape.hpp>

#include <algorithm>

namespace autosched {

class Fiss {
 public:
  Fiss(const LoopShape& s, int stages) noexcept : p_(s.workers) {
    const std::int64_t b = stages > 0 ? stages : std::max(1, s.workers - 1);
    const std::int64_t x = 2 + b;
    first_ = std::max(s.n / (x * p_), min_chunk(s));
    if (b >= 2) {
      step_ = static_cast<std::int64_t>(int128{4} * s.n / (int128{x} * p_ * b * (b - 1)));
    }
  }
  std::int64_t next_size(std::int64_t k, std::int64_t) noexcept {
    last_k_ = k;
    return first_ + (k / p_) * step_;
  }
  [[nodiscard]] bool steady() const noexcept { return step_ == 0; }
  [[nodiscard]] std::int64_t same_size_chunks() const noexcept { return p_ - last_k_ % p_; }

 private:
  std::int64_t p_;
  std::int64_t first_ = 1;  ///< C0
  std::int64_t step_ = 0;   ///< δ
  std::int64_t last_k_ = 0;
};

}  // namespace autosched
