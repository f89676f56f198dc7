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

}  // namespace autosched
