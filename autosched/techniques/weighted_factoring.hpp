#pragma once
/// @file
/// Weighted factoring and its time-stepping adaptive form.
///   WF  (Flynn Hummel, Schmidt, Uma & Wein 1996): chunk = ⌈w_i · FAC2 chunk⌉,
///       then max(·, c), with fixed per-worker weights (`weights=` key; all 1
///       unless exactly P are given; not normalised, as in LB4OMP).
///   AWF (Banicescu, Velusamy & Devaprasad 2003): the same chunks with weights
///       learned across instances of *this* loop. After instance k each worker
///       adds k·(its iterations) to SW_i and k·(its time in the loop) to SE_i;
///       then π_i = SE_i / SW_i and w_i = P·(1/π_i) / Σ_j (1/π_j), so later
///       time steps count more. A worker that never received work keeps its
///       weight (LB4OMP divides by zero there); a change of P starts over.
///       The instance reads a copy of the weights taken when it opened and
///       writes its workers' totals into their own slots; close() folds them
///       into the loop's history. So two instances of one loop in flight (two
///       threads, two team sizes) never touch the same memory unguarded.
///
/// The FAC2 chunk is that of the batch the next unclaimed iteration falls in
/// (BatchTable), which replaces LB4OMP's batch counter + CAS by one fetch_add.

#include <autosched/core/index_range.hpp>
#include <autosched/techniques/adaptive_formulas.hpp>
#include <autosched/techniques/iteration_counter.hpp>
#include <autosched/techniques/loop_memory.hpp>
#include <autosched/techniques/loop_shape.hpp>
#include <autosched/techniques/worker_slot.hpp>

#include <algorithm>
#include <array>
#include <span>

namespace autosched {

/// mFAC2's batches laid over the iteration space: batch j holds P chunks of
/// b_j iterations, b_0 = ⌈N/(2P)⌉, b_{j+1} = ⌈b_j/2⌉; the last batch (b = 1)
/// runs to the end.
class BatchTable {
 public:
  BatchTable(std::int64_t n, int p) noexcept : first_(ceil_div(n, 2 * std::int64_t{p})) {
    std::int64_t chunk = first_;
    std::int64_t start = 0;
    while (count_ < static_cast<int>(start_.size()) && start < n) {
      start_[count_] = start;
      ++count_;
      if (chunk <= 1) break;
      start += p * chunk;
      chunk = ceil_div(chunk, 2);
    }
  }

  /// Nominal chunk of the batch containing `position` (< N). `cursor` is the
  /// caller's last answer: positions only grow, so the search is amortised O(1).
  std::int64_t chunk_at(std::int64_t position, int& cursor) const noexcept {
    while (cursor + 1 < count_ && position >= start_[cursor + 1]) ++cursor;
    // b_j = ⌈b_0 / 2^j⌉ (halving with ⌈⌉ j times is one ⌈⌉), not stored:
    // a table of them was half of every pooled instance's dispenser.
    return count_ == 0 ? 0 : ((first_ - 1) >> cursor) + 1;
  }

 private:
  std::int64_t first_;  ///< b_0
  std::array<std::int64_t, 64> start_{};
  int count_ = 0;
};

class WeightedFactoring {
 public:
  static constexpr bool timed = false;
  struct Worker {
    int id;
    int cursor;
    double weight;
    std::int64_t start_ns;
    std::int64_t claimed;  ///< iterations this worker received (AWF's W_i)
  };

  /// WF: `step` = 0 and fixed `weights` (used when there are P, else all 1).
  /// AWF: `step` = this instance's time step k (>= 1) and the loop's weights
  /// as they were when the instance opened; close() learns from the slots.
  WeightedFactoring(const LoopShape& s, std::span<const double> weights, std::span<WorkerSlot> slots,
                    std::uint64_t step) noexcept
      : counter_(s.n),
        batches_(s.n, s.workers),
        c_(min_chunk(s)),
        p_(s.workers),
        weights_(weights),
        slots_(slots),
        step_(step) {}

  Worker worker(int id, std::int64_t start_ns) const noexcept {
    const double w = weights_.size() == static_cast<std::size_t>(p_) ? weights_[id] : 1.0;
    return {id, 0, w, start_ns, 0};
  }

  IndexRange next(Worker& w) noexcept {
    const std::int64_t left = counter_.remaining();
    if (left <= 0) return {};
    const std::int64_t base = batches_.chunk_at(counter_.n() - left, w.cursor);
    const IndexRange c = counter_.claim(weighted_chunk(w.weight, base, c_));
    w.claimed += c.size();
    return c;
  }

  void finished(Worker& w, std::int64_t finish_ns) noexcept {
    slots_[w.id].claimed = static_cast<double>(w.claimed);
    slots_[w.id].elapsed_ns = static_cast<double>(finish_ns - w.start_ns);
  }

  /// AWF: folds this time step into the loop's history and derives new
  /// weights from the weighted throughput of every worker. Runs once, after
  /// every worker finished, under the loop's lock.
  void close(LoopMemory& memory) noexcept;

  /// What nobody has claimed yet (a guarded trial ran over its budget).
  IndexRange take_rest() noexcept { return counter_.take_rest(); }

 private:
  IterationCounter counter_;
  BatchTable batches_;
  std::int64_t c_;
  int p_;
  std::span<const double> weights_;
  std::span<WorkerSlot> slots_;
  std::uint64_t step_;
};

}  // namespace autosched
