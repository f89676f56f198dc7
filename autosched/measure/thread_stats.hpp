#pragma once
/// @file
/// What one thread did during one loop instance.

#include <cstdint>

namespace autosched {

struct ThreadStats {
  /// When the thread began taking chunks (now_ns clock); for techniques
  /// that do not time their workers (static, the planned sequences,
  /// static-steal, rnd), the loop's start, read once for the team.
  std::int64_t start_ns = 0;
  std::int64_t finish_ns = 0;  ///< when it found no more work
  /// Sum of chunk execution times; -1 when chunks were not timed (chunk timing
  /// costs two clock reads per chunk, so it is on only for techniques that
  /// learn from it or when LoopOptions::timing asks for it).
  std::int64_t busy_ns = -1;
  std::int64_t chunks = 0;
  std::int64_t iterations = 0;

  [[nodiscard]] bool busy_measured() const noexcept { return busy_ns >= 0; }
};

}  // namespace autosched
