#pragma once
/// @file
/// static-steal — libomp's static_steal (what nonmonotonic:dynamic maps to).
/// The ⌈N/c⌉ units of c iterations are split into P contiguous owner ranges
/// (balanced, as static). An owner takes units from the front of its range;
/// a worker whose range is empty scans the others, starting at the last
/// victim that had work, and takes from the back of the first range holding
/// at least two units: a quarter of them (one if fewer than four remain).
/// The stolen range becomes the thief's own, so it can be stolen from again.
///
/// Each range is guarded by its owner's spin lock (one exchange to take it,
/// a store to release): the owner's fast path is one atomic RMW per chunk on
/// a line nobody else writes unless it steals. libomp does the same for
/// 64-bit loops; a packed 2×32-bit CAS would cap N/c at 2^32.

#include <autosched/core/index_range.hpp>
#include <autosched/techniques/loop_shape.hpp>
#include <autosched/techniques/static.hpp>
#include <autosched/techniques/worker_slot.hpp>

#include <algorithm>
#include <mutex>
#include <span>

namespace autosched {

class StaticSteal {
 public:
  static constexpr bool timed = false;
  struct Worker {
    int id;
    int last_victim;
  };

  /// Writes the owner ranges into `slots` (one per worker).
  StaticSteal(const LoopShape& s, std::span<WorkerSlot> slots) noexcept
      : n_(s.n), unit_(min_chunk(s)), p_(s.workers), slots_(slots) {
    const std::int64_t units = ceil_div(s.n, unit_);
    for (int i = 0; i < p_; ++i) {
      const IndexRange owned = static_block(units, p_, i);
      slots_[i].lo = owned.begin;
      slots_[i].hi = owned.end;
    }
  }

  Worker worker(int id, std::int64_t) const noexcept { return {id, (id + 1) % p_}; }

  IndexRange next(Worker& w) noexcept {
    WorkerSlot& mine = slots_[w.id];
    {
      std::lock_guard guard(mine.lock);
      if (mine.lo < mine.hi) return iterations(mine.lo++);
    }
    for (int t = 0; t < p_; ++t) {
      const int v = (w.last_victim + t) % p_;
      if (v == w.id) continue;
      IndexRange stolen;
      {
        std::lock_guard guard(slots_[v].lock);
        const std::int64_t left = slots_[v].hi - slots_[v].lo;
        if (left < 2) continue;
        const std::int64_t take = left > 3 ? left / 4 : 1;
        stolen = {slots_[v].hi - take, slots_[v].hi};
        slots_[v].hi = stolen.begin;
      }
      w.last_victim = v;
      {
        std::lock_guard guard(mine.lock);
        mine.lo = stolen.begin + 1;
        mine.hi = stolen.end;
      }
      return iterations(stolen.begin);
    }
    return {};  // every other range holds at most one unit, which its owner will run
  }

 private:
  [[nodiscard]] IndexRange iterations(std::int64_t unit) const noexcept {
    const std::int64_t begin = unit * unit_;
    return {begin, std::min(begin + unit_, n_)};
  }

  std::int64_t n_;
  std::int64_t unit_;
  int p_;
  std::span<WorkerSlot> slots_;
};

}  // namespace autosched
