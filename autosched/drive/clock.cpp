#include <autosched/drive/clock.hpp>

#include <atomic>

namespace autosched::drive {

namespace {

// Relaxed: a clock is installed while no loop runs (the contract), and the
// team's fork publishes it to the workers. nullptr means now_ns, so the
// default costs one predictable branch on top of the vDSO call.
std::atomic<ClockFunction> installed{nullptr};

}  // namespace

std::int64_t now() noexcept {
  const ClockFunction clock = installed.load(std::memory_order_relaxed);
  return clock == nullptr ? now_ns() : clock();
}

void set_clock(ClockFunction clock) noexcept { installed.store(clock, std::memory_order_relaxed); }

ScopedClock::ScopedClock(ClockFunction clock) noexcept
    : previous_(installed.exchange(clock, std::memory_order_relaxed)) {}

ScopedClock::~ScopedClock() { set_clock(previous_); }

}  // namespace autosched::drive
