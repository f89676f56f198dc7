#pragma once
/// @file
/// The part of a worker's state that other workers may read or change during
/// an instance: the range a static-steal owner still holds, and the values
/// adaptive techniques publish. One slot per worker, each on its own cache
/// line so that publishing never invalidates a neighbour's line.

#include <autosched/core/cpu_pause.hpp>
#include <autosched/core/running_stats.hpp>

#include <atomic>
#include <cstdint>

namespace autosched {

/// Test-and-test-and-set lock: one atomic exchange to take it uncontended, a
/// plain release store to give it back.
class SpinLock {
 public:
  void lock() noexcept {
    while (locked_.exchange(true, std::memory_order_acquire)) {
      while (locked_.load(std::memory_order_relaxed)) cpu_pause();
    }
  }
  void unlock() noexcept { locked_.store(false, std::memory_order_release); }

 private:
  std::atomic<bool> locked_{false};
};

struct alignas(64) WorkerSlot {
  // static-steal: chunk units [lo, hi) this worker still owns. Changed only
  // under `lock`; atomic so that thieves may peek without it.
  SpinLock lock;
  std::atomic<std::int64_t> lo{0};
  std::atomic<std::int64_t> hi{0};
  // Adaptive techniques: time per iteration (AWF-B..E, AF's mu) and its
  // spread (AF's sigma), 0 until the owner has measured a chunk. Relaxed
  // ordering: a stale value only shifts a chunk size, never coverage.
  std::atomic<double> rate{0.0};
  std::atomic<double> spread{0.0};
  // Written by the owner when it leaves, read by close() after the join.
  RunningStats summary;        ///< profiling: per-iteration times
  double overhead_sum_ns = 0;  ///< profiling: time from asking for a chunk to starting it
  double claimed = 0;          ///< awf: iterations this worker ran
  double elapsed_ns = 0;       ///< awf: this worker's time in the loop
};

}  // namespace autosched
