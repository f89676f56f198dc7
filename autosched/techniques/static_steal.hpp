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
/// 64-bit loops; a packed 2×32-bit CAS would cap N/c at 2^32. The bounds are
/// also readable without the lock, so a thief skips ranges too small to
/// steal from without taking their locks.

#include <autosched/core/index_range.hpp>
#include <autosched/techniques/loop_shape.hpp>
#include <autosched/techniques/static.hpp>
#include <autosched/techniques/worker_slot.hpp>

#include <algorithm>
#include <atomic>
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
      slots_[i].lo.store(owned.begin, std::memory_order_relaxed);
      slots_[i].hi.store(owned.end, std::memory_order_relaxed);
    }
  }

  Worker worker(int id, std::int64_t) const noexcept { return {id, (id + 1) % p_}; }

  /// Whether w's next chunk comes from its own range, without a steal. For
  /// the loop simulator, which prices those chunks apart (one thread runs
  /// every simulated worker); between threads it would be a racy look.
  [[nodiscard]] bool owns_work(const Worker& w) const noexcept {
    const WorkerSlot& mine = slots_[w.id];
    return mine.lo.load(std::memory_order_relaxed) < mine.hi.load(std::memory_order_relaxed);
  }

  /// The owner's path alone: the next unit of worker `id`'s own range into
  /// `out`, or false when the range is empty (next() then steals). No call
  /// and no stack, so a drop-in entry point can run it and stay a leaf
  /// (drive::Cursor::next_owned).
  bool take_own(int id, IndexRange& out) noexcept {
    WorkerSlot& mine = slots_[id];
    mine.lock.lock();
    const std::int64_t lo = mine.lo.load(std::memory_order_relaxed);
    const bool owned = lo < mine.hi.load(std::memory_order_relaxed);
    if (owned) mine.lo.store(lo + 1, std::memory_order_relaxed);
    mine.lock.unlock();
    if (owned) out = iterations(lo);
    return owned;
  }

  IndexRange next(Worker& w) noexcept {
    WorkerSlot& mine = slots_[w.id];
    if (IndexRange own; take_own(w.id, own)) return own;
    for (int t = 0; t < p_; ++t) {
      const int v = (w.last_victim + t) % p_;
      if (v == w.id) continue;
      WorkerSlot& victim = slots_[v];
      // A racy look first: most ranges are empty at the end of a loop.
      if (victim.hi.load(std::memory_order_relaxed) - victim.lo.load(std::memory_order_relaxed) < 2) continue;
      IndexRange stolen;
      {
        std::lock_guard guard(victim.lock);
        const std::int64_t hi = victim.hi.load(std::memory_order_relaxed);
        const std::int64_t left = hi - victim.lo.load(std::memory_order_relaxed);
        if (left < 2) continue;
        const std::int64_t take = left > 3 ? left / 4 : 1;
        stolen = {hi - take, hi};
        victim.hi.store(stolen.begin, std::memory_order_relaxed);
      }
      w.last_victim = v;
      {
        std::lock_guard guard(mine.lock);
        // After cancel() no stolen range becomes anyone's own: cancel set the
        // flag before it emptied this slot under the same lock.
        if (cancelled_.load(std::memory_order_relaxed)) return {};
        mine.lo.store(stolen.begin + 1, std::memory_order_relaxed);
        mine.hi.store(stolen.end, std::memory_order_relaxed);
      }
      return iterations(stolen.begin);
    }
    return {};  // every other range holds at most one unit, which its owner will run
  }

  /// Hands out nothing more, to any worker: every range is emptied. The
  /// owners' path (take_own) then needs no flag of its own.
  void cancel() noexcept {
    cancelled_.store(true, std::memory_order_relaxed);
    for (WorkerSlot& slot : slots_) {
      std::lock_guard guard(slot.lock);
      slot.lo.store(slot.hi.load(std::memory_order_relaxed), std::memory_order_relaxed);
    }
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
  std::atomic<bool> cancelled_{false};
};

}  // namespace autosched
