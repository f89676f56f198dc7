#pragma once
/// @file
/// FAC2 and mFAC2 — factoring with x = 2: batches of P chunks, each batch half
/// the previous one.
///   FAC2 (Flynn Hummel et al. 1992):  chunk_j = ⌈N / (P·2^(j+1))⌉
///   mFAC2 (LB4OMP, Auto4OMP's member): chunk_0 = ⌈N/(2P)⌉, chunk_{j+1} = ⌈chunk_j / 2⌉
/// then max(·, c). Since ⌈⌈a/m⌉/2⌉ = ⌈a/(2m)⌉ for integers, the two give the
/// same sequence; both are kept, each in its published form, and a test checks
/// that they agree. LB4OMP's versions differ only in how they synchronise.

#include <autosched/techniques/loop_shape.hpp>

#include <algorithm>

namespace autosched {

class Fac2 {
 public:
  explicit Fac2(const LoopShape& s) noexcept : n_(s.n), p_(s.workers), c_(min_chunk(s)) {}
  std::int64_t next_size(std::int64_t k, std::int64_t) noexcept {
    if (k % p_ == 0) {
      const std::int64_t j = k / p_;
      // ⌈N/(P·2^(j+1))⌉ = ⌈⌈N/P⌉ / 2^(j+1)⌉ avoids overflowing P·2^(j+1).
      const std::int64_t chunk = j + 1 >= 62 ? 1 : ceil_div(ceil_div(n_, p_), std::int64_t{1} << (j + 1));
      steady_ = chunk <= c_;
      size_ = std::max(chunk, c_);
    }
    return size_;
  }
  [[nodiscard]] bool steady() const noexcept { return steady_; }

 private:
  std::int64_t n_;
  std::int64_t p_;
  std::int64_t c_;
  std::int64_t size_ = 1;
  bool steady_ = false;
};

class Mfac2 {
 public:
  explicit Mfac2(const LoopShape& s) noexcept
      : p_(s.workers), c_(min_chunk(s)), chunk_(ceil_div(s.n, 2 * std::int64_t{s.workers})) {}
  std::int64_t next_size(std::int64_t k, std::int64_t) noexcept {
    if (k % p_ == 0) {
      if (k > 0) chunk_ = ceil_div(chunk_, 2);
      steady_ = chunk_ <= c_;
      size_ = std::max(chunk_, c_);
    }
    return size_;
  }
  [[nodiscard]] bool steady() const noexcept { return steady_; }

 private:
  std::int64_t p_;
  std::int64_t c_;
  std::int64_t chunk_;
  std::int64_t size_ = 1;
  bool steady_ = false;
};

}  // namespace autosched
