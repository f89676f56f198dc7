// The cost bandits (ε-greedy, UCB, Thompson sampling) on planted costs: the
// coverage sweep, each rule, deterministic seeding, convergence on the best
// arm, and the state text.
#include <autosched/core/error.hpp>
#include <autosched/select/selectors/bandit/epsilon_greedy_selector.hpp>
#include <autosched/select/selectors/bandit/thompson_selector.hpp>
#include <autosched/select/selectors/bandit/ucb_selector.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <vector>

namespace autosched {
namespace {

Outcome cost(double c) {
  Outcome o;
  o.time_ns = c;
  return o;
}

/// Planted costs per arm, with ±10% deterministic noise.
struct Planted {
  std::vector<double> mean;
  std::uint64_t state = 42;
  double operator()(int arm) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    const double u = static_cast<double>(state >> 11) / 9007199254740992.0;  // [0, 1)
    return mean[static_cast<std::size_t>(arm)] * (0.9 + 0.2 * u);
  }
};

std::vector<int> drive(Selector& s, Planted& costs, int steps, int* explored = nullptr) {
  std::vector<int> arms;
  for (int k = 0; k < steps; ++k) {
    const Decision d = s.choose({});
    s.observe(d, cost(costs(d.arm)));
    arms.push_back(d.arm);
    if (explored != nullptr && d.exploring) ++*explored;
  }
  return arms;
}

using Factory = std::function<std::unique_ptr<CostBandit>(int arms, BanditOptions)>;

struct Kind {
  const char* name;
  Factory make;
};

std::vector<Kind> kinds() {
  return {
      {"epsilon-greedy", [](int a, BanditOptions o) { return std::make_unique<EpsilonGreedySelector>(a, 0.05, o); }},
      {"ucb", [](int a, BanditOptions o) { return std::make_unique<UcbSelector>(a, 0.2, o); }},
      {"thompson", [](int a, BanditOptions o) { return std::make_unique<ThompsonSelector>(a, o); }},
  };
}

}  // namespace

TEST(CostBandits, SweepEveryArmCoverageTimesInTurnFirst) {
  for (const Kind& k : kinds()) {
    auto s = k.make(4, BanditOptions{.coverage = 2});
    EXPECT_EQ(s->name(), k.name);
    Planted costs{{4, 3, 2, 1}};
    std::vector<int> arms;
    for (int i = 0; i < 8; ++i) {
      EXPECT_TRUE(s->sweeping()) << k.name;
      const Decision d = s->choose({});
      EXPECT_TRUE(d.exploring) << k.name;
      s->observe(d, cost(costs(d.arm)));
      arms.push_back(d.arm);
    }
    EXPECT_EQ(arms, (std::vector<int>{0, 1, 2, 3, 0, 1, 2, 3})) << k.name;
    EXPECT_FALSE(s->sweeping()) << k.name;
    EXPECT_EQ(s->best_arm(), 3) << k.name;
  }
}

TEST(CostBandits, ARandomSweepCoversEveryArmOnceInSomeOrder) {
  auto s = UcbSelector(5, 1.0, BanditOptions{.sweep_random = true, .seed = 7});
  Planted costs{{1, 2, 3, 4, 5}};
  auto arms = drive(s, costs, 5);
  std::sort(arms.begin(), arms.end());
  EXPECT_EQ(arms, (std::vector<int>{0, 1, 2, 3, 4}));
}

TEST(CostBandits, ConvergeOnThePlantedBestArm) {
  for (const Kind& k : kinds()) {
    for (std::uint64_t seed : {1, 2, 3}) {
      auto s = k.make(5, BanditOptions{.seed = seed});
      Planted costs{{13, 12, 10, 11, 14}, seed};
      drive(*s, costs, 500);
      const auto late = drive(*s, costs, 500);
      EXPECT_GE(std::count(late.begin(), late.end(), 2), 450) << k.name << " seed " << seed;
      EXPECT_EQ(s->best_arm(), 2) << k.name;
    }
  }
}

TEST(CostBandits, TheSameSeedGivesTheSameChoices) {
  for (const Kind& k : kinds()) {
    auto a = k.make(4, BanditOptions{.seed = 11});
    auto b = k.make(4, BanditOptions{.seed = 11});
    Planted ca{{10, 10.5, 11, 10.2}}, cb{{10, 10.5, 11, 10.2}};
    EXPECT_EQ(drive(*a, ca, 300), drive(*b, cb, 300)) << k.name;
  }
  // The random rules draw from their seed: another seed, other choices.
  for (const Kind& k : {kinds()[0], kinds()[2]}) {
    auto a = k.make(4, BanditOptions{.seed = 11});
    auto b = k.make(4, BanditOptions{.seed = 12});
    Planted ca{{10, 10.5, 11, 10.2}}, cb{{10, 10.5, 11, 10.2}};
    EXPECT_NE(drive(*a, ca, 300), drive(*b, cb, 300)) << k.name;
  }
}

TEST(CostBandits, BestByMinimumOrByMean) {
  for (bool by_min : {false, true}) {
    UcbSelector s(2, 0, BanditOptions{.best_by_min = by_min});
    s.observe(Decision{.arm = 0}, cost(5));
    s.observe(Decision{.arm = 0}, cost(5));
    s.observe(Decision{.arm = 1}, cost(2));   // lower minimum,
    s.observe(Decision{.arm = 1}, cost(10));  // higher mean
    EXPECT_EQ(s.best_arm(), by_min ? 1 : 0);
    EXPECT_EQ(s.choose({}).arm, 0);  // c = 0: the lowest mean, whatever names the best
  }
}

// mean − c · scale · √(2 ln N / n), scale the best mean: arm 0 (10 ms, 10
// samples) scores 10 − 10·√(2 ln 11 / 10) ≈ 3.08, arm 1 (12 ms, 1 sample)
// 12 − 10·√(2 ln 11) ≈ −9.90.
TEST(UcbSelector, PicksTheLowestOptimisticMean) {
  UcbSelector s(2, 1.0);
  for (int i = 0; i < 10; ++i) s.observe(Decision{.arm = 0}, cost(10));
  s.observe(Decision{.arm = 1}, cost(12));
  const Decision d = s.choose({});
  EXPECT_EQ(d.arm, 1);
  EXPECT_TRUE(d.exploring);
  // A smaller c, more samples of arm 0 (N = 51): 10 − 0.5·√(2 ln 51 / 50) ≈
  // 9.80 against 12 − 0.5·√(2 ln 51) ≈ 10.60: the best arm runs.
  UcbSelector small(2, 0.05);
  for (int i = 0; i < 50; ++i) small.observe(Decision{.arm = 0}, cost(10));
  small.observe(Decision{.arm = 1}, cost(12));
  const Decision e = small.choose({});
  EXPECT_EQ(e.arm, 0);
  EXPECT_FALSE(e.exploring);
}

TEST(EpsilonGreedySelector, EpsilonIsTheShareOfRandomPicks) {
  EpsilonGreedySelector never(4, 0.0, BanditOptions{.seed = 1});
  EpsilonGreedySelector always(4, 1.0, BanditOptions{.seed = 1});
  Planted c1{{4, 3, 1, 2}}, c2{{4, 3, 1, 2}};
  int explored_never = 0, explored_always = 0;
  drive(never, c1, 4);
  drive(always, c2, 4);
  const auto a = drive(never, c1, 1000, &explored_never);
  const auto b = drive(always, c2, 4000, &explored_always);
  EXPECT_EQ(explored_never, 0);
  EXPECT_EQ(std::count(a.begin(), a.end(), 2), 1000);
  // Uniform over 4 arms: 3/4 of the picks are not the best (±5%).
  EXPECT_NEAR(explored_always / 4000.0, 0.75, 0.05);
  EXPECT_THROW(EpsilonGreedySelector(2, 1.5), Error);
}

TEST(ThompsonSelector, TheSpreadFloorKeepsIdenticalSamplesUncertain) {
  // Two arms 1% apart, every sample identical: with the 3% floor both stay
  // plausible and are both run; without a floor the posterior is a point.
  ThompsonSelector floored(2, BanditOptions{.seed = 3});
  ThompsonSelector certain(2, BanditOptions{.seed = 3}, 0.0);
  for (Selector* s : {static_cast<Selector*>(&floored), static_cast<Selector*>(&certain)}) {
    for (int i = 0; i < 5; ++i) {
      s->observe(Decision{.arm = 0}, cost(100));
      s->observe(Decision{.arm = 1}, cost(101));
    }
  }
  int second_floored = 0, second_certain = 0;
  for (int i = 0; i < 400; ++i) {
    second_floored += floored.choose({}).arm == 1 ? 1 : 0;
    second_certain += certain.choose({}).arm == 1 ? 1 : 0;
  }
  EXPECT_GT(second_floored, 40);
  EXPECT_EQ(second_certain, 0);
  EXPECT_DOUBLE_EQ(floored.spread_floor(), ThompsonSelector::default_spread_floor);
}

TEST(CostBandits, StateRoundTripsExactlyAndContinuesAlike) {
  for (const Kind& k : kinds()) {
    auto a = k.make(3, BanditOptions{.seed = 5});
    EXPECT_EQ(a->save_state(), "") << k.name;  // nothing learned yet
    Planted costs{{1.0 / 3, 0.7, 2.9}};
    drive(*a, costs, 40);
    const std::string text = a->save_state();
    auto b = k.make(3, BanditOptions{.seed = 5});
    ASSERT_TRUE(b->load_state(text)) << k.name << ": " << text;
    EXPECT_EQ(b->save_state(), text) << k.name;
    for (int arm = 0; arm < 3; ++arm) {
      EXPECT_EQ(b->samples(arm).stats.count, a->samples(arm).stats.count);
      EXPECT_EQ(b->samples(arm).stats.mean, a->samples(arm).stats.mean);  // bit for bit
      EXPECT_EQ(b->samples(arm).stats.m2, a->samples(arm).stats.m2);
      EXPECT_EQ(b->samples(arm).min, a->samples(arm).min);
    }
    EXPECT_EQ(b->best_arm(), a->best_arm());
    EXPECT_FALSE(b->sweeping());
  }
}

TEST(CostBandits, ForeignOrDamagedStateChangesNothing) {
  UcbSelector s(3, 1.0);
  UcbSelector other(2, 1.0);
  EpsilonGreedySelector eps(3, 0.1);
  Planted costs{{1, 2, 3}};
  drive(other, costs, 5);
  drive(eps, costs, 5);
  EXPECT_FALSE(s.load_state(other.save_state()));                               // other arms
  EXPECT_FALSE(s.load_state(eps.save_state()));                                 // another rule
  EXPECT_FALSE(s.load_state("ucb 3 1 0x1p+0 0x0p+0 0x1p+0 1 0x1p+0"));          // cut short
  EXPECT_FALSE(s.load_state("ucb 3 1 0x1p+0 -0x1p+0 0x1p+0 0 0 0 0 0 0 0 0"));  // negative M2
  EXPECT_FALSE(s.load_state("ucb 3 1 nan 0 1 0 0 0 0 0 0 0 0"));
  EXPECT_FALSE(s.load_state("ucb 3 0 0 0 0 0 0 0 0 0 0 0 0 extra"));
  EXPECT_TRUE(s.sweeping());
  EXPECT_EQ(s.best_arm(), -1);
  EXPECT_EQ(s.choose({}).arm, 0);
}

// Counts no run could reach (near 2^63, or beyond 64 bits, which strtoll
// saturates) would overflow the arm's counter at the next sample.
TEST(CostBandits, ImplausibleCountsAreDamage) {
  UcbSelector s(2, 1.0);
  EXPECT_TRUE(s.load_state("ucb 2 3 0x1p+0 0x0p+0 0x1p+0 3 0x1p+1 0x0p+0 0x1p+1"));
  for (const char* bad : {"ucb 2 9223372036854775000 0x1p+0 0x0p+0 0x1p+0 3 0x1p+1 0x0p+0 0x1p+1",
                          "ucb 2 99999999999999999999 0x1p+0 0x0p+0 0x1p+0 3 0x1p+1 0x0p+0 0x1p+1",
                          "ucb 2 281474976710657 0x1p+0 0x0p+0 0x1p+0 3 0x1p+1 0x0p+0 0x1p+1"}) {
    UcbSelector fresh(2, 1.0);
    EXPECT_FALSE(fresh.load_state(bad)) << bad;
    EXPECT_TRUE(fresh.sweeping()) << bad;
  }
}

TEST(CostBandits, SeededArmsSkipTheSweep) {
  ThompsonSelector s(3);
  std::vector<ArmSamples> known(3);
  known[0].add(5);
  known[2].add(1);
  known[2].add(1.2);
  EXPECT_FALSE(s.seed(std::vector<ArmSamples>(2)));  // the size must match
  ASSERT_TRUE(s.seed(known));
  EXPECT_EQ(s.best_arm(), 2);
  EXPECT_EQ(s.choose({}).arm, 1);  // the only arm without samples
  EXPECT_EQ(s.summary(), "sweep 2/3");
  ArmSamples bad;
  bad.stats.count = 2;
  bad.stats.m2 = -1;
  known[1] = bad;
  EXPECT_FALSE(s.seed(known));
  EXPECT_EQ(s.samples(1).stats.count, 0);  // unchanged
}

TEST(CostBandits, IgnoreOutcomesTheyCannotUse) {
  UcbSelector s(2, 1.0);
  s.observe(Decision{.arm = 5}, cost(1));
  s.observe(Decision{.arm = 0}, cost(std::numeric_limits<double>::quiet_NaN()));
  EXPECT_EQ(s.samples(0).stats.count, 0);
  EXPECT_THROW(UcbSelector(0, 1.0), Error);
  EXPECT_THROW(UcbSelector(2, -1.0), Error);
  EXPECT_THROW(ThompsonSelector(2, BanditOptions{.coverage = 0}), Error);
}

}  // namespace autosched
