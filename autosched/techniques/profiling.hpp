#pragma once
/// @file
/// profiling — measures a loop for the techniques that need a profile (fsc,
/// fac, mfac, tap, bold): self-scheduling with chunk c (default 1) while
/// timing every chunk. When the instance closes, the loop's memory holds
///   mu    = mean body time per iteration,
///   sigma = sample standard deviation of it (with chunks of c iterations,
///           the spread of chunk means times sqrt(c), assuming independent
///           iteration times),
///   h     = mean time between obtaining consecutive chunks minus the body
///           time (the scheduling overhead),
/// which later instances of the same loop read, and a CostProfile: each
/// chunk's body time is its block's time, so the loop's memory also holds
/// where the time goes along the iteration space (what `auto` simulates
/// arms on; run with chunk = ⌈N / profile_blocks⌉ for that). (LB4OMP writes a
/// profile file its own reader cannot parse; ours stays with the loop.)

#include <autosched/core/index_range.hpp>
#include <autosched/techniques/chunk_dispenser.hpp>
#include <autosched/techniques/cost_profile.hpp>
#include <autosched/techniques/dispatch_calibration.hpp>
#include <autosched/techniques/loop_memory.hpp>
#include <autosched/techniques/loop_shape.hpp>
#include <autosched/techniques/worker_slot.hpp>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <span>
#include <vector>

namespace autosched {

/// Blocks of a cost profile measured for `auto`: fine enough to show where
/// an imbalanced loop spends its time, coarse enough that timing each chunk
/// costs nothing (two clock reads per N/256 iterations).
inline constexpr std::int64_t profile_blocks = 256;
/// Beyond this many chunks a profiling instance records no CostProfile.
inline constexpr std::int64_t max_profile_blocks = std::int64_t{1} << 20;

class Profiling {
 public:
  static constexpr bool timed = true;
  struct Worker {
    int id;
    RunningStats per_iteration;
    double overhead_ns;
  };

  /// `blocks` has ceil_div(n, max(chunk, 1)) entries: chunk k's body time.
  /// A complete profile takes them over when it closes (the loop's memory
  /// keeps them, not a copy: 2 KB a loop), leaving `blocks` empty.
  Profiling(const LoopShape& s, std::span<WorkerSlot> slots, std::vector<double>& blocks) noexcept
      : n_(s.n), c_(min_chunk(s)), chunks_(ceil_div(s.n, c_)), slots_(slots), blocks_(blocks), storage_(&blocks) {}

  [[nodiscard]] static std::int64_t block_count(const LoopShape& s) noexcept { return ceil_div(s.n, min_chunk(s)); }

  Worker worker(int id, std::int64_t) const noexcept { return {id, {}, 0}; }

  IndexRange next(Worker&) noexcept {
    const std::int64_t k = next_chunk_.fetch_add(1, std::memory_order_relaxed);
    if (k >= chunks_) return {};
    return {k * c_, std::min(k * c_ + c_, n_)};
  }

  /// What nobody has claimed yet (a guarded trial ran over its budget).
  IndexRange take_rest() noexcept {
    const std::int64_t k = next_chunk_.exchange(std::int64_t{1} << 62, std::memory_order_relaxed);
    return k < chunks_ ? IndexRange{k * c_, n_} : IndexRange{};
  }

  void completed(Worker& w, IndexRange c, const ChunkTiming& t) noexcept {
    // Each chunk is one block, taken by exactly one worker; read after the join.
    const auto k = static_cast<std::size_t>(c.begin / c_);
    if (k < blocks_.size()) blocks_[k] = static_cast<double>(t.execution_ns());
    w.per_iteration.add(static_cast<double>(t.execution_ns()) / static_cast<double>(c.size()));
    w.overhead_ns += static_cast<double>(t.started_ns - t.requested_ns);
  }

  void finished(Worker& w, std::int64_t) noexcept {
    slots_[w.id].summary = w.per_iteration;
    slots_[w.id].overhead_sum_ns = w.overhead_ns;
  }

  void close(LoopMemory& memory) noexcept {
    RunningStats all;
    double overhead = 0;
    for (const auto& slot : slots_) {
      all.merge(slot.summary);
      overhead += slot.overhead_sum_ns;
    }
    if (all.count == 0) return;
    const double sigma = all.sample_stddev() * std::sqrt(static_cast<double>(c_));
    const double h = overhead / static_cast<double>(all.count);
    memory.profile = Profile{all.mean, sigma, h, all.count};
    // Only a complete profile (every chunk ran: not a cut or failed instance).
    if (all.count == chunks_ && static_cast<std::int64_t>(blocks_.size()) == chunks_) {
      try {
        memory.cost = CostProfile::from_blocks(n_, std::move(*storage_), h);
        memory.cost->set_owner_dispatch(measured_owner_dispatch_ns());
      } catch (...) {  // out of memory: the loop runs on without a cost profile
        memory.cost.reset();
      }
    }
  }

 private:
  std::int64_t n_;
  std::int64_t c_;
  std::int64_t chunks_;
  std::span<WorkerSlot> slots_;
  std::span<double> blocks_;
  std::vector<double>* storage_;  ///< what blocks_ views
  alignas(64) std::atomic<std::int64_t> next_chunk_{0};
};

}  // namespace autosched
