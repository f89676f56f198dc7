#pragma once
/// @file
/// The dispenser shared by every deterministic technique: those whose k-th
/// chunk has the same size whichever worker asks for it (ss, fsc, mfsc, gss,
/// guided-llvm, auto-llvm, tss, fac, mfac, fac2, mfac2, tap, pls, tfss, fiss,
/// viss). Such a technique is written as a *calculator*, the published formula
/// and nothing else; the plan below turns it into chunk boundaries once per
/// instance shape, and handing out a chunk is then one fetch_add on the chunk
/// index plus a table read (spec/loops.md §2).
///
/// The plan has a head (explicit boundaries while sizes change) and a tail of
/// equal chunks (once the calculator reports that every later chunk has the
/// same size), so ss over 10^12 iterations needs no table at all.

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
/// last one returned on has that same size.
template <class C>
concept SequenceCalculator = requires(C& calc, std::int64_t k, std::int64_t r) {
  { calc.next_size(k, r) } -> std::same_as<std::int64_t>;
  { calc.steady() } -> std::same_as<bool>;
};

/// Boundaries of one instance's chunks: head[k] is where chunk k starts,
/// head.back() where the tail starts.
struct SequencePlan {
  std::int64_t n = 0;
  std::vector<std::int64_t> head;
  std::int64_t tail_size = 1;
  std::int64_t tail_count = 0;

  [[nodiscard]] std::int64_t head_chunks() const noexcept { return static_cast<std::int64_t>(head.size()) - 1; }
  [[nodiscard]] std::int64_t tail_begin() const noexcept { return head.back(); }
  [[nodiscard]] std::int64_t chunk_count() const noexcept { return head_chunks() + tail_count; }

  /// Chunk k, or an empty range past the last chunk.
  [[nodiscard]] IndexRange chunk(std::int64_t k) const noexcept {
    const std::int64_t h = head_chunks();
    if (k < h) return {head[static_cast<std::size_t>(k)], head[static_cast<std::size_t>(k) + 1]};
    const std::int64_t j = k - h;
    if (j >= tail_count) return {};
    const std::int64_t begin = tail_begin() + j * tail_size;
    return {begin, std::min(begin + tail_size, n)};
  }

  /// All chunk sizes in order (tests and tools; O(chunk count)).
  [[nodiscard]] std::vector<std::int64_t> sizes() const;
};

/// A guard against calculators that never become steady while handing out
/// tiny chunks: beyond this many head chunks the rest is planned with the last
/// size. No technique in the portfolio reaches it for N <= 2^62, P <= 2^16.
inline constexpr std::size_t max_head_chunks = std::size_t{1} << 22;

template <SequenceCalculator C>
void plan_sequence(C calc, std::int64_t n, SequencePlan& plan) {
  plan.n = n;
  plan.head.clear();
  plan.tail_size = 1;
  std::int64_t remaining = n;
  for (std::int64_t k = 0; remaining > 0; ++k) {
    const std::int64_t size = std::max<std::int64_t>(1, calc.next_size(k, remaining));
    if (calc.steady() || plan.head.size() >= max_head_chunks) {
      plan.tail_size = size;
      break;
    }
    plan.head.push_back(n - remaining);
    remaining -= std::min(size, remaining);
  }
  plan.head.push_back(n - remaining);
  plan.tail_count = remaining > 0 ? ceil_div(remaining, plan.tail_size) : 0;
}

/// Hands out a planned sequence: one relaxed fetch_add per chunk. Relaxed is
/// enough because each index is taken by exactly one worker; the data the
/// body writes is ordered by the team's join. The plan's shape is copied onto
/// the dispenser's first cache line, which is only read, so a tail chunk costs
/// the fetch_add and a few instructions on lines already in every core's cache.
class ChunkSequence {
 public:
  static constexpr bool timed = false;
  struct Worker {};

  explicit ChunkSequence(const SequencePlan& plan) noexcept
      : head_(plan.head.data()),
        head_chunks_(plan.head_chunks()),
        tail_begin_(plan.tail_begin()),
        tail_size_(plan.tail_size),
        tail_count_(plan.tail_count),
        n_(plan.n) {}

  Worker worker(int /*id*/, std::int64_t /*start_ns*/) const noexcept { return {}; }

  IndexRange next(Worker& /*w*/) noexcept {
    const std::int64_t k = next_chunk_.fetch_add(1, std::memory_order_relaxed);
    const std::int64_t j = k - head_chunks_;
    // The tail first: it is the whole of ss, fsc and mfsc and the end of the
    // others. This layout measured 0.9-1.0x libgomp's dynamic,1 against 1.1x
    // for head-first (docs/PERFORMANCE.md).
    if (j >= 0) [[likely]] {
      if (j >= tail_count_) return {};  // before the product: a cancelled k is 2^62
      const std::int64_t begin = tail_begin_ + j * tail_size_;
      return {begin, std::min(begin + tail_size_, n_)};
    }
    return {head_[k], head_[k + 1]};
  }

  /// True when every chunk is one iteration (ss with chunk 1): the chunk index
  /// is the iteration, and next_iteration() is the whole dispatch.
  [[nodiscard]] bool unit_chunks() const noexcept { return head_chunks_ == 0 && tail_size_ == 1; }

  /// For unit_chunks() plans: the next iteration, >= N when there is none.
  std::int64_t next_iteration() noexcept { return next_chunk_.fetch_add(1, std::memory_order_relaxed); }

  /// Makes every later next() return empty (a body threw): the counter jumps
  /// past the last chunk. Atomic operations on one location are totally
  /// ordered, so no concurrent fetch_add can bring it back.
  void cancel() noexcept { next_chunk_.store(std::int64_t{1} << 62, std::memory_order_relaxed); }

 private:
  const std::int64_t* head_;
  std::int64_t head_chunks_;
  std::int64_t tail_begin_;
  std::int64_t tail_size_;
  std::int64_t tail_count_;
  std::int64_t n_;
  // alignas makes the class a multiple of 64 bytes: the counter has its line to itself.
  alignas(64) std::atomic<std::int64_t> next_chunk_{0};
};

}  // namespace autosched
