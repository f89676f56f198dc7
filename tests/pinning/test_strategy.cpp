// The learning automaton against vectors computed by hand from the update
// rule (strategy.hpp), the sampler's frequencies, O1/O2, and parameter
// validation.
#include <autosched/core/error.hpp>
#include <autosched/pinning/strategy.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

namespace {

using autosched::pinning::Parameters;
using autosched::pinning::Sampler;
using autosched::pinning::Strategy;

constexpr double tol = 1e-12;

double sum(const Strategy& s) {
  const auto p = s.probabilities();
  return std::accumulate(p.begin(), p.end(), 0.0);
}

TEST(Strategy, InitialVectorFavoursTheRoundRobinCore) {
  // m = 4, thread 5 -> core 5 mod 4 = 1 gets 0.98; the others (1 - 0.98) / 3.
  Strategy s(4, 5);
  EXPECT_NEAR(s.probability(1), 0.98, tol);
  for (std::size_t j : {0u, 2u, 3u}) EXPECT_NEAR(s.probability(j), 0.02 / 3, tol);
  EXPECT_EQ(s.most_likely(), 1u);
  EXPECT_FALSE(s.has_average());

  Strategy u(4, 5, /*uniform=*/true);
  for (std::size_t j = 0; j < 4; ++j) EXPECT_NEAR(u.probability(j), 0.25, tol);
  Strategy one(1, 7);  // a single core is certain whatever the weight
  EXPECT_NEAR(one.probability(0), 1.0, tol);
  EXPECT_THROW(Strategy(0, 0), autosched::Error);
}

TEST(Strategy, FirstSampleInitialisesTheAverageAndReinforcesThePlayedCore) {
  // m = 2, sigma = (0.98, 0.02), play core 0, u = 1, eps = 0.05.
  // First sample: u_bar = u = 1. u >= 0.98 u_bar, so phi = 1.
  // k = eps / u_bar * u = 0.05.
  // sigma_0 = 0.98 + 0.05 (1 - 0.98) = 0.981; sigma_1 = 0.02 + 0.05 (0 - 0.02) = 0.019.
  Parameters p;
  Strategy s(2, 0);
  s.observe(0, 1.0, p);
  EXPECT_TRUE(s.has_average());
  EXPECT_NEAR(s.running_average(), 1.0, tol);
  EXPECT_NEAR(s.probability(0), 0.981, tol);
  EXPECT_NEAR(s.probability(1), 0.019, tol);

  // The same sample on core 1: sigma_0 = 0.98 - 0.05 * 0.98 = 0.931,
  // sigma_1 = 0.02 + 0.05 (1 - 0.02) = 0.069.
  Strategy t(2, 0);
  t.observe(1, 1.0, p);
  EXPECT_NEAR(t.probability(0), 0.931, tol);
  EXPECT_NEAR(t.probability(1), 0.069, tol);
  // The first sample sets the average whatever its value (nu is not applied).
  Strategy w(2, 0);
  w.observe(0, 7.5, p);
  EXPECT_NEAR(w.running_average(), 7.5, tol);
}

TEST(Strategy, AboveAverageSampleTakesALargerStep) {
  // After (0.981, 0.019), u_bar = 1: play core 1 with u = 2, nu = 0.05.
  // u_bar = 1 + 0.05 (2 - 1) = 1.05; k = 0.05 / 1.05 * 2 = 0.0952380952...
  // sigma_1 = 0.019 + k (1 - 0.019) = 0.019 + 0.0952380952 * 0.981 = 0.1124285714...
  Parameters p;
  Strategy s(2, 0);
  s.observe(0, 1.0, p);
  s.observe(1, 2.0, p);
  EXPECT_NEAR(s.running_average(), 1.05, tol);
  const double k = 0.05 / 1.05 * 2.0;
  EXPECT_NEAR(s.probability(1), 0.019 + k * 0.981, tol);
  EXPECT_NEAR(s.probability(1), 0.11242857142857143, 1e-12);
  EXPECT_NEAR(sum(s), 1.0, tol);
}

TEST(Strategy, BelowAverageSampleIsDampedByH) {
  // After (0.981, 0.019), u_bar = 1: play core 1 with u = 0.5.
  // u_bar = 1 + 0.05 (0.5 - 1) = 0.975; 0.5 < 0.98 * 0.975 = 0.9555, so phi applies.
  // h = 0.5: phi = max(0.5, 1 + (0.5 - 0.975) / 0.5) = max(0.5, 0.05) = 0.5.
  // k = 0.05 / 0.975 * 0.5 * 0.5 = 0.0128205128...
  // sigma_1 = 0.019 + k * 0.981 = 0.0315769230...; sigma_0 = 0.981 (1 - k) = 0.9684230769...
  Parameters p;
  p.h = 0.5;
  Strategy s(2, 0);
  s.observe(0, 1.0, p);
  s.observe(1, 0.5, p);
  EXPECT_NEAR(s.running_average(), 0.975, tol);
  EXPECT_NEAR(s.probability(1), 0.031576923076923075, 1e-12);
  EXPECT_NEAR(s.probability(0), 0.9684230769230769, 1e-12);

  // h = 1: phi = max(1, 1 - 0.475) = 1, the plain step k = 0.05 / 0.975 * 0.5 = 0.0256410256...
  // sigma_1 = 0.019 + 0.0256410256 * 0.981 = 0.0441538461...
  Parameters plain;
  Strategy t(2, 0);
  t.observe(0, 1.0, plain);
  t.observe(1, 0.5, plain);
  EXPECT_NEAR(t.probability(1), 0.04415384615384615, 1e-12);

  // h = 0.01: phi = max(0.01, 1 - 47.5) = 0.01, almost frozen:
  // k = 0.05 / 0.975 * 0.5 * 0.01 = 0.000256410256...; sigma_1 = 0.019 + k * 0.981.
  Parameters frozen;
  frozen.h = 0.01;
  Strategy f(2, 0);
  f.observe(0, 1.0, frozen);
  f.observe(1, 0.5, frozen);
  EXPECT_NEAR(f.probability(1), 0.019 + 0.05 / 0.975 * 0.5 * 0.01 * 0.981, 1e-12);
}

TEST(Strategy, StaysOnTheSimplex) {
  // A sample far above the average: eps = 1, u_bar = 1 then u = 1000 gives
  // u_bar = 1 + 0.05 * 999 = 50.95 and k = 1000 / 50.95 = 19.6 > 1; the step
  // stops at the vertex e_1.
  Parameters p;
  p.eps = 1.0;
  Strategy s(2, 0);
  s.observe(0, 1.0, p);
  s.observe(1, 1000.0, p);
  EXPECT_NEAR(s.probability(0), 0.0, tol);
  EXPECT_NEAR(s.probability(1), 1.0, tol);

  // A negative utility (O2 with a large penalty) pushes away from the played
  // core; the vector is clipped at zero and renormalised.
  Strategy n(3, 0);
  n.observe(0, 1.0, p);    // u_bar = 1, sigma moves to e_0 (k = 1)
  n.observe(0, -30.0, p);  // u_bar = 1 + 0.05 * (-31) = -0.55: no positive scale, no update
  for (double x : n.probabilities()) EXPECT_GE(x, 0.0);
  EXPECT_NEAR(sum(n), 1.0, tol);

  // Clipping: sigma = (0.98, 0.01, 0.01); a plain sample u = 2 on core 1
  // (eps = 0.05, first sample: u_bar = 2, k = 0.05) gives (0.931, 0.0595, 0.0095).
  // Then u = -1 on core 1 with eps = 1: u_bar = 2 + 0.05 (-1 - 2) = 1.85,
  // phi = max(1, 1 + (-1 - 1.85)) = 1, k = -1 / 1.85. sigma_1 would be
  // 0.0595 + k (1 - 0.0595) < 0: clipped to 0; the others are scaled by
  // (1 - k) alike, so renormalising leaves them in their old proportion:
  // 0.931 / 0.9405 and 0.0095 / 0.9405.
  Strategy m(3, 0);
  m.observe(1, 2.0, Parameters{});
  EXPECT_NEAR(m.probability(1), 0.0595, tol);
  m.observe(1, -1.0, p);
  EXPECT_NEAR(m.running_average(), 1.85, tol);
  EXPECT_NEAR(m.probability(1), 0.0, tol);
  EXPECT_NEAR(m.probability(0), 0.931 / 0.9405, 1e-12);
  EXPECT_NEAR(m.probability(2), 0.0095 / 0.9405, 1e-12);
  EXPECT_NEAR(sum(m), 1.0, tol);

  // No progress at all: u_bar = 0 has no scale; the vector is kept.
  Strategy z(2, 0);
  z.observe(0, 0.0, Parameters{});
  EXPECT_NEAR(z.probability(0), 0.98, tol);
}

TEST(Strategy, ResetGivesTheUniformVectorAndKeepsTheAverage) {
  Strategy s(4, 2);
  s.observe(2, 3.0, Parameters{});
  s.reset_uniform();
  for (double x : s.probabilities()) EXPECT_NEAR(x, 0.25, tol);
  EXPECT_NEAR(s.running_average(), 3.0, tol);
  s.forget_average();
  EXPECT_FALSE(s.has_average());
}

TEST(Sampler, FollowsTheStrategyWithoutPerturbation) {
  // sigma = (0.98, 0.02/3, 0.02/3, 0.02/3), lambda = 0: core 0 about 98 %.
  Strategy s(4, 0);
  Sampler draw(123);
  std::array<int, 4> count{};
  constexpr int n = 100000;
  for (int i = 0; i < n; ++i) ++count[draw.sample(s, 0.0)];
  EXPECT_GT(count[0], 0.97 * n);
  EXPECT_LT(count[0], 0.99 * n);
  for (int j = 1; j < 4; ++j) EXPECT_GT(count[static_cast<std::size_t>(j)], 0);

  // Weight 1 on core 0: never anything else.
  Strategy certain(4, 0, false, 1.0);
  for (int i = 0; i < 10000; ++i) ASSERT_EQ(draw.sample(certain, 0.0), 0u);
}

TEST(Sampler, PerturbationIsUniformAndExact) {
  // lambda = 1: the strategy is ignored, each of 4 cores about 25 %.
  Strategy s(4, 0);
  Sampler draw(7);
  std::array<int, 4> count{};
  constexpr int n = 100000;
  for (int i = 0; i < n; ++i) ++count[draw.sample(s, 1.0)];
  for (int c : count) {
    EXPECT_GT(c, 0.24 * n);
    EXPECT_LT(c, 0.26 * n);
  }
  // sigma = (1, 0), lambda = 0.5: core 1 only through the perturbation,
  // with probability 0.5 * 1/2 = 0.25 (finer than a percent grid could give
  // for lambda = 0.005: 0.0025).
  Strategy certain(2, 0, false, 1.0);
  int ones = 0;
  for (int i = 0; i < n; ++i) ones += draw.sample(certain, 0.5) == 1 ? 1 : 0;
  EXPECT_GT(ones, 0.24 * n);
  EXPECT_LT(ones, 0.26 * n);
  ones = 0;
  for (int i = 0; i < n; ++i) ones += draw.sample(certain, 0.005) == 1 ? 1 : 0;
  EXPECT_GT(ones, 150);  // expected 250
  EXPECT_LT(ones, 350);
}

TEST(Sampler, SameSeedSameSequence) {
  Strategy s(3, 0, true);
  Sampler a(99), b(99);
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(a.sample(s, 0.1), b.sample(s, 0.1));
}

// play=stable: settled vectors keep every thread where it is; exploring
// trades places, so the count per core never changes while the vectors do not.
TEST(StablePlacement, ExploringTradesPlacesAndKeepsTheCountPerCore) {
  std::vector<Strategy> team;
  for (std::size_t i = 0; i < 6; ++i) team.emplace_back(2, i);  // 0.98 on core i mod 2
  std::vector<const Strategy*> view;
  for (const Strategy& s : team) view.push_back(&s);
  std::vector<int> current = {0, 1, 0, 1, 0, 1};
  Sampler sampler(5);
  EXPECT_EQ(autosched::pinning::stable_placement(view, current, 0.0, sampler), current);
  int moved = 0;
  for (int period = 0; period < 200; ++period) {
    const std::vector<int> next = autosched::pinning::stable_placement(view, current, 0.3, sampler);
    ASSERT_EQ(std::count(next.begin(), next.end(), 0), 3) << "period " << period;
    for (std::size_t i = 0; i < next.size(); ++i) moved += next[i] != current[i] ? 1 : 0;
    current = next;
  }
  EXPECT_GT(moved, 0);  // it did explore
}

TEST(StablePlacement, FollowsTheFirstRankedCoreAndSpreadsUniformVectors) {
  Strategy prefers_one(3, 1);  // 0.98 on core 1
  Strategy a(3, 0, true), b(3, 0, true), c(3, 0, true);  // uniform: every core ranked first
  std::vector<const Strategy*> view = {&prefers_one, &a, &b, &c};
  Sampler sampler(1);
  // Thread 0 leaves core 2 for its first-ranked core 1; a stays on core 2 (a
  // tie keeps it); b, new, takes the empty core 0; then every core holds one
  // thread and c takes the first of them.
  const std::vector<int> next = autosched::pinning::stable_placement(view, {2, 2, -1, -1}, 0.0, sampler);
  EXPECT_EQ(next[0], 1);
  EXPECT_EQ(next[1], 2);
  EXPECT_EQ(next[2], 0);
  EXPECT_EQ(next[3], 0);
  EXPECT_THROW((void)autosched::pinning::stable_placement(view, {0}, 0.0, sampler), autosched::Error);
}

TEST(Utility, O1IsTheSpeedAndO2PenalisesDistanceFromTheMean) {
  using autosched::pinning::utility_o1;
  using autosched::pinning::utility_o2;
  EXPECT_DOUBLE_EQ(utility_o1(3.5), 3.5);
  // 2 - 0.5 (2 - 1)^2 = 1.5
  EXPECT_NEAR(utility_o2(2.0, 1.0, 0.5), 1.5, tol);
  // 0.5 - 0.02 (0.5 - 1.5)^2 = 0.48
  EXPECT_NEAR(utility_o2(0.5, 1.5, 0.02), 0.48, tol);
  // At the mean there is no penalty; gamma = 0 is O1.
  EXPECT_NEAR(utility_o2(1.2, 1.2, 10.0), 1.2, tol);
  EXPECT_NEAR(utility_o2(4.0, 1.0, 0.0), 4.0, tol);
}

std::string message_of(const Parameters& p) {
  try {
    p.validate();
  } catch (const autosched::Error& e) {
    return e.what();
  }
  return "";
}

TEST(Parameters, DefaultsAreValidAndBadValuesAreNamed) {
  Parameters d;
  EXPECT_NO_THROW(d.validate());
  EXPECT_DOUBLE_EQ(d.eps, 0.05);
  EXPECT_DOUBLE_EQ(d.lambda, 0.02);
  EXPECT_DOUBLE_EQ(d.nu, 0.05);
  EXPECT_DOUBLE_EQ(d.gamma, 0.02);
  EXPECT_DOUBLE_EQ(d.h, 1.0);
  EXPECT_DOUBLE_EQ(d.period, 0.1);

  Parameters p;
  p.eps = 1.5;
  EXPECT_EQ(message_of(p), "pinning eps=1.5: expected a number in (0, 1]");
  p = {};
  p.lambda = -0.1;
  EXPECT_EQ(message_of(p), "pinning lambda=-0.1: expected a number in [0, 1]");
  p = {};
  p.nu = 0;
  EXPECT_EQ(message_of(p), "pinning nu=0: expected a number in (0, 1]");
  p = {};
  p.h = 0;
  EXPECT_EQ(message_of(p), "pinning h=0: expected a number in (0, 1e6]");
  p = {};
  p.gamma = -1;
  EXPECT_EQ(message_of(p), "pinning gamma=-1: expected a number in [0, 1e6]");
  p = {};
  p.period = 0;
  EXPECT_EQ(message_of(p), "pinning period=0: expected a number of seconds in [0.001, 3600]");
  p = {};
  p.eps = std::numeric_limits<double>::quiet_NaN();
  EXPECT_NE(message_of(p).find("pinning eps=nan"), std::string::npos);
}

}  // namespace
