#pragma once
/// @file
/// A half-open range of loop iterations [begin, end): the unit a scheduling
/// technique hands out (a chunk) and a loop's iteration space.

#include <cstdint>

namespace autosched {

struct IndexRange {
  std::int64_t begin = 0;
  std::int64_t end = 0;

  [[nodiscard]] constexpr bool empty() const noexcept { return end <= begin; }
  [[nodiscard]] constexpr std::int64_t size() const noexcept { return empty() ? 0 : end - begin; }
  friend constexpr bool operator==(const IndexRange&, const IndexRange&) = default;
};

}  // namespace autosched
