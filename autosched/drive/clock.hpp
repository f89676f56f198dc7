#pragma once
/// @file
/// The clock the loop driver reads. It is now_ns() (core/clock.hpp) unless a
/// test or a simulation installs another: then every start, finish, chunk
/// time, guard deadline and loop time the driver measures comes from that
/// function, and a test can plant costs instead of spinning and judging
/// wall-clock time.
///
///   std::int64_t virtual_time() noexcept { ... }
///   autosched::drive::ScopedClock clock(&virtual_time);  // this scope's loops run on it

#include <cstdint>

namespace autosched::drive {

using ClockFunction = std::int64_t (*)() noexcept;

/// The driver's current time in nanoseconds: now_ns() unless a test installed another clock.
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

}  // namespace autosched::drive
