#include <autosched/measure/clock.hpp>

#include <atomic>

namespace autosched::measure {

namespace {

std::int64_t monotonic() noexcept { return now_ns(); }

// Relaxed: installing a clock happens-before the loops that use it through
// the team's own synchronisation (threads are started or woken after it).
std::atomic<ClockFunction> current{&monotonic};

}  // namespace

std::int64_t now() noexcept { return current.load(std::memory_order_relaxed)(); }

void set_clock(ClockFunction clock) noexcept {
  current.store(clock != nullptr ? clock : &monotonic, std::memory_order_relaxed);
}

ScopedClock::ScopedClock(ClockFunction clock) noexcept : previous_(current.load(std::memory_order_relaxed)) {
  set_clock(clock);
}

ScopedClock::~ScopedClock() { set_clock(previous_); }

}  // namespace autosched::measure
