#pragma once
/// @file
/// What a technique knows about the loop instance it schedules: the number of
/// iterations, the number of workers, the chunk parameter and the
/// technique-specific parameters. Techniques never see element types or bodies.

#include <cstdint>
#include <optional>
#include <vector>

namespace autosched {

/// Largest supported iteration count: 2^62 leaves headroom for the overshoot
/// of the shared counters (at most one chunk per worker past the end).
inline constexpr std::int64_t max_iterations = std::int64_t{1} << 62;

struct LoopShape {
  std::int64_t n = 0;      ///< iterations, 0 <= n <= max_iterations
  int workers = 1;         ///< P >= 1
  std::int64_t chunk = 0;  ///< chunk parameter c; 0 = the technique's default
};

/// Technique-specific parameters (the `<key>=<value>` part of a schedule).
/// Times are in nanoseconds; every formula that uses them is unit-free.
struct TechniqueParams {
  std::optional<double> mu_ns;        ///< mean iteration time (fac, mfac, tap, bold)
  std::optional<double> sigma_ns;     ///< iteration-time standard deviation (fsc, fac, mfac, tap, bold)
  std::optional<double> overhead_ns;  ///< scheduling overhead h per chunk (fsc, bold)
  double alpha = 1.0;                 ///< tap: scaling of sigma/mu
  int divider = 10;                   ///< af, maf: sub-chunks per chunk
  double swr = 0.5;                   ///< pls: static workload ratio
  int stages = 0;                     ///< fiss: number of stages B; 0 = P − 1
  int viss = 0;                       ///< viss: divisor V; 0 = P
  std::int64_t start = 1;             ///< rnd: smallest chunk
  std::uint64_t seed = 0x5eed;        ///< rnd: random stream
  std::vector<double> weights;        ///< wf, awf: initial per-worker weights (used when size == P)

  friend bool operator==(const TechniqueParams&, const TechniqueParams&) = default;
};

/// 128-bit integer for intermediate products of 64-bit counts (GCC/Clang
/// extension; __extension__ keeps -Wpedantic quiet about it).
__extension__ typedef __int128 int128;

/// The minimum chunk most techniques apply after their formula: max(c, 1).
[[nodiscard]] constexpr std::int64_t min_chunk(const LoopShape& s) noexcept { return s.chunk > 1 ? s.chunk : 1; }

/// ⌈a / b⌉ for a >= 0, b > 0.
[[nodiscard]] constexpr std::int64_t ceil_div(std::int64_t a, std::int64_t b) noexcept {
  return a / b + (a % b != 0 ? 1 : 0);
}

}  // namespace autosched
