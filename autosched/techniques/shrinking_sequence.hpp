#pragma once
/// @file
/// The rule most deterministic techniques share, written once: a formula
/// gives the size of the next chunk, the minimum chunk c is applied after it,
/// and because the formula never grows as work runs out, the sequence is
/// steady (every later chunk is c) once the formula falls to c. Techniques
/// supply only their formula (gss, tap) or their per-batch formula (fac, fac2,
/// mfac2, tfss), and satisfy SequenceCalculator through these adapters.

#include <autosched/techniques/loop_shape.hpp>

#include <algorithm>
#include <cstdint>

namespace autosched {

/// `formula(k, r)`: size of chunk k with r iterations left, before the minimum.
template <class Formula>
class Shrinking {
 public:
  Shrinking(std::int64_t c, Formula formula) noexcept : c_(c), formula_(std::move(formula)) {}
  std::int64_t next_size(std::int64_t k, std::int64_t r) noexcept {
    const std::int64_t raw = formula_(k, r);
    steady_ = raw <= c_;
    return std::max(raw, c_);
  }
  [[nodiscard]] bool steady() const noexcept { return steady_; }

 private:
  std::int64_t c_;
  Formula formula_;
  bool steady_ = false;
};

/// Batches of P equal chunks: `formula(j, r)` sizes batch j when it opens,
/// with r iterations left, and is asked once per batch in order.
template <class Formula>
class ShrinkingBatches {
 public:
  ShrinkingBatches(int p, std::int64_t c, Formula formula) noexcept : p_(p), batch_(c, std::move(formula)) {}
  std::int64_t next_size(std::int64_t k, std::int64_t r) noexcept {
    if (k % p_ == 0) size_ = batch_.next_size(k / p_, r);
    last_k_ = k;
    return size_;
  }
  [[nodiscard]] bool steady() const noexcept { return batch_.steady(); }
  /// The rest of the batch has the size just returned: plan it as one run.
  [[nodiscard]] std::int64_t same_size_chunks() const noexcept { return p_ - last_k_ % p_; }

 private:
  std::int64_t p_;
  Shrinking<Formula> batch_;
  std::int64_t size_ = 1;
  std::int64_t last_k_ = 0;
};

}  // namespace autosched
