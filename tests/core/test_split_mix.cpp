// The small random stream and its libm-free normal draw (core/split_mix.hpp).
#include <autosched/core/split_mix.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

namespace autosched {
namespace {

TEST(SplitMix, MatchesThePublishedStream) {
  // SplitMix64 from state 0: the reference implementation's first values
  // (also computed by hand with Python's integers).
  SplitMix64 random(0);
  EXPECT_EQ(random(), 0xe220a8397b1dcdafULL);
  EXPECT_EQ(random(), 0x6e789e6aa1b965f4ULL);
  EXPECT_EQ(random(), 0x06c45d188009454fULL);
  std::uint64_t state = 0;
  EXPECT_EQ(splitmix64(state), 0xe220a8397b1dcdafULL);
  EXPECT_EQ(state, 0x9e3779b97f4a7c15ULL);
}

TEST(SplitMix, TheSumOfTwelveIsAStandardNormalWithinSix) {
  SplitMix64 random(42);
  constexpr int draws = 200000;
  double sum = 0, squares = 0, fourth = 0, lowest = 0, highest = 0;
  int beyond_two = 0;
  for (int k = 0; k < draws; ++k) {
    const double z = sum_of_twelve_normal(random);
    sum += z;
    squares += z * z;
    fourth += z * z * z * z;
    lowest = std::min(lowest, z);
    highest = std::max(highest, z);
    beyond_two += std::abs(z) > 2.0 ? 1 : 0;
  }
  const double mean = sum / draws, variance = squares / draws - mean * mean;
  EXPECT_NEAR(mean, 0.0, 0.01);           // standard error 0.0022
  EXPECT_NEAR(variance, 1.0, 0.015);      // standard error ≈ 0.003
  EXPECT_NEAR(fourth / draws, 2.9, 0.1);  // Irwin-Hall(12): 3 − 1.2/12; a normal's is 3
  // P(|z| > 2) is 4.55% for the normal, 4.4% for the sum of twelve.
  EXPECT_NEAR(static_cast<double>(beyond_two) / draws, 0.045, 0.003);
  EXPECT_GE(lowest, -6.0);
  EXPECT_LE(highest, 6.0);
  EXPECT_LT(lowest, -3.5);  // the tails are there
  EXPECT_GT(highest, 3.5);
}

}  // namespace
}  // namespace autosched
