#pragma once
/// @file
/// The one clock of autosched, in integer nanoseconds.
///
/// now_ns() reads CLOCK_MONOTONIC: about 24 ns on the reference VM (vDSO),
/// so the hot path reads it per thread and per instance, and per chunk only
/// for techniques that learn from chunk times (docs/PERFORMANCE.md).
///
/// measure::now() is what every measurement of a loop or a region reads:
/// now_ns() unless a test or a simulation installs another clock, so that
/// every start, finish, chunk time, guard deadline, loop time and region
/// time comes from that function and a test can plant costs instead of
/// spinning and judging wall-clock time.
///
///   std::int64_t virtual_time() noexcept { ... }
///   autosched::measure::ScopedClock clock(&virtual_time);  // this scope's loops run on it

#include <cstdint>
#include <ctime>

namespace autosched {

/// Nanoseconds since an arbitrary fixed origin; never goes backwards.
inline std::int64_t now_ns() noexcept {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

/// The host's monotonic clock, never virtualised, for the cost of the
/// library's own short computations (a selector's decision). Natively it is
/// now_ns(). Under SimGrid SMPI, smpicxx maps clock_gettime onto the
/// simulated clock, and every read ends and restarts SMPI's benchmark of the
/// rank's computation: with 200 ranks an empty interval then reads 1.1 to
/// 2.7 µs (its timer's system calls and code, cold after the other ranks
/// ran), more than a warm decision costs. The parentheses keep the macro out.
inline std::int64_t host_now_ns() noexcept {
  timespec ts{};
  (clock_gettime)(CLOCK_MONOTONIC, &ts);
  return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

namespace measure {

using ClockFunction = std::int64_t (*)() noexcept;

/// The measurements' current time in nanoseconds: now_ns() unless a test installed another clock.
std::int64_t now() noexcept;

/// Installs `clock` (nullptr restores now_ns). For tests and simulations: not
/// safe to call while loops run on other threads.
void set_clock(ClockFunction clock) noexcept;

/// Installs a clock for a scope and restores the previous one at its end.
class ScopedClock {
 public:
  explicit ScopedClock(ClockFunction clock) noexcept;
  ~ScopedClock();
  ScopedClock(const ScopedClock&) = delete;
  ScopedClock& operator=(const ScopedClock&) = delete;

 private:
  ClockFunction previous_;
};

}  // namespace measure
}  // namespace autosched
