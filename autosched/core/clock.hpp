#pragma once
/// @file
/// The monotonic clock every autosched measurement uses: integer nanoseconds
/// from CLOCK_MONOTONIC. One read costs about 24 ns on the reference VM (vDSO),
/// so the hot path reads it per thread and per instance, and per chunk only
/// for techniques that learn from chunk times (see docs/PERFORMANCE.md).

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

}  // namespace autosched
