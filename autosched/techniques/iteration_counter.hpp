#pragma once
/// @file
/// The shared "next unclaimed iteration" of techniques whose chunk size
/// depends on what is left or on who asks (wf, awf*, af, maf, bold, rnd).
/// A worker reads a snapshot of the counter, computes its chunk size from it,
/// and claims that many iterations with one fetch_add: one atomic RMW per
/// chunk and no CAS retry loop (LB4OMP's FAC2b idea). A stale snapshot only
/// makes a chunk slightly larger than the formula's; coverage stays exact
/// because fetch_add hands every iteration to exactly one claimer.

#include <autosched/core/index_range.hpp>
#include <autosched/techniques/loop_shape.hpp>

#include <algorithm>
#include <atomic>
#include <cstdint>

namespace autosched {

/// Largest team a technique is planned for.
inline constexpr int max_workers = 1 << 16;

/// Largest single claim. With N <= 2^62 and at most max_workers claims in
/// flight after the counter passes N, the counter stays below 2^63.
inline constexpr std::int64_t max_claim = max_iterations / (2 * std::int64_t{max_workers});

class IterationCounter {
 public:
  explicit IterationCounter(std::int64_t n) noexcept : n_(n) {}

  [[nodiscard]] std::int64_t n() const noexcept { return n_; }

  /// Iterations not yet claimed, as of now (<= 0 once everything is claimed).
  [[nodiscard]] std::int64_t remaining() const noexcept { return n_ - next_.load(std::memory_order_relaxed); }

  /// Claims up to `size` iterations (at least 1, at most max_claim); empty
  /// once the loop is exhausted.
  IndexRange claim(std::int64_t size) noexcept {
    size = std::clamp<std::int64_t>(size, 1, max_claim);
    const std::int64_t begin = next_.fetch_add(size, std::memory_order_relaxed);
    if (begin >= n_) return {};
    return {begin, std::min(begin + size, n_)};
  }

  /// Stops claiming and returns what nobody has claimed yet, [b, N). Later
  /// claims start at 2^62 and come back empty; with at most max_workers of
  /// them in flight the counter stays below 2^63.
  IndexRange take_rest() noexcept {
    const std::int64_t begin = next_.exchange(max_iterations, std::memory_order_relaxed);
    return begin < n_ ? IndexRange{begin, n_} : IndexRange{};
  }

 private:
  std::int64_t n_;
  // alignas makes the class a multiple of 64 bytes: the counter has its line to itself.
  alignas(64) std::atomic<std::int64_t> next_{0};
};

/// ⌈w·x⌉ as a chunk size, for weights w > 0 and sizes below 2^62.
[[nodiscard]] inline std::int64_t weighted_size(double w, std::int64_t x) noexcept {
  const double v = w * static_cast<double>(x);
  if (!(v < static_cast<double>(max_claim))) return max_claim;  // also NaN
  const auto i = static_cast<std::int64_t>(v);
  return static_cast<double>(i) < v ? i + 1 : i;
}

}  // namespace autosched
