#pragma once
/// @file
/// SplitMix64 (Steele, Lea & Flood 2014), a random stream in 8 bytes, and a
/// normal draw that needs no libm. Where a draw sits on a decision path that
/// an application's step leaves cold, std::mt19937_64 (2.5 KB of state) and
/// std::normal_distribution (libm's log and its tables) each add cache and
/// TLB misses; these add one word. The stream is also the same with every
/// standard library, which std's distributions are not.

#include <cstdint>
#include <limits>

namespace autosched {

/// The next value of the stream whose state is `state` (advances it).
constexpr std::uint64_t splitmix64(std::uint64_t& state) noexcept {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/// SplitMix64 as a standard uniform random bit generator.
class SplitMix64 {
 public:
  using result_type = std::uint64_t;
  explicit constexpr SplitMix64(std::uint64_t seed = 0) noexcept : state_(seed) {}
  static constexpr result_type min() noexcept { return 0; }
  static constexpr result_type max() noexcept { return std::numeric_limits<result_type>::max(); }
  constexpr result_type operator()() noexcept { return splitmix64(state_); }

 private:
  std::uint64_t state_;
};

/// An approximately standard normal draw: the sum of twelve uniforms on
/// (0, 1) less six has mean 0 and variance 1 exactly, and differs from the
/// normal only in the far tails (it stays within ±6; excess kurtosis −0.1).
/// Three 64-bit values give the twelve uniforms, 16 bits each.
constexpr double sum_of_twelve_normal(SplitMix64& random) noexcept {
  std::uint64_t sum = 0;
  for (int word = 0; word < 3; ++word) {
    const std::uint64_t bits = random();
    sum += (bits & 0xffff) + ((bits >> 16) & 0xffff) + ((bits >> 32) & 0xffff) + (bits >> 48);
  }
  // Each 16-bit value k stands for the uniform (k + ½) / 2^16.
  return (static_cast<double>(sum) + 6.0) * 0x1.0p-16 - 6.0;
}

}  // namespace autosched
