// Auto4OMP's expert selectors follow their published rules on scripted
// outcomes (LB4OMP's papers and published code).
#include <autosched/select/selectors/expert/binary_selector.hpp>
#include <autosched/select/selectors/expert/exhaustive_selector.hpp>
#include <autosched/select/selectors/expert/expert_selector.hpp>
#include <autosched/select/selectors/expert/random_selector.hpp>

#include "make_outcome.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace autosched {
namespace {

using testing::outcome;

// Each arm once in order, then the fastest.
TEST(Exhaustive, TriesEveryArmOnceThenKeepsTheFastest) {
  ExhaustiveSelector s(4, 10, 0.10);
  const double times[] = {12, 9, 15, 10};
  for (int k = 0; k < 4; ++k) {
    const Decision d = s.choose({});
    EXPECT_EQ(d.arm, k);
    EXPECT_TRUE(d.exploring);
    s.observe(d, outcome(times[k], 5));
  }
  for (int k = 0; k < 5; ++k) {
    const Decision d = s.choose({});
    EXPECT_EQ(d.arm, 1);
    EXPECT_FALSE(d.exploring);
    s.observe(d, outcome(9.2, 5));  // within 10%: no re-search
  }
  EXPECT_EQ(s.searches(), 1);
}

// LIB up by more than 10 points, or time off by more than 10%, re-searches,
// and the re-search forgets the old best's time.
TEST(Exhaustive, ResearchesOnTheTriggerAndResetsTheStaleBest) {
  ExhaustiveSelector s(3, 10, 0.10);
  for (int k = 0; k < 3; ++k) {
    const Decision d = s.choose({});
    s.observe(d, outcome(k == 0 ? 5.0 : 10.0, 2));
  }
  Decision d = s.choose({});
  ASSERT_EQ(d.arm, 0);
  s.observe(d, outcome(5.1, 13));  // LIB 2 → 13: more than 10 points
  EXPECT_EQ(s.searches(), 2);
  // The new search sees arm 0 at 20 ms (it slowed down): with the stale 5 ms
  // best forgotten, arm 1 (8 ms) must win.
  const double times[] = {20, 8, 9};
  for (int k = 0; k < 3; ++k) {
    d = s.choose({});
    EXPECT_EQ(d.arm, k);
    s.observe(d, outcome(times[k], 2));
  }
  EXPECT_EQ(s.choose({}).arm, 1);
  s.observe({1, 0, -1, false}, outcome(8.9, 2));  // +11%: re-search again
  EXPECT_EQ(s.searches(), 3);
}

TEST(Random, JumpsWithProbabilityLibOverTen) {
  auto jumps = [](double lib) {
    RandomSelector s(12, 7);
    int changed = 0;
    Decision d = s.choose({});
    for (int k = 0; k < 4000; ++k) {
      s.observe(d, outcome(10, lib));
      const Decision next = s.choose({});
      changed += next.exploring ? 1 : 0;
      d = next;
    }
    return changed / 4000.0;
  };
  EXPECT_EQ(jumps(0.0), 0.0);
  EXPECT_NEAR(jumps(5.0), 0.5, 0.03);  // p = 5/10
  EXPECT_NEAR(jumps(2.0), 0.2, 0.03);
  EXPECT_EQ(jumps(12.0), 1.0);  // p >= 1: always
}

TEST(Random, FirstInstanceAlwaysJumps) {
  RandomSelector s(12, 1);
  EXPECT_TRUE(s.choose({}).exploring);
}

// Steps 24, 12, 6, 3, 1 from −1 (A = 12), up when LIB rose, then stop.
TEST(Binary, BisectsAlongThePortfolioOnLib) {
  BinarySelector s(12);
  Decision d = s.choose({});
  EXPECT_EQ(d.arm, 11);  // −1 + 24, clamped
  s.observe(d, outcome(10, 20));
  d = s.choose({});  // LIB rose (−1 → 20): up 12 → clamped 11
  EXPECT_EQ(d.arm, 11);
  s.observe(d, outcome(10, 5));
  d = s.choose({});  // LIB fell: down 6 → 5
  EXPECT_EQ(d.arm, 5);
  s.observe(d, outcome(10, 8));
  d = s.choose({});  // rose: up 3 → 8
  EXPECT_EQ(d.arm, 8);
  s.observe(d, outcome(10, 7));
  d = s.choose({});  // fell: down 1 → 7
  EXPECT_EQ(d.arm, 7);
  s.observe(d, outcome(10, 30));
  for (int k = 0; k < 5; ++k) {
    d = s.choose({});
    EXPECT_EQ(d.arm, 7);  // step 0: kept for good
    EXPECT_FALSE(d.exploring);
    s.observe(d, outcome(10, 50));
  }
}

// Test vectors of Auto4OMP's phase A rules (Tpar, LB) → arm.
TEST(Expert, PhaseATestVectors) {
  EXPECT_EQ(ExpertSelector::initial_arm(5, 0.5), 0);
  EXPECT_EQ(ExpertSelector::initial_arm(5, 20), 0);
  EXPECT_EQ(ExpertSelector::initial_arm(50, 3), 4);
  EXPECT_EQ(ExpertSelector::initial_arm(500, 8), 4);
  EXPECT_EQ(ExpertSelector::initial_arm(2000, 8), 6);
  EXPECT_EQ(ExpertSelector::initial_arm(20000, 20), 11);
  EXPECT_EQ(ExpertSelector::initial_arm(20000, 1.5), 3);
}

// Phase B test vectors: (cDLS, T, prev T, LB, prev LB) → (new arm, ΔDLS).
TEST(Expert, PhaseBTestVectors) {
  struct V {
    double t, prev_t, lb, prev_lb, change;
    int arm;
  };
  const V vectors[] = {{2000, 1900, 8, 3, 4.0, 9},  {2000, 2000, 8, 8, 0.671, 6},  {2000, 2100, 8, 8, 0.671, 6},
                       {2000, 1950, 3, 8, -4.0, 1}, {20, 20, 0.5, 0.5, -1.913, 3}, {2000, 2000, 1.5, 1.5, 0.0, 5},
                       {2000, 2010, 3, 3, 0.0, 5}};
  for (const V& v : vectors) {
    const double change = ExpertSelector::arm_change(v.t, v.prev_t, v.lb, v.prev_lb);
    EXPECT_NEAR(change, v.change, 0.001) << v.t << " " << v.prev_t << " " << v.lb << " " << v.prev_lb;
    EXPECT_EQ(static_cast<int>(std::lround(5 + change)), v.arm);
  }
}

// Instance 1 runs STATIC, instance 2 phase A on STATIC's measurement, then
// phase B; all memberships 0 keeps the arm.
TEST(Expert, RunsStaticFirstThenPhaseAThenPhaseB) {
  ExpertSelector s(12);
  Decision d = s.choose({});
  EXPECT_EQ(d.arm, 0);
  s.observe(d, outcome(2000, 8));
  d = s.choose({});
  EXPECT_EQ(d.arm, 6);  // phase A (2 s, 8%)
  s.observe(d, outcome(2000, 8));
  d = s.choose({});  // phase B: (2000, 2000, 8, 8) → +0.671
  EXPECT_EQ(d.arm, 7);
  // Valid inputs always leave some membership above 0; a non-finite one
  // would make every rule 0 (or NaN): the arm stays.
  EXPECT_DOUBLE_EQ(ExpertSelector::arm_change(std::nan(""), 2000, 8, 8), 0.0);
}

}  // namespace
}  // namespace autosched
