#pragma once
/// @file
/// The dispenser shared by every deterministic technique: those whose k-th
/// chunk has the same size whichever worker asks for it (ss, fsc, mfsc, gss,
/// guided-llvm, auto-llvm, tss, fac, mfac, fac2, mfac2, tap, pls, tfss, fiss,
/// viss). Such a technique is written as a *calculator*, the published formula
/// and nothing else; the plan below turns it into chunk boundaries once per
/// instance shape, and handing out a chunk is then one fetch_add on the chunk
/// index plus a table read (docs/techniques.md, "How they are dispensed").
///
/// The plan is a list of runs of equal chunks; the last run covers everything
/// from the point where the calculator reports that no size changes again.

#include <autosched/core/index_range.hpp>
#include <autosched/techniques/loop_shape.hpp>

#include <algorithm>
#include <atomic>
#include <concepts>
#include <cstdint>
#include <vector>

namespace autosched {

/// A deterministic technique's formula. `next_size(k, r)` is called for
/// k = 0, 1, 2, … in order (calculators may keep state between calls, e.g. the
/// current batch) with r >= 1 iterations not yet planned, and returns chunk
/// k's size before clamping to r. `steady()` is true when every chunk from the
/// last one returned on has that same size. A calculator that hands out
/// batches may also say how many chunks from k on share the size just
/// returned (`same_size_chunks()`), so that a batch is planned in one step.
template <class C>
concept SequenceCalculator = requires(C& calc, std::int64_t k, std::int64_t r) {
  { calc.next_size(k, r) } -> std::same_as<std::int64_t>;
  { calc.steady() } -> std::same_as<bool>;
};

/// `count` consecutive chunks of `size` iterations: chunk `first` starts at
/// iteration `begin`. The last chunk of a plan is cut at N.
struct ChunkRun {
  std::int64_t first = 0;
  std::int64_t begin = 0;
  std::int64_t size = 1;
  std::int64_t count = 0;

  [[nodiscard]] std::int64_t end_chunk() const noexcept { return first + count; }
};

/// One instance's chunks as runs of equal chunks, in order. Batched
/// techniques need one run per batch, geometric ones about one per distinct
/// size, and the final run (the tail) is often all of it: ss over 2^40
/// iterations is a single run.
struct SequencePlan {
  std::int64_t n = 0;
  std::vector<ChunkRun> runs;

  [[nodiscard]] std::int64_t chunk_count() const noexcept { return runs.empty() ? 0 : runs.back().end_chunk(); }

  /// Chunk k, or an empty range past the last chunk (binary search; tools and tests).
  [[nodiscard]] IndexRange chunk(std::int64_t k) const noexcept;

  /// All chunk sizes in order (tests and tools; O(chunk count)).
  [[nodiscard]] std::vector<std::int64_t> sizes() const;
};

/// A guard against plans that would not fit in memory: past this many runs
/// the rest is planned with the last size (coverage stays exact). Reached
/// only by the techniques whose every chunk has a new size (gss, guided-llvm,
/// auto-llvm, tap) when about P·ln(N/P²) exceeds it, e.g. P = 2^16 with
/// N = 2^62; a run is 32 bytes.
inline constexpr std::size_t max_plan_runs = std::size_t{1} << 20;

template <SequenceCalculator C>
void plan_sequence(C calc, std::int64_t n, SequencePlan& plan) {
  plan.n = n;
  plan.runs.clear();
  auto add = [&](std::int64_t first, std::int64_t begin, std::int64_t size, std::int64_t count) {
    if (!plan.runs.empty()) {
      ChunkRun& last = plan.runs.back();
      if (last.size == size && last.end_chunk() == first) {
        last.count += count;  // consecutive equal chunks share a run
        return;
      }
    }
    plan.runs.push_back({first, begin, size, count});
  };
  std::int64_t remaining = n;
  for (std::int64_t k = 0; remaining > 0;) {
    const std::int64_t size = std::max<std::int64_t>(1, calc.next_size(k, remaining));
    if (calc.steady() || plan.runs.size() + 1 >= max_plan_runs) {  // the last run is the tail
      add(k, n - remaining, size, ceil_div(remaining, size));
      break;
    }
    std::int64_t same = 1;
    if constexpr (requires { calc.same_size_chunks(); }) same = calc.same_size_chunks();
    // Whole chunks of `size` that fit; a last, shorter chunk is cut at N.
    const std::int64_t whole = std::min(same, remaining / size);
    if (whole == 0) {
      add(k, n - remaining, size, 1);
      break;
    }
    add(k, n - remaining, size, whole);
    remaining -= whole * size;
    k += whole;
  }
}

/// Hands out a planned sequence: one relaxed fetch_add per chunk. Relaxed is
/// enough because each index is taken by exactly one worker; the data the
/// body writes is ordered by the team's join. A worker's chunk indices only
/// grow, so its cursor into the runs moves forward: finding the run is
/// amortised O(1), and the runs are read-only during the instance.
class ChunkSequence {
 public:
  static constexpr bool timed = false;
  struct Worker {
    std::int64_t run = 0;  ///< index of the run the worker's last chunk was in
  };

  explicit ChunkSequence(const SequencePlan& plan) noexcept
      : runs_(plan.runs.data()), run_count_(static_cast<std::int64_t>(plan.runs.size())), n_(plan.n) {}

  Worker worker(int /*id*/, std::int64_t /*start_ns*/) const noexcept { return {}; }

  IndexRange next(Worker& w) noexcept { return chunk_at(next_chunk_.fetch_add(1, std::memory_order_relaxed), w); }

  /// Chunk k for a worker whose chunk indices only grow (w moves forward
  /// through the runs); empty past the last chunk. next() is this with the
  /// shared counter; the MPI runtime's ranks call it with k from a counter
  /// in an MPI window (distributed chunk calculation).
  IndexRange chunk_at(std::int64_t k, Worker& w) const noexcept {
    if (w.run >= run_count_) return {};
    const ChunkRun* r = runs_ + w.run;
    while (k >= r->end_chunk()) {  // also ends a cancelled sequence (k = 2^62)
      if (++w.run == run_count_) return {};
      ++r;
    }
    const std::int64_t begin = r->begin + (k - r->first) * r->size;
    return {begin, std::min(begin + r->size, n_)};
  }

  /// True when every chunk is one iteration (ss with chunk 1): the chunk index
  /// is the iteration, and next_iteration() is the whole dispatch.
  [[nodiscard]] bool unit_chunks() const noexcept { return run_count_ == 1 && runs_[0].size == 1; }

  /// For unit_chunks() plans: the next iteration, >= N when there is none.
  std::int64_t next_iteration() noexcept { return next_chunk_.fetch_add(1, std::memory_order_relaxed); }

  /// Stops the sequence and returns what nobody has claimed yet, [b, N): the
  /// rest of a guarded trial that ran over its budget, for a fallback to run.
  IndexRange take_rest() noexcept {
    const std::int64_t k = next_chunk_.exchange(std::int64_t{1} << 62, std::memory_order_relaxed);
    for (std::int64_t r = 0; r < run_count_; ++r) {
      if (k < runs_[r].end_chunk()) {
        const std::int64_t begin = runs_[r].begin + (k - runs_[r].first) * runs_[r].size;
        return begin < n_ ? IndexRange{begin, n_} : IndexRange{};
      }
    }
    return {};
  }

  /// Makes every later next() return empty (a body threw): the counter jumps
  /// past the last chunk. Atomic operations on one location are totally
  /// ordered, so no concurrent fetch_add can bring it back.
  void cancel() noexcept { next_chunk_.store(std::int64_t{1} << 62, std::memory_order_relaxed); }

 private:
  const ChunkRun* runs_;
  std::int64_t run_count_;
  std::int64_t n_;
  // alignas makes the class a multiple of 64 bytes: the counter has its line to itself.
  alignas(64) std::atomic<std::int64_t> next_chunk_{0};
};

}  // namespace autosched
