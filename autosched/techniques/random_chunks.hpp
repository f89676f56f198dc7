#pragma once
/// @file
/// RND — random chunk sizes (Ciorba et al. 2018): every chunk's size is drawn
/// uniformly from [start, c]. LB4OMP seeds with time(NULL)·gtid (the same
/// sizes within one second) and its default c makes plain `rnd` equal to SS;
/// here each worker has its own reproducible stream (seed, worker id) and c
/// defaults to ⌈N/(2P)⌉.

#include <autosched/core/index_range.hpp>
#include <autosched/core/split_mix.hpp>
#include <autosched/techniques/iteration_counter.hpp>
#include <autosched/techniques/loop_shape.hpp>

#include <algorithm>
#include <cstdint>

namespace autosched {

class RandomChunks {
 public:
  static constexpr bool timed = false;
  struct Worker {
    std::uint64_t state;
  };

  RandomChunks(const LoopShape& s, std::int64_t start, std::uint64_t seed) noexcept
      : counter_(s.n),
        low_(std::max<std::int64_t>(1, start)),
        high_(std::max(low_, s.chunk > 0 ? s.chunk : ceil_div(s.n, 2 * std::int64_t{s.workers}))),
        seed_(seed) {}

  Worker worker(int id, std::int64_t) const noexcept {
    return {seed_ ^ (0x9e3779b97f4a7c15ULL * static_cast<std::uint64_t>(id + 1))};
  }

  IndexRange next(Worker& w) noexcept {
    if (counter_.remaining() <= 0) return {};
    const auto span = static_cast<std::uint64_t>(high_ - low_) + 1;
    if (span == 1) return counter_.claim(low_);  // no draw, no 64-bit division
    return counter_.claim(low_ + static_cast<std::int64_t>(splitmix64(w.state) % span));
  }

  /// What nobody has claimed yet (a guarded trial ran over its budget).
  IndexRange take_rest() noexcept { return counter_.take_rest(); }

 private:
  IterationCounter counter_;
  std::int64_t low_;
  std::int64_t high_;
  std::uint64_t seed_;
};

}  // namespace autosched
