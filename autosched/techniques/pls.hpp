#pragma once
/// @file
/// PLS — performance-based loop scheduling (Shao et al. 2005): a static part
/// then GSS on the rest,
///   S = ⌈N·swr/P⌉ for the first P chunks,
///   chunk k >= P: ⌈(1 − 1/P)^(k−P) · (N − P·S)/P⌉,  then max(·, c).
/// swr (static workload ratio) defaults to 0.5.

#include <autosched/techniques/loop_shape.hpp>

#include <algorithm>
#include <cmath>

namespace autosched {

class Pls {
 public:
  Pls(const LoopShape& s, double swr) noexcept : p_(s.workers), c_(min_chunk(s)) {
    static_chunk_ = static_cast<std::int64_t>(std::ceil(static_cast<double>(s.n) * swr / static_cast<double>(p_)));
    rest_per_worker_ = static_cast<double>(s.n - p_ * static_chunk_) / static_cast<double>(p_);
  }
  std::int64_t next_size(std::int64_t k, std::int64_t) noexcept {
    last_k_ = k;
    if (k < p_) return std::max(static_chunk_, c_);
    const double shrink = std::pow(1.0 - 1.0 / static_cast<double>(p_), static_cast<double>(k - p_));
    const auto chunk = static_cast<std::int64_t>(std::ceil(shrink * rest_per_worker_));
    steady_ = chunk <= c_;
    return std::max(chunk, c_);
  }
  [[nodiscard]] bool steady() const noexcept { return steady_; }
  /// The static part is P equal chunks.
  [[nodiscard]] std::int64_t same_size_chunks() const noexcept { return last_k_ < p_ ? p_ - last_k_ : 1; }

 private:
  std::int64_t p_;
  std::int64_t c_;
  std::int64_t static_chunk_ = 1;  ///< S
  double rest_per_worker_ = 0;     ///< (N − P·S)/P
  std::int64_t last_k_ = 0;
  bool steady_ = false;
};

}  // namespace autosched
