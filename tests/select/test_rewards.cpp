// Each reward signal on hand-computed values (docs/selection.md; thesis
// Algorithm 4 for the bands). Rewards (r+, r0, r−) = (0.01, −2, −4).
#include <autosched/select/selectors/rl/rl_reward.hpp>

#include <gtest/gtest.h>

namespace autosched {
namespace {

Outcome ms(double t) {
  Outcome o;
  o.time_ns = t * 1e6;
  return o;
}

RlConfig with(RlReward r) {
  RlConfig c;
  c.reward = r;
  return c;
}

// First observation initialises low = high; then within 5% of the lowest is
// good, within 5% of the highest is bad.
TEST(Rewards, LoopTimeBands) {
  RewardTracker t(with(RlReward::looptime));
  EXPECT_EQ(t.reward(ms(10)), 0.01);    // first: low = high = 10
  EXPECT_EQ(t.reward(ms(12)), -4.0);    // 12 >= 0.95·10: bad, high = 12
  EXPECT_EQ(t.reward(ms(10.4)), 0.01);  // <= 1.05·10
  EXPECT_EQ(t.reward(ms(11)), -2.0);    // 10.5 < 11 < 11.4
  EXPECT_EQ(t.reward(ms(11.5)), -4.0);  // >= 0.95·12 = 11.4
  EXPECT_EQ(t.reward(ms(9)), 0.01);     // new low 9
  EXPECT_DOUBLE_EQ(t.low(), 9);
  EXPECT_DOUBLE_EQ(t.high(), 12);
}

TEST(Rewards, StrictBands) {
  RlConfig c = with(RlReward::looptime);
  c.band = RlBand::strict;
  RewardTracker t(c);
  t.reward(ms(10));
  EXPECT_EQ(t.reward(ms(12)), -4.0);    // a new maximum
  EXPECT_EQ(t.reward(ms(10.4)), -2.0);  // neither the minimum nor the maximum
  EXPECT_EQ(t.reward(ms(11.9)), -2.0);  // within 5% of the maximum is not enough
  EXPECT_EQ(t.reward(ms(9.9)), 0.01);   // a new minimum
}

TEST(Rewards, LoadImbalanceAndStatisticalSignals) {
  Outcome o = ms(10);
  o.metrics.lib = 20;
  o.metrics.stddev = 3;
  o.metrics.cov = 0.2;
  o.metrics.skewness = -1.5;
  o.metrics.kurtosis = 2;
  for (RlReward r :
       {RlReward::loadimbalance, RlReward::stddev, RlReward::cov, RlReward::skewness, RlReward::kurtosis}) {
    RewardTracker t(with(r));
    EXPECT_EQ(t.reward(o), 0.01);
  }
  RewardTracker skew(with(RlReward::skewness));
  skew.reward(o);
  EXPECT_DOUBLE_EQ(skew.signal(), 1.5);  // |skewness|
  RewardTracker lib(with(RlReward::loadimbalance));
  lib.reward(o);
  o.metrics.lib = 40;
  EXPECT_EQ(lib.reward(o), -4.0);
}

// r+ when at most the mean of all earlier loop times, else r−.
TEST(Rewards, LoopTimeAverage) {
  RewardTracker t(with(RlReward::looptime_average));
  EXPECT_EQ(t.reward(ms(10)), 0.01);  // nothing earlier
  EXPECT_EQ(t.reward(ms(12)), -4.0);  // mean 10
  EXPECT_EQ(t.reward(ms(10)), 0.01);  // mean 11
  EXPECT_EQ(t.reward(ms(11)), -4.0);  // mean 32/3 = 10.67
}

// Window of 3 including the current value.
TEST(Rewards, LoopTimeRollingAverage) {
  RlConfig c = with(RlReward::looptime_rolling_average);
  c.window = 3;
  RewardTracker t(c);
  EXPECT_EQ(t.reward(ms(10)), 0.01);  // mean 10
  EXPECT_EQ(t.reward(ms(14)), -4.0);  // mean 12
  EXPECT_EQ(t.reward(ms(11)), 0.01);  // mean 35/3 = 11.67
  EXPECT_EQ(t.reward(ms(13)), -4.0);  // window 14, 11, 13: mean 12.67
}

TEST(Rewards, LoopTimeInverse) {
  RewardTracker t(with(RlReward::looptime_inverse));
  EXPECT_DOUBLE_EQ(t.reward(ms(4)), 10.0 / 4);  // multiplier / ms
  EXPECT_DOUBLE_EQ(t.reward(ms(20)), 0.5);
}

// tau · fastest − x, the fastest updated as it goes (tau = 1.5).
TEST(Rewards, Robustness) {
  RewardTracker t(with(RlReward::robustness));
  EXPECT_DOUBLE_EQ(t.reward(ms(10)), 1.5 * 10 - 10);
  EXPECT_DOUBLE_EQ(t.reward(ms(16)), 1.5 * 10 - 16);
  EXPECT_DOUBLE_EQ(t.reward(ms(8)), 1.5 * 8 - 8);
}

}  // namespace
}  // namespace autosched
