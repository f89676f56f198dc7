#pragma once
/// @file
/// The clock the loop driver reads. It is now_ns() unless a test or a
/// simulation installs another one: a test that plants per-chunk costs in
/// virtual time decides guards and adaptive shares without judging the speed
/// of the machine it runs on.
///
///   std::int64_t fake() noexcept { return 42; }
///   autosched::drive::ScopedClock clock(&fake);  // loops now read 42

#include <autosched/core/clock.hpp>

#include <cstdint>

namespace autosched::drive {

/// A replacement clock: nanoseconds, never going backwards on one thread.
using ClockFunction = std::int64_t (*)() noexcept;

/// The clock the loop driver reads: now_ns() unless a test installed another.
std::int64_t now() noexcept;

/// Installs `clock` (nullptr restores now_ns). For tests and simulations; not thread-safe against running loops.
void set_clock(ClockFunction clock) noexcept;

/// RAII: installs a clock for a scope, restores the previous one.
class [[nodiscard]] ScopedClock {
 public:
  explicit ScopedClock(ClockFunction clock) noexcept;
  ~ScopedClock();
  ScopedClock(const ScopedClock&) = delete;
  ScopedClock& operator=(const ScopedClock&) = delete;

 private:
  ClockFunction previous_;
};

}  // namespace autosched::drive
