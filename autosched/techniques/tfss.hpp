#pragma once
/// @file
/// TFSS — trapezoid factoring self-scheduling (Chronopoulos et al. 2001):
/// chunks come in batches of P, and batch j's chunk is the mean of the P TSS
/// chunks it replaces,
///   chunk_j = ⌊(t_{jP} + … + t_{jP+P−1}) / P⌋,  then max(·, c),
/// where t_i are TSS sizes with F = ⌈N/(2P)⌉ and L = 1 (the trapezoid of
/// tss.hpp, exact decrement).

#include <autosched/techniques/loop_shape.hpp>
#include <autosched/techniques/tss.hpp>

#include <algorithm>

namespace autosched {

class Tfss {
 public:
  explicit Tfss(const LoopShape& s) noexcept
      : p_(s.workers), c_(min_chunk(s)), shape_(s.n, ceil_div(s.n, 2 * std::int64_t{s.workers}), 1) {}
  std::int64_t next_size(std::int64_t k, std::int64_t) noexcept {
    if (k % p_ == 0) {
      std::int64_t sum = 0;
      for (std::int64_t i = k; i < k + p_; ++i) sum += shape_.size(i);
      const std::int64_t mean = sum / p_;
      steady_ = mean <= c_;  // TSS sizes never grow, nor do their batch means
      size_ = std::max(mean, c_);
    }
    return size_;
  }
  [[nodiscard]] bool steady() const noexcept { return steady_; }

 private:
  std::int64_t p_;
  std::int64_t c_;
  Trapezoid shape_;
  std::int64_t size_ = 1;
  bool steady_ = false;
};

}  // namespace autosched
