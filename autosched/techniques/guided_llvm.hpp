#pragma once
/// @file
/// guided-llvm — what schedule(guided) does in LLVM's libomp (guided-iterative):
/// chunk = ⌊R/(2P)⌋ while R >= 2P(c+1), then self-scheduling with chunk c;
/// the whole loop is SS with c when (2c+1)P >= N.

#include <autosched/techniques/loop_shape.hpp>

namespace autosched {

class GuidedLlvm {
 public:
  explicit GuidedLlvm(const LoopShape& s) noexcept : p_(s.workers), c_(min_chunk(s)) {
    // (2c+1)P >= N is evaluated in floating point because c may be near 2^62;
    // when it fails, 2P(c+1) < N + P cannot overflow.
    const bool all_ss = (2.0 * static_cast<double>(c_) + 1.0) * static_cast<double>(p_) >= static_cast<double>(s.n);
    tail_from_ = all_ss ? s.n + 1 : 2 * p_ * (c_ + 1);
  }
  std::int64_t next_size(std::int64_t, std::int64_t r) noexcept {
    steady_ = r < tail_from_;
    return steady_ ? c_ : r / (2 * p_);
  }
  [[nodiscard]] bool steady() const noexcept { return steady_; }

 private:
  std::int64_t p_;
  std::int64_t c_;
  std::int64_t tail_from_ = 0;  ///< SS tail once fewer iterations than this remain
  bool steady_ = false;
};

}  // namespace autosched
