// autosched's own selector: guarded sweep, Thompson sampling, change
// detection and warm start, on scripted loops.
#include <autosched/core/split_mix.hpp>
#include <autosched/select/selectors/auto/auto_selector.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

namespace autosched {
namespace {

// A scripted loop: fixed cost per arm (ms); honours budgets as the runtime
// does (the rest of the work at the fallback's cost).
struct Loop {
  std::vector<double> ms;
  Outcome run(const Decision& d) const {
    Outcome o;
    o.time_ns = ms[static_cast<std::size_t>(d.arm)] * 1e6;
    if (d.budget_ns > 0 && d.fallback >= 0 && o.time_ns > d.budget_ns) {
      o.time_ns = d.budget_ns + (1 - d.budget_ns / o.time_ns) * ms[static_cast<std::size_t>(d.fallback)] * 1e6;
      o.cut_short = true;
    }
    return o;
  }
};

Outcome took(double ns) {
  Outcome o;
  o.time_ns = ns;
  return o;
}

std::vector<int> drive(autosched::detail::AutoSelector& s, const Loop& loop, int steps, double* total_ms = nullptr) {
  std::vector<int> arms;
  for (int k = 0; k < steps; ++k) {
    const Decision d = s.choose({});
    const Outcome o = loop.run(d);
    s.observe(d, o);
    arms.push_back(d.arm);
    if (total_ms) *total_ms += o.time_ns / 1e6;
  }
  return arms;
}

// The first instance is a warm-up (not learned from), so the first arm runs
// twice; then every other arm once, then the first again (its first trial
// may have been cold).
TEST(AutoSelector, SweepsEveryArmOnceAfterTheWarmUp) {
  autosched::detail::AutoSelector s(5, AutoConfig{});
  const auto arms = drive(s, {{14, 11, 12, 13, 10}}, 7);
  EXPECT_EQ(arms, (std::vector<int>{0, 0, 1, 2, 3, 4, 0}));
  EXPECT_FALSE(s.sweeping());
  autosched::detail::AutoSelector no_warmup(5, AutoConfig{.warmup = 0});
  EXPECT_EQ(drive(no_warmup, {{14, 11, 12, 13, 10}}, 6), (std::vector<int>{0, 1, 2, 3, 4, 0}));
}

// Two cold instances (thread creation, then page faults) hit the first arm,
// the best one: the re-check after the sweep brings it back.
TEST(AutoSelector, TheFirstArmIsCheckedAgainAfterTheSweep) {
  autosched::detail::AutoSelector s(3, AutoConfig{});
  const Loop loop{{10, 12, 13}};
  for (int k = 0; k < 2; ++k) {
    const Decision d = s.choose({});
    ASSERT_EQ(d.arm, 0);
    s.observe(d, took(300e6));
  }
  const auto arms = drive(s, loop, 50);
  EXPECT_EQ(s.best_arm(), 0);
  EXPECT_GE(std::count(arms.begin() + 5, arms.end(), 0), 43);
}

// A cold first instance (thread creation, page faults: 100× the steady
// cost) does not make the best arm look bad.
TEST(AutoSelector, IgnoresTheColdFirstInstance) {
  autosched::detail::AutoSelector s(3, AutoConfig{});
  const Decision cold = s.choose({});
  ASSERT_EQ(cold.arm, 0);
  s.observe(cold, took(1000e6));
  drive(s, {{10, 12, 13}}, 40);
  EXPECT_EQ(s.best_arm(), 0);
  EXPECT_FALSE(s.retired(1));  // its budget came from arm 0's real cost
}

// One preempted instance (50× its cost) moves an arm's estimate by at most
// clip × its mean, so the best arm stays best.
TEST(AutoSelector, ClipsAnOutlierInsteadOfAbandoningTheBestArm) {
  autosched::detail::AutoSelector clipped(2, AutoConfig{});
  autosched::detail::AutoSelector unclipped(2, AutoConfig{.clip = 0});
  for (autosched::detail::AutoSelector* x : {&clipped, &unclipped}) {
    drive(*x, {{10, 12}}, 30);
    ASSERT_EQ(x->best_arm(), 0);
    x->observe(Decision{0}, took(500e6));
  }
  EXPECT_EQ(clipped.best_arm(), 0);
  EXPECT_EQ(unclipped.best_arm(), 1);
}

// A catastrophic arm's trial is cut at guard × best and the arm retired.
TEST(AutoSelector, GuardCutsACatastrophicTrialAndRetiresTheArm) {
  autosched::detail::AutoSelector s(3, AutoConfig{});
  double total = 0;
  const auto arms = drive(s, {{10, 1000, 11}}, 100, &total);
  EXPECT_TRUE(s.retired(1));
  EXPECT_EQ(std::count(arms.begin(), arms.end(), 1), 1);
  // The trial cost 2 × 10 (budget) + (1 − 20/1000) × 10 ≈ 29.8 ms, not 1000.
  EXPECT_LT(total, 100 * 11.0 + 30.0);
}

TEST(AutoSelector, ConvergesOnAPlantedOptimum) {
  autosched::detail::AutoSelector s(6, AutoConfig{});
  const auto arms = drive(s, {{13, 12, 10, 11, 12.5, 14}}, 300);
  const auto late = std::count(arms.begin() + 100, arms.end(), 2);
  EXPECT_GE(late, 195);  // at least 97.5% of the last 200 on the best arm
  EXPECT_EQ(s.best_arm(), 2);
}

// The best arm slows down: the change is detected and the selector moves.
TEST(AutoSelector, DetectsAChangeAndMovesToTheNewBest) {
  autosched::detail::AutoSelector s(4, AutoConfig{});
  drive(s, {{10, 12, 13, 14}}, 100);
  ASSERT_EQ(s.best_arm(), 0);
  const auto arms = drive(s, {{20, 12, 13, 14}}, 100);
  EXPECT_GE(s.changes_detected(), 1);
  EXPECT_EQ(s.best_arm(), 1);
  EXPECT_GE(std::count(arms.begin() + 50, arms.end(), 1), 45);
}

// A second run resumes from the first's state: no sweep, best arm at once.
TEST(AutoSelector, WarmStartSkipsTheSweep) {
  autosched::detail::AutoSelector first(5, AutoConfig{});
  drive(first, {{13, 12, 10, 11, 14}}, 80);
  const std::string state = first.save_state();
  ASSERT_FALSE(state.empty());
  autosched::detail::AutoSelector second(5, AutoConfig{});
  ASSERT_TRUE(second.load_state(state));
  EXPECT_FALSE(second.sweeping());
  const Decision d = second.choose({});
  EXPECT_EQ(d.arm, 2);
  EXPECT_FALSE(d.exploring);
  autosched::detail::AutoSelector other(6, AutoConfig{});
  EXPECT_FALSE(other.load_state(state));  // other portfolio size
  autosched::detail::AutoSelector fresh(5, AutoConfig{});
  EXPECT_TRUE(fresh.save_state().empty());  // nothing settled yet
}

// A run that ended in the middle of its sweep still leaves what it measured;
// the next run exploits the best of it and sweeps only the arms not reached.
TEST(AutoSelector, WarmStartFinishesAnUnfinishedSweep) {
  autosched::detail::AutoSelector first(5, AutoConfig{});
  drive(first, {{14, 11, 10, 13, 12}}, 4);  // warm-up, arms 0, 1, 2
  ASSERT_TRUE(first.sweeping());
  const std::string state = first.save_state();
  ASSERT_FALSE(state.empty());
  autosched::detail::AutoSelector second(5, AutoConfig{});
  ASSERT_TRUE(second.load_state(state));
  const auto arms = drive(second, {{14, 11, 10, 13, 12}}, 3);
  EXPECT_EQ(arms, (std::vector<int>{2, 3, 4}));  // the best so far, then the arms not reached
}

// An arm whose first real trial was inflated 100× (still cold) is not written
// off: one sample far below its mean replaces the inflated ones.
TEST(AutoSelector, ASampleFarBelowTheMeanReplacesInflatedOnes) {
  autosched::detail::AutoSelector s(2, AutoConfig{.warmup = 0});
  s.observe(s.choose({}), took(1000e6));  // arm 0, cold
  s.observe(s.choose({}), took(20e6));    // arm 1
  ASSERT_EQ(s.best_arm(), 1);
  s.observe(Decision{0}, took(10e6));
  EXPECT_EQ(s.best_arm(), 0);
  const auto arms = drive(s, {{10, 20}}, 50);
  EXPECT_GE(std::count(arms.begin(), arms.end(), 0), 48);
}

// The best arm is overtaken without a change alarm (a rival's estimate
// improves by sampling), then the new best slows down: the change test has
// moved to it and catches the slowdown.
TEST(AutoSelector, TheChangeTestFollowsTheBestArm) {
  autosched::detail::AutoSelector s(2, AutoConfig{});
  drive(s, {{100, 104}}, 100);  // arm 0 is best and settles: the test watches it
  ASSERT_EQ(s.best_arm(), 0);
  drive(s, {{100, 60}}, 300);  // sampling finds arm 1 faster now; arm 0 did not change
  ASSERT_EQ(s.best_arm(), 1);
  ASSERT_EQ(s.changes_detected(), 0);
  const auto arms = drive(s, {{100, 400}}, 100);
  EXPECT_GE(s.changes_detected(), 1);
  EXPECT_EQ(s.best_arm(), 0);
  // Four slow samples raise the alarm; the new sweep tries arm 1 once more.
  EXPECT_LE(std::count(arms.begin(), arms.end(), 1), 8);
}

// A state that no run could have written is refused, not loaded.
TEST(AutoSelector, RefusesImpossibleStates) {
  autosched::detail::AutoSelector s(2, AutoConfig{});
  EXPECT_TRUE(s.load_state("auto3 2 5 10 1 0 5 12 1 0"));
  for (const char* bad : {"auto3 2 5 10 -1 0 5 12 1 0", "auto3 2 -5 10 1 0 5 12 1 0", "auto3 2 5 nan 1 0 5 12 1 0",
                          "auto3 2 5 0 1 0 5 12 1 0", "auto3 2 5 10 1 0 5 12 1 0 extra", "auto3 2 5 10 1 0",
                          "auto3 2 0 3 0 0 0 0 0 0", "auto2 2 5 10 1 0 5 12 1 0",
                          // counts no run reaches: the next sample would overflow near 2^63
                          "auto3 2 9223372036854775000 10 1 0 5 12 1 0", "auto3 2 281474976710657 10 1 0 5 12 1 0"}) {
    autosched::detail::AutoSelector fresh(2, AutoConfig{});
    EXPECT_FALSE(fresh.load_state(bad)) << bad;
    EXPECT_TRUE(fresh.sweeping()) << bad;
  }
}

// A second run that is uniformly slower (a busier node) keeps exploiting; a
// change within that run is still detected.
TEST(AutoSelector, WarmStartJudgesChangesAgainstThisRun) {
  autosched::detail::AutoSelector first(3, AutoConfig{});
  drive(first, {{10, 13, 14}}, 80);
  autosched::detail::AutoSelector second(3, AutoConfig{});
  ASSERT_TRUE(second.load_state(first.save_state()));
  const auto arms = drive(second, {{15, 19.5, 21}}, 60);
  EXPECT_EQ(second.changes_detected(), 0);
  EXPECT_GE(std::count(arms.begin(), arms.end(), 0), 54);  // rivals get a look as the level moves
  drive(second, {{30, 19.5, 21}}, 60);
  EXPECT_GE(second.changes_detected(), 1);
  EXPECT_EQ(second.best_arm(), 1);
}

// Even among near-tied arms, where sampling often picks a rival, the first
// instance after a warm start runs the stored best arm.
TEST(AutoSelector, WarmStartExploitsAtTheFirstInstance) {
  autosched::detail::AutoSelector first(4, AutoConfig{});
  drive(first, {{10.0, 10.1, 10.2, 10.15}}, 60);
  const int best = first.best_arm();
  const std::string state = first.save_state();
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    autosched::detail::AutoSelector second(4, AutoConfig{.seed = seed});
    ASSERT_TRUE(second.load_state(state));
    const Decision d = second.choose({});
    EXPECT_EQ(d.arm, best) << "seed " << seed;
    EXPECT_FALSE(d.exploring);
  }
}

/// Arms `ms` with 2% Gaussian noise (a fixed stream): how often the arm
/// changes from one instance to the next over instances 200-399, and how
/// many of them ran `arm`.
struct NoisyRun {
  int switches = 0, on_arm = 0;
};
NoisyRun noisy_run(AutoConfig config, const std::vector<double>& ms, int arm) {
  autosched::detail::AutoSelector s(static_cast<int>(ms.size()), config);
  SplitMix64 noise(42);
  NoisyRun r;
  int last = -1;
  for (int k = 0; k < 400; ++k) {
    const Decision d = s.choose({});
    s.observe(d, took(ms[static_cast<std::size_t>(d.arm)] * 1e6 * (1.0 + 0.02 * sum_of_twelve_normal(noise))));
    if (k >= 200) {
      r.switches += d.arm != last;
      r.on_arm += d.arm == arm;
    }
    last = d.arm;
  }
  return r;
}

// Three arms within 0.5% of each other (less than a tie): once each has
// many samples, plain Thompson sampling keeps drawing them in turn, while
// `stick` keeps the best-measured one and switches rarely.
TEST(AutoSelector, SticksToTheBestOfArmsWithinATie) {
  const std::vector<double> ms{10.0, 10.03, 10.05};
  AutoConfig plain;
  plain.stick = false;
  const NoisyRun sticky = noisy_run(AutoConfig{}, ms, 0), mixing = noisy_run(plain, ms, 0);
  EXPECT_LE(sticky.switches, 10);
  EXPECT_GE(mixing.switches, 40);
  EXPECT_LT(sticky.switches * 4, mixing.switches);
}

// An arm better by more than a tie (2%) is still found and kept with `stick`.
TEST(AutoSelector, StickStillFindsAnArmBetterByMoreThanATie) {
  const NoisyRun r = noisy_run(AutoConfig{}, {10.2, 10.0, 10.25}, 1);
  EXPECT_GE(r.on_arm, 190);  // at least 95% of instances 200-399
}

}  // namespace
}  // namespace autosched
