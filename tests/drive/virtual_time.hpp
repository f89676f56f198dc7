#pragma once
// Virtual time for the loop runtime's tests. The driver reads measure::now();
// these tests install a clock that advances only by what loop bodies charge,
// so a guard's cut, an adaptive technique's weights and a loop's measured
// time follow planted costs, whatever the machine's speed or load.
//
// Model: each thread has its own clock, the current epoch plus what the
// bodies it ran have charged since that epoch began, as if every thread had
// a core to itself. next_instance() starts a new epoch, so that the next loop
// starts with every thread's clock equal (the discrete-event driver of
// tests/techniques/test_dispensers.cpp starts its workers the same way).
#include <autosched/measure/clock.hpp>

#include <omp.h>

#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

namespace autosched::testing {

namespace virtual_time_detail {

/// Epochs lie this far apart: an instance may charge up to ~1000 s per thread.
inline constexpr std::int64_t epoch_step = 1'000'000'000'000;

inline std::atomic<std::int64_t> epoch{epoch_step};

struct ThreadClock {
  std::int64_t epoch = -1;
  std::int64_t charged = 0;
};
inline thread_local ThreadClock local;

/// The calling thread's clock, restarted at the epoch when a new one began.
inline ThreadClock& sync() noexcept {
  const std::int64_t e = epoch.load(std::memory_order_acquire);
  if (local.epoch != e) local = {e, 0};
  return local;
}

}  // namespace virtual_time_detail

/// Installs the virtual clock for its lifetime (one per test).
class VirtualClock {
 public:
  VirtualClock() noexcept : installed_(&now) { next_instance(); }

  /// The calling thread's virtual time (the installed drive clock).
  static std::int64_t now() noexcept {
    const auto& c = virtual_time_detail::sync();
    return c.epoch + c.charged;
  }
  /// Advances the calling thread's clock by `ns` (call it from a loop body).
  static void charge(std::int64_t ns) noexcept { virtual_time_detail::sync().charged += ns; }
  /// Starts a new epoch past every clock: call it between loops, never while
  /// one runs (a thread would restart its clock in mid-instance).
  static void next_instance() noexcept {
    virtual_time_detail::epoch.fetch_add(virtual_time_detail::epoch_step, std::memory_order_acq_rel);
  }

 private:
  measure::ScopedClock installed_;
};

/// Orders a real team's chunk requests by virtual time, as the
/// discrete-event driver does: a body charges its chunk, then waits until no
/// other thread of the team that may still ask for a chunk is earlier (ties go
/// to the lower thread number). Only each thread's first request is
/// unordered. Shares then follow the planted costs instead of which thread
/// the operating system happens to run.
///
/// For dispensers whose next() comes back empty only when nothing is left for
/// anyone (shared counters: fac2, awf*, af, maf, ss, gss, …): a thread that has
/// left keeps its last time, and the others stop waiting for it once every
/// iteration has reached a body. One object per instance.
class VirtualOrder {
 public:
  VirtualOrder(int threads, std::int64_t n) : free_at_(static_cast<std::size_t>(threads)), n_(n) {}

  /// From a body running `iterations` on thread `tid`: charges `ns`, then
  /// returns when this thread is the one that asks next.
  void run(int tid, std::int64_t iterations, std::int64_t ns) {
    entered_.fetch_add(iterations, std::memory_order_acq_rel);
    VirtualClock::charge(ns);
    const std::int64_t mine = VirtualClock::now();
    free_at_[static_cast<std::size_t>(tid)].store(mine, std::memory_order_release);
    if (omp_get_num_threads() != static_cast<int>(free_at_.size())) {
      wrong_team_.store(true, std::memory_order_relaxed);  // waiting for a missing thread would hang
      return;
    }
    while (entered_.load(std::memory_order_acquire) < n_ && !earliest(tid, mine)) std::this_thread::yield();
  }

  /// The team was not the size this object was made for: nothing was ordered.
  [[nodiscard]] bool wrong_team() const noexcept { return wrong_team_.load(std::memory_order_relaxed); }

 private:
  [[nodiscard]] bool earliest(int tid, std::int64_t mine) const noexcept {
    for (int j = 0; j < static_cast<int>(free_at_.size()); ++j) {
      if (j == tid) continue;
      const std::int64_t other = free_at_[static_cast<std::size_t>(j)].load(std::memory_order_acquire);
      if (other < mine || (other == mine && j < tid)) return false;
    }
    return true;
  }

  std::vector<std::atomic<std::int64_t>> free_at_;  ///< when each thread asks next (0: not yet known)
  std::atomic<std::int64_t> entered_{0};           ///< iterations that reached a body
  std::atomic<bool> wrong_team_{false};
  std::int64_t n_;
};

}  // namespace autosched::testing
