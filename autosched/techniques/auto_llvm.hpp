#pragma once
/// @file
/// auto-llvm — libomp's schedule(auto), the analytical form of guided
/// scheduling: with x = 1 − 1/(2P), ⌈N·x^k⌉ iterations remain after k chunks,
/// so chunk k is known from k alone. From the first K with
/// x^K <= (2c+1)P/N on, chunks of c (SS). P = 1: one chunk of N.
/// (2c+1)P >= N: SS with c from the start.

#include <autosched/techniques/loop_shape.hpp>

#include <cmath>

namespace autosched {

class AutoLlvm {
 public:
  explicit AutoLlvm(const LoopShape& s) noexcept : n_(s.n), c_(min_chunk(s)) {
    const double p = s.workers;
    const double bound = (2.0 * static_cast<double>(c_) + 1.0) * p / static_cast<double>(n_);
    x_ = 1.0 - 1.0 / (2.0 * p);
    if (s.workers == 1) {
      single_ = true;
    } else if (bound >= 1.0) {
      crossover_ = 0;
    } else {
      // Smallest K with x^K <= bound, from logarithms, then made exact
      // against the same pow() the boundaries use.
      auto k = static_cast<std::int64_t>(std::ceil(std::log(bound) / std::log(x_)));
      while (k > 0 && std::pow(x_, static_cast<double>(k - 1)) <= bound) --k;
      while (std::pow(x_, static_cast<double>(k)) > bound) ++k;
      crossover_ = k;
    }
  }
  std::int64_t next_size(std::int64_t k, std::int64_t r) noexcept {
    if (single_) {
      steady_ = true;
      return n_;
    }
    if (k >= crossover_) {
      steady_ = true;
      return c_;
    }
    const auto left =
        static_cast<std::int64_t>(std::ceil(static_cast<double>(n_) * std::pow(x_, static_cast<double>(k + 1))));
    return r - left;
  }
  [[nodiscard]] bool steady() const noexcept { return steady_; }

 private:
  std::int64_t n_;
  std::int64_t c_;
  double x_ = 0;
  std::int64_t crossover_ = 0;  ///< K
  bool single_ = false;
  bool steady_ = false;
};

}  // namespace autosched
