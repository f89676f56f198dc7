#pragma once
/// @file
/// STATIC — the OpenMP static schedule, no shared state at all.
///   without c: worker i runs one block [i·q + min(i, r), …) of q + (i < r)
///              iterations, q = N/P, r = N mod P (balanced blocks);
///   with c:    cyclic blocks of c: worker i runs chunks i, i+P, i+2P, …

#include <autosched/core/index_range.hpp>
#include <autosched/techniques/loop_shape.hpp>

#include <algorithm>
#include <utility>

namespace autosched {

/// Worker i's block of the balanced static distribution.
[[nodiscard]] constexpr IndexRange static_block(std::int64_t n, int p, int i) noexcept {
  const std::int64_t q = n / p;
  const std::int64_t r = n % p;
  const std::int64_t begin = i * q + std::min<std::int64_t>(i, r);
  return {begin, begin + q + (i < r ? 1 : 0)};
}

class BlockStatic {
 public:
  static constexpr bool timed = false;
  struct Worker {
    IndexRange block;
  };

  explicit BlockStatic(const LoopShape& s) noexcept : n_(s.n), p_(s.workers) {}
  Worker worker(int id, std::int64_t) const noexcept { return {static_block(n_, p_, id)}; }
  IndexRange next(Worker& w) const noexcept { return std::exchange(w.block, IndexRange{}); }

 private:
  std::int64_t n_;
  int p_;
};

class CyclicStatic {
 public:
  static constexpr bool timed = false;
  struct Worker {
    std::int64_t chunk;  ///< next chunk index this worker owns
  };

  explicit CyclicStatic(const LoopShape& s) noexcept
      : n_(s.n), p_(s.workers), c_(min_chunk(s)), chunks_(ceil_div(s.n, c_)) {}
  Worker worker(int id, std::int64_t) const noexcept { return {id}; }
  IndexRange next(Worker& w) const noexcept {
    if (w.chunk >= chunks_) return {};
    const std::int64_t begin = w.chunk * c_;
    w.chunk += p_;
    return {begin, std::min(begin + c_, n_)};
  }

 private:
  std::int64_t n_;
  std::int64_t p_;
  std::int64_t c_;
  std::int64_t chunks_;
};

}  // namespace autosched
