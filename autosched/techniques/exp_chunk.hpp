#pragma once
/// @file
/// expChunk — Auto4OMP's "golden" expert chunk: a point at the golden ratio
/// between N/(2P) and 1 on a power-of-two scale,
///   m = ⌊0.618 · log2(⌊N/P⌋)⌋,   expChunk = ⌊N / (2^(m+1) · P)⌋
/// ((N/P)^0.382 / 2 in effect). 0 means "no useful value" (N < 2P).
/// In autosched expChunk is an explicit choice (`chunk=expert`), recorded with
/// the instance; it never overrides a chunk parameter the user fixed.

#include <cmath>
#include <cstdint>

namespace autosched {

[[nodiscard]] inline std::int64_t exp_chunk(std::int64_t n, int p) noexcept {
  const std::int64_t per_worker = n / p;
  if (per_worker < 1) return 0;
  const auto m = static_cast<int>(std::floor(std::log2(static_cast<double>(per_worker)) * 0.618));
  if (m + 1 >= 62) return 0;
  return n / ((std::int64_t{1} << (m + 1)) * p);
}

}  // namespace autosched
