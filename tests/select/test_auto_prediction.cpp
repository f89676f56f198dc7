// `auto` with loop arms: it profiles first, ranks every arm by simulation,
// tries only the shortlist (the planted best first), and a warm start on
// the same loop explores nothing. Deterministic: outcomes are computed, and
// the trace-driven scenarios are the select-sim ones.
#include <autosched/core/error.hpp>
#include <autosched/select/selectors/auto/arm_ranking.hpp>
#include <autosched/select/selectors/auto/auto_selector.hpp>
#include <select_sim/profile_scenario.hpp>
#include <autosched/select/grammar/selector_config.hpp>
#include <select_sim/simulation.hpp>
#include <autosched/techniques/loop_simulator.hpp>

#include "auto_test_support.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace autosched {
namespace {

using testing::arm;
using testing::four_arms;
using testing::heavy_head;
using testing::measured;
using testing::profile_first;

TEST(AutoPrediction, ProfilesFirstThenRunsThePlantedBestArm) {
  autosched::detail::AutoSelector s(four_arms(), profile_first());
  const Context context{4096, 4, {}};
  const Decision first = s.choose(context);
  EXPECT_TRUE(first.profile);
  EXPECT_TRUE(first.exploring);
  const CostProfile profile = heavy_head();
  s.observe(first, measured(1e6, &profile));

  ASSERT_EQ(s.predicted().size(), 4u);
  const auto best = std::min_element(s.predicted().begin(), s.predicted().end()) - s.predicted().begin();
  EXPECT_EQ(best, 3);  // ss:16
  ASSERT_FALSE(s.shortlist().empty());
  EXPECT_EQ(s.shortlist().front(), 3);
  EXPECT_GT(s.last_ranking_ns(), 0);

  const Decision next = s.choose(context);
  EXPECT_FALSE(next.profile);
  EXPECT_EQ(next.arm, 3);
  EXPECT_FALSE(next.exploring);  // the prediction, not a trial
}

/// heavy_head() as a cold first instance may measure it: every block paid
/// the same extra (page faults, a slow clock), which flattens the head, so
/// the ranking no longer sees that only small chunks spread it.
CostProfile cold_heavy_head() {
  std::vector<double> blocks = heavy_head().block_ns();
  for (double& b : blocks) b += 64 * 100 * 400;
  return CostProfile::from_blocks(4096, blocks, 5);
}

/// Profiles with `cold`, then runs the first trial at `ratio` × its
/// prediction; returns that trial's arm.
int first_trial(autosched::detail::AutoSelector& s, const CostProfile& cold, double ratio) {
  const Context context{4096, 4, {}};
  s.observe(s.choose(context), measured(1e6, &cold));
  const Decision trial = s.choose(context);
  EXPECT_FALSE(trial.profile);
  s.observe(trial, measured(ratio * s.predicted()[static_cast<std::size_t>(trial.arm)]));
  return trial.arm;
}

TEST(AutoPrediction, AFirstTrialFarBelowItsPredictionProfilesAgain) {
  const CostProfile warm = heavy_head();
  const CostProfile cold = cold_heavy_head();
  const std::vector<double> cold_ranking = predict_arms_robust(four_arms(), cold, 4, 0.05);
  ASSERT_NE(std::min_element(cold_ranking.begin(), cold_ranking.end()) - cold_ranking.begin(), 3)
      << "the test needs a cold profile that ranks another arm before ss:16";
  autosched::detail::AutoSelector s(four_arms(), profile_first());
  const int tried = first_trial(s, cold, 0.1);
  EXPECT_NE(tried, 3);
  const Context context{4096, 4, {}};
  const Decision again = s.choose(context);
  ASSERT_TRUE(again.profile);
  EXPECT_TRUE(again.exploring);
  s.observe(again, measured(1e6, &warm));
  // Ranked on the lower envelope of both, which is the warm profile here.
  EXPECT_EQ(s.predicted(), predict_arms_robust(four_arms(), warm, 4, 0.05));
  const Decision next = s.choose(context);
  EXPECT_FALSE(next.profile);
  EXPECT_EQ(next.arm, 3);  // ss:16, the planted best
  // Once per process: a first trial far below its prediction again is a sample.
  s.observe(next, measured(0.1 * s.predicted()[3]));
  EXPECT_FALSE(s.choose(context).profile);
}

TEST(AutoPrediction, AFirstTrialNearItsPredictionKeepsTheRanking) {
  autosched::detail::AutoSelector s(four_arms(), profile_first({.patience = 0}));  // trials back to back
  const std::vector<int> shortlist_before = [&] {
    const int tried = first_trial(s, heavy_head(), 0.8);
    EXPECT_EQ(tried, 3);
    return s.shortlist();
  }();
  const Decision next = s.choose(Context{4096, 4, {}});
  EXPECT_FALSE(next.profile);
  ASSERT_GE(shortlist_before.size(), 2u);
  EXPECT_EQ(next.arm, shortlist_before[1]);  // the shortlist goes on
}

TEST(AutoPrediction, AFirstTrialIsJudgedAtTheProfilesTripCount) {
  // A blocked LU's loop shrinks between its profile and its first trial:
  // at half the iterations the trial takes 0.6 of its prediction, which is
  // 1.2 per iteration, no sign of a cold profile.
  const CostProfile profile = heavy_head();
  autosched::detail::AutoSelector s(four_arms(), profile_first({.patience = 0}));
  Outcome profiled = measured(1e6, &profile);
  profiled.n = 4096;
  s.observe(s.choose(Context{4096, 4, {}}), profiled);
  const Decision trial = s.choose(Context{2048, 4, {}});
  ASSERT_FALSE(trial.profile);
  Outcome half = measured(0.6 * s.predicted()[static_cast<std::size_t>(trial.arm)]);
  half.n = 2048;
  s.observe(trial, half);
  EXPECT_FALSE(s.choose(Context{2048, 4, {}}).profile) << "the ranking stands";
  // The same time at the profile's own trip count is far below the prediction.
  autosched::detail::AutoSelector same_n(four_arms(), profile_first({.patience = 0}));
  (void)first_trial(same_n, heavy_head(), 0.6);
  EXPECT_TRUE(same_n.choose(Context{4096, 4, {}}).profile);
}

TEST(AutoPrediction, ReprofileZeroNeverProfilesAgain) {
  AutoConfig config;
  config.reprofile = 0;
  autosched::detail::AutoSelector s(four_arms(), profile_first(config));
  (void)first_trial(s, cold_heavy_head(), 0.01);
  EXPECT_FALSE(s.choose(Context{4096, 4, {}}).profile);
}

TEST(AutoPrediction, ArmsFarFromTheBestPredictionAreNeverRunBlind) {
  // Outcomes are the simulated times: arms outside the shortlist never run.
  const Portfolio arms = four_arms();
  const CostProfile profile = heavy_head();
  autosched::detail::AutoSelector s(arms, profile_first());
  const Context context{4096, 4, {}};
  std::vector<int> runs(arms.size(), 0);
  int exploring = 0;
  for (int t = 0; t < 100; ++t) {
    const Decision d = s.choose(context);
    exploring += d.exploring ? 1 : 0;
    if (d.profile) {
      s.observe(d, measured(1e6, &profile));
      continue;
    }
    ++runs[static_cast<std::size_t>(d.arm)];
    s.observe(d, measured(simulate_loop(profile, arms[static_cast<std::size_t>(d.arm)], {.workers = 4}).time_ns));
  }
  const std::vector<int>& shortlist = s.shortlist();
  for (std::size_t a = 0; a < arms.size(); ++a) {
    const bool listed = std::find(shortlist.begin(), shortlist.end(), static_cast<int>(a)) != shortlist.end();
    if (!listed) {
      EXPECT_EQ(runs[a], 0) << arms[a].label();
    }
  }
  EXPECT_EQ(s.best_arm(), 3);
  EXPECT_GE(runs[3], 95);
  EXPECT_LE(exploring, 2);  // the profile and the second-best's one trial
}

/// Runs the profile and the shortlist's trials, each trial measuring
/// `ratio(k)` × its prediction; returns the next choice.
Decision after_trials(autosched::detail::AutoSelector& s, const CostProfile& profile, double first_ratio, double second_ratio) {
  const Context context{4096, 4, {}};
  s.observe(s.choose(context), measured(1e6, &profile));
  for (std::size_t k = 0; k < s.shortlist().size(); ++k) {
    const Decision d = s.choose(context);
    const double ratio = k == 0 ? first_ratio : second_ratio;
    s.observe(d, measured(ratio * s.predicted()[static_cast<std::size_t>(d.arm)]));
  }
  return s.choose(context);
}

/// Drives `s` for `steps` instances on `arms`: the profile handed to a
/// profiling instance and every arm's time (its simulated time × `level`)
/// come from profile_at(t) and level_at(t). Returns the arms run, -1 for a
/// profiling instance, and counts the explored instances from `from` on.
template <class Profile, class Level>
std::vector<int> drive_loop(autosched::detail::AutoSelector& s, const Portfolio& arms, int steps, Profile profile_at, Level level_at,
                            int from, int& explored_after) {
  std::vector<int> ran;
  explored_after = 0;
  for (int t = 0; t < steps; ++t) {
    const CostProfile& profile = profile_at(t);
    const Decision d = s.choose(Context{profile.n(), 4, {}});
    if (t >= from && d.exploring) ++explored_after;
    if (d.profile) {
      s.observe(d, measured(1e6, &profile));
      ran.push_back(-1);
      continue;
    }
    const double ns = simulate_loop(profile, arms[static_cast<std::size_t>(d.arm)], {.workers = 4}).time_ns;
    s.observe(d, measured(ns * level_at(t)));
    ran.push_back(d.arm);
  }
  return ran;
}

TEST(AutoPrediction, AChangeOfTheProcessesLevelIsProfiledOnceAndTriesNothing) {
  // The whole process runs 25% slower from step 100 (a busy node): the
  // change test fires, one profile shows the loop's shape unchanged, and the
  // best arm runs on; nothing is tried again.
  const Portfolio arms = four_arms();
  const CostProfile profile = heavy_head();
  autosched::detail::AutoSelector s(arms, profile_first());
  int explored = 0;
  const std::vector<int> ran = drive_loop(
      s, arms, 200, [&](int) -> const CostProfile& { return profile; },
      [](int t) { return t < 100 ? 1.0 : 1.25; }, 100, explored);
  EXPECT_GE(s.changes_detected(), 1);
  EXPECT_EQ(explored, 1);  // the profile
  for (std::size_t t = 110; t < ran.size(); ++t) EXPECT_EQ(ran[t], 3) << t;
  EXPECT_EQ(s.best_arm(), 3);
}

TEST(AutoPrediction, AChangeOfTheLoopsShapeRanksAndTriesAgain) {
  // From step 100 the loop is uniform and 20× costlier per iteration: the
  // alarm's profile has another shape, so the samples go and the new
  // ranking's best (a plain static split) takes over.
  const Portfolio arms = four_arms();
  const CostProfile head = heavy_head();
  const CostProfile flat = CostProfile::uniform(4096, 2000.0, 5);
  autosched::detail::AutoSelector s(arms, profile_first());
  int explored = 0;
  const std::vector<int> ran = drive_loop(
      s, arms, 200, [&](int t) -> const CostProfile& { return t < 100 ? head : flat; }, [](int) { return 1.0; }, 100,
      explored);
  EXPECT_GE(s.changes_detected(), 1);
  EXPECT_GE(explored, 1);
  const auto flat_times = predict_arms(arms, flat, 4);
  const int flat_best = static_cast<int>(std::min_element(flat_times.begin(), flat_times.end()) - flat_times.begin());
  EXPECT_NE(flat_best, 3);
  EXPECT_EQ(s.best_arm(), flat_best);
  EXPECT_EQ(ran.back(), flat_best);
}

TEST(AutoPrediction, AnUntriedArmRunsOnlyWhenTheSimulatorsErrorsDifferWidely) {
  const Portfolio arms{arm("static"), arm("gss"), arm("fac2"), arm("ss:16"), arm("ss:64")};
  const CostProfile profile = heavy_head();
  {
    // The simulator was right: nothing beyond the shortlist runs.
    autosched::detail::AutoSelector s(arms, profile_first({.patience = 0}));  // trials back to back
    const Decision next = after_trials(s, profile, 1.0, 1.0);
    const auto& list = s.shortlist();
    EXPECT_NE(std::find(list.begin(), list.end(), next.arm), list.end());
  }
  {
    // The two trials measured 1× and 1000× their predictions: the simulator's
    // errors on this loop are so unlike that the next prediction may win.
    autosched::detail::AutoSelector s(arms, profile_first({.patience = 0}));
    const Decision next = after_trials(s, profile, 1.0, 1000.0);
    const auto& list = s.shortlist();
    EXPECT_EQ(std::find(list.begin(), list.end(), next.arm), list.end()) << next.arm;
    EXPECT_TRUE(next.exploring);
  }
}

TEST(AutoPrediction, TiesGoToFewerDispatches) {
  EXPECT_EQ(rank_by({5, 3, 3, 7}), (std::vector<int>{1, 2, 0, 3}));
  const std::vector<std::int64_t> dispatches{1, 90, 40, 1};
  EXPECT_EQ(rank_by({5, 3, 3, 7}, dispatches), (std::vector<int>{2, 1, 0, 3}));
}

TEST(AutoPrediction, ARobustPredictionChargesStaticForASlowWorker) {
  // A balanced loop: 1000 iterations of 1 µs, no overhead. On two perfect
  // workers static takes 500 µs. With one worker 10% slow (either one)
  // static waits for its 500 µs at speed 0.9, 555.6 µs; ss:10 shares the
  // 1000 µs out at the team's speed 1.9, about 526 µs.
  const CostProfile flat = CostProfile::uniform(1000, 1000.0, 0.0, 100);
  const Portfolio arms{arm("static"), arm("ss:10")};
  const std::vector<double> plain = predict_arms(arms, flat, 2);
  EXPECT_NEAR(plain[0], 500e3, 1);
  EXPECT_NEAR(plain[1], 500e3, 1);
  const std::vector<double> robust = predict_arms_robust(arms, flat, 2, 0.10);
  EXPECT_NEAR(robust[0], 500e3 / 0.9, 1);
  EXPECT_NEAR(robust[1], 1000e3 / 1.9, 6e3);  // within a chunk (10 µs at 0.9) of the fluid share
  EXPECT_LT(robust[1], robust[0] * 0.96);
  // No jitter, or one worker: the plain prediction.
  EXPECT_EQ(predict_arms_robust(arms, flat, 2, 0.0), plain);
  EXPECT_EQ(predict_arms_robust(arms, flat, 1, 0.10), predict_arms(arms, flat, 1));
}

TEST(AutoPrediction, OnABalancedLoopStaticIsNotTriedFirst) {
  // Perfect workers tie static with every dynamic arm on a balanced loop,
  // and the tie goes to its two dispatches; real threads lose time, so the
  // default ranking (jitter 0.05) puts the dynamic arms first.
  const Portfolio arms{arm("static"), arm("gss"), arm("ss:16")};
  const CostProfile flat = CostProfile::uniform(4096, 1000.0, 5.0, 64);
  const Context context{4096, 2, {}};
  for (const double jitter : {0.0, 0.05}) {
    autosched::detail::AutoSelector s(arms, profile_first({.jitter = jitter}));
    const Decision first = s.choose(context);
    ASSERT_TRUE(first.profile);
    s.observe(first, measured(2.1e6, &flat));
    ASSERT_FALSE(s.shortlist().empty());
    if (jitter == 0.0) {
      EXPECT_EQ(s.shortlist().front(), 0) << "perfect workers: static ties and has the fewest dispatches";
    } else {
      EXPECT_NE(s.shortlist().front(), 0);
      EXPECT_GT(s.predicted()[0], 1.01 * s.predicted()[static_cast<std::size_t>(s.shortlist().front())]);
    }
  }
}

TEST(AutoPrediction, WhereDispatchesQueueChunksBelowACoarseUnitCount) {
  // 10^5 iterations on 200 workers: a coarse unit is 32 iterations, so
  // fac2 with a minimum chunk of 8 or of 16 would be the same simulation.
  // Where every dispatch waits at rank 0 the tail of small chunks matters,
  // and the process level simulates single iterations.
  const Portfolio arms{arm("fac2:8"), arm("fac2:16")};
  CostProfile profile = CostProfile::uniform(100000, 1000.0, 0);
  std::vector<std::int64_t> dispatches;
  const std::vector<double> threads = predict_arms(arms, profile, 200, {}, &dispatches);
  EXPECT_DOUBLE_EQ(threads[0], threads[1]);
  EXPECT_EQ(dispatches[0], dispatches[1]);
  profile.set_dispatch_queues(12000, 6000);
  const std::vector<double> ranks = predict_arms(arms, profile, 200, {}, &dispatches);
  EXPECT_GT(dispatches[0], dispatches[1]);
  EXPECT_GT(ranks[0], ranks[1]);
}

TEST(AutoPrediction, ATriedArmCloseToTheBestGetsASecondLook) {
  // ss:16 and fsc:16 are predicted equal on the heavy head, far ahead of fac2
  // and static, and both are tried. Measured 1× and 1.1× the prediction,
  // one sample cannot tell a noisy arm's unlucky instance from its level,
  // so the slower one runs once more before sampling starts; at 1.5×
  // (beyond twice the trial margin) it does not.
  for (const double second : {1.10, 1.50}) {
    autosched::detail::AutoSelector s({arm("static"), arm("fac2"), arm("fsc:16"), arm("ss:16")}, profile_first({.max_trials = 2, .patience = 0}));
    const CostProfile profile = heavy_head();
    const Context context{4096, 4, {}};
    s.observe(s.choose(context), measured(1e6, &profile));
    ASSERT_EQ(s.shortlist().size(), 2u);
    const Decision a = s.choose(context);
    const double predicted = s.predicted()[static_cast<std::size_t>(a.arm)];
    s.observe(a, measured(predicted));
    const Decision b = s.choose(context);
    s.observe(b, measured(second * predicted));
    const Decision next = s.choose(context);
    if (second < 1.2) {
      EXPECT_EQ(next.arm, b.arm);
      EXPECT_TRUE(next.exploring);
    } else {
      EXPECT_EQ(next.arm, a.arm);
    }
  }
}

TEST(AutoPrediction, TheShortlistTriesOneArmPerTechniqueFirst) {
  // ss:8, ss:16 and fsc:16 are predicted equal on the heavy head: the first
  // trials go to ss:16 (fewest dispatches of the ss arms) and fsc:16, not to
  // a second chunk of ss, whose prediction shares the first one's errors.
  const Portfolio arms{arm("static"), arm("ss:8"), arm("ss:16"), arm("fsc:16")};
  const CostProfile profile = heavy_head();
  AutoConfig two;
  two.max_trials = 2;
  autosched::detail::AutoSelector s(arms, profile_first(two));
  s.observe(s.choose({4096, 4, {}}), measured(1e6, &profile));
  EXPECT_EQ(s.shortlist(), (std::vector<int>{2, 3}));
  // With trials left over (four by default) the other variant within the
  // margin gets one, after the arms it ranks behind; static, far outside the
  // margin, does not.
  autosched::detail::AutoSelector t(arms, profile_first());
  t.observe(t.choose({4096, 4, {}}), measured(1e6, &profile));
  EXPECT_EQ(t.shortlist(), (std::vector<int>{2, 3, 1}));
}

TEST(AutoPrediction, WithoutAProfileItSweeps) {
  // A front-end that cannot profile returns no profile: every arm is tried.
  autosched::detail::AutoSelector s(four_arms(), profile_first());
  const Context context{4096, 4, {}};
  const Decision first = s.choose(context);
  ASSERT_TRUE(first.profile);
  s.observe(first, measured(1e6));
  std::vector<int> seen;
  for (int t = 0; t < 4; ++t) {
    const Decision d = s.choose(context);
    EXPECT_FALSE(d.profile);
    seen.push_back(d.arm);
    s.observe(d, measured(1e6 + 1e5 * d.arm));
  }
  EXPECT_EQ(seen, (std::vector<int>{0, 1, 2, 3}));
}

TEST(AutoPrediction, TooSmallALoopIsNotProfiledAndRunsStatic) {
  autosched::detail::AutoSelector s(four_arms(), profile_first());
  const Context tiny{3, 4, {}};
  for (int i = 0; i < 10; ++i) {
    const Decision d = s.choose(tiny);
    EXPECT_FALSE(d.profile);
    EXPECT_EQ(d.arm, 0) << "static: no sweep of the portfolio for 3 iterations on 4 workers";
    s.observe(d, measured(1e3));
  }
}

SelectorConfig auto_config() { return parse_selector("auto", "test"); }

TEST(AutoPrediction, TraceDrivenScenarioCostsAndProfile) {
  const CostProfile profile = heavy_head();
  const Scenario s = profile_scenario("head@4", profile, {.workers = 4, .steps = 50}, four_arms());
  ASSERT_EQ(s.arms.size(), 4u);
  EXPECT_DOUBLE_EQ(s.arms[3].time_ms.start, simulate_loop(profile, arm("ss:16"), {.workers = 4}).time_ns / 1e6);
  EXPECT_GT(s.profiling_ms, 0);
  ASSERT_TRUE(s.profile.has_value());
  EXPECT_EQ(s.iterations, 4096);
}

TEST(AutoPrediction, ColdRunOnAProfileScenarioExploresLittle) {
  const Scenario s = profile_scenario("head@4", heavy_head(), {.workers = 4, .steps = 200}, auto_portfolio());
  const SimulationResult r = simulate(s, auto_config(), 7);
  EXPECT_LE(r.exploration_share, 0.05);
  EXPECT_LT(r.regret_vs_fixed_pct(), 5.0);
}

TEST(AutoPrediction, WarmStartOnTheSameLoopExploresNothing) {
  const Scenario s = profile_scenario("head@4", heavy_head(), {.workers = 4, .steps = 200}, auto_portfolio());
  const SimulationResult cold = simulate(s, auto_config(), 7);
  ASSERT_FALSE(cold.state.empty());
  const SimulationResult warm = simulate(s, auto_config(), 8, 0, cold.state);
  EXPECT_EQ(warm.exploration_share, 0.0);
  EXPECT_LT(warm.regret_vs_fixed_pct(), 1.0);
  // It ran the cold run's best (the arm its second half ran most; its last
  // draw may be a Thompson draw of another) from the first step on.
  std::map<int, int> runs;
  for (std::size_t i = cold.choices.size() / 2; i < cold.choices.size(); ++i) ++runs[cold.choices[i]];
  const auto most = std::max_element(runs.begin(), runs.end(), [](auto x, auto y) { return x.second < y.second; });
  EXPECT_EQ(warm.choices.front(), most->first);
}

TEST(AutoPrediction, WarmStartInAProcessAtAnotherLevelStillExploits) {
  // The same loop in a process 15% slower (or faster) than the one that
  // filled the store: the stored best's first instances miss the stored
  // level, so the loop is profiled (one explored step); the profile has the
  // stored shape, so the stored best runs on and nothing is tried (a
  // comparison of levels alone took it for another loop, ranked and tried).
  const Scenario stored = profile_scenario("head", heavy_head(), {.workers = 4, .steps = 200}, auto_portfolio());
  const SimulationResult cold = simulate(stored, auto_config(), 7);
  for (const double level : {1.15, 0.85}) {
    const Scenario now =
        profile_scenario("head", heavy_head().scaled(level), {.workers = 4, .steps = 200}, auto_portfolio());
    const SimulationResult warm = simulate(now, auto_config(), 8, 0, cold.state);
    EXPECT_LE(warm.exploration_share, 1.0 / 200) << level;
    EXPECT_LT(warm.regret_vs_fixed_pct(), 1.0) << level;
    // No trial: every arm it runs is one the stored run had measured.
    for (const int arm : warm.choices) {
      EXPECT_NE(std::find(cold.choices.begin(), cold.choices.end(), arm), cold.choices.end()) << level;
    }
  }
}

/// A stored state by hand over four_arms(): (count, mean) per arm, with the
/// predictions of `profile` at 4 workers.
std::string stored_state(const CostProfile& profile, const std::vector<std::pair<int, double>>& samples) {
  const std::vector<double> predicted = predict_arms(four_arms(), profile, 4);
  std::ostringstream state;
  state.precision(17);
  state << "auto4 4";
  for (std::size_t a = 0; a < 4; ++a) {
    state << ' ' << samples[a].first << ' ' << samples[a].second << " 0 0 " << predicted[a];
  }
  return state.str();
}

/// Runs the stored best for the warm-up and the `verify` instances at `ns`.
void verify_at(autosched::detail::AutoSelector& s, const Context& context, int stored_best, double ns) {
  for (int k = 0; k < 4; ++k) {
    const Decision d = s.choose(context);
    EXPECT_EQ(d.arm, stored_best);
    EXPECT_FALSE(d.exploring);
    EXPECT_FALSE(d.profile);
    s.observe(d, measured(ns));
  }
}

TEST(AutoPrediction, WarmStartMovesTheStoredSamplesToThisProcesssLevel) {
  // The best arm (ss:16) stored at T over 50 instances, a runner-up (fac2)
  // 2% behind over 3. This process runs the best at 1.2 T: the level
  // misses, the profile has the stored shape, so every stored mean becomes
  // 1.2 × what it was (the runner-up stays 2% behind instead of looking 15%
  // ahead) and the three instances join the best's samples.
  const CostProfile profile = heavy_head();
  const double t = 1e6;
  autosched::detail::AutoSelector warm(four_arms(), profile_first());
  ASSERT_TRUE(warm.load_state(stored_state(profile, {{0, 0}, {0, 0}, {3, 1.02 * t}, {50, t}})));
  const Context context{4096, 4, {}};
  verify_at(warm, context, 3, 1.2 * t);
  const Decision profiling = warm.choose(context);
  EXPECT_TRUE(profiling.profile);
  EXPECT_TRUE(profiling.exploring);
  warm.observe(profiling, measured(3e6, &profile));
  EXPECT_TRUE(warm.shortlist().empty());  // the stored loop: no trials
  std::istringstream saved(warm.save_state());
  std::string tag;
  int n = 0;
  long instances = 0, pending = -1;
  ASSERT_TRUE(saved >> tag >> n >> instances >> pending);
  EXPECT_EQ(tag, "auto5");
  EXPECT_EQ(pending, 0);  // no trial left for the next run
  std::vector<double> means(4), counts(4);
  for (std::size_t a = 0; a < 4; ++a) {
    double m2 = 0, p = 0;
    int retired = 0;
    ASSERT_TRUE(saved >> counts[a] >> means[a] >> m2 >> retired >> p);
  }
  EXPECT_NEAR(means[2], 1.2 * 1.02 * t, 1e-6 * t);
  EXPECT_NEAR(means[3], 1.2 * t, 1e-6 * t);
  EXPECT_EQ(counts[3], 53);
  EXPECT_EQ(counts[2], 3);
  const Decision next = warm.choose(context);
  EXPECT_EQ(next.arm, 3);
  EXPECT_FALSE(next.profile);
}

TEST(AutoPrediction, WarmStartWhoseStoredBestIsNowPredictedPoorlyRanksAgain) {
  // Static stored as the best, at another level now, and far from the best
  // prediction on this profile: not the stored loop, whatever its samples.
  const CostProfile profile = heavy_head();
  autosched::detail::AutoSelector warm(four_arms(), profile_first());
  ASSERT_TRUE(warm.load_state(stored_state(profile, {{20, 1e6}, {0, 0}, {0, 0}, {0, 0}})));
  const Context context{4096, 4, {}};
  verify_at(warm, context, 0, 2e6);
  const Decision profiling = warm.choose(context);
  ASSERT_TRUE(profiling.profile);
  warm.observe(profiling, measured(3e6, &profile));
  ASSERT_FALSE(warm.shortlist().empty());
  EXPECT_EQ(warm.choose(context).arm, 3);  // the ranking's best, not the stored one
  EXPECT_EQ(warm.best_arm(), -1);          // the stored samples are gone
}

TEST(AutoPrediction, WarmStartOnAnotherLoopProfilesAndRanksAgain) {
  const Scenario head = profile_scenario("head", heavy_head(), {.workers = 4, .steps = 200}, auto_portfolio());
  // The same portfolio on a uniform, 10× costlier loop: the stored times do
  // not match, so the run profiles instead of trusting the store.
  const Scenario flat =
      profile_scenario("flat", CostProfile::uniform(4096, 1000.0, 5), {.workers = 4, .steps = 200}, auto_portfolio());
  const SimulationResult cold = simulate(head, auto_config(), 7);
  const SimulationResult warm = simulate(flat, auto_config(), 8, 0, cold.state);
  EXPECT_LE(warm.exploration_share, 0.05);
  EXPECT_LT(warm.regret_vs_fixed_pct(), 5.0);
}

}  // namespace
}  // namespace autosched

namespace autosched {
namespace {

TEST(ProfileScenarios, PublishedSelectorsRunTheirOwnTwelveArms) {
  // auto_portfolio() is Auto4OMP's 12 then the same with expChunk: ExhaustiveSel
  // only ever runs the first 12, ExhaustiveSel+exp only the last 12.
  const Scenario s = profile_scenario("head", heavy_head(), {.workers = 4, .steps = 60}, auto_portfolio());
  for (const int arm : simulate(s, parse_selector("auto:exhaustive", "test"), 1).choices) EXPECT_LT(arm, 12);
  for (const int arm : simulate(s, parse_selector("auto:exhaustive,chunk=expert", "test"), 1).choices) {
    EXPECT_GE(arm, 12);
  }
}

TEST(ProfileScenarios, RecordedProfilesAreReadAndAveraged) {
  const std::string text =
      "# loop, P, profile\n"
      "a\t2\t4 10 1 2 3 4\n"
      "a\t2\t4 30 3 4 5 6\n"
      "\n"
      "b\t8\t4 5 1 1 1 1\n"
      "a\t2\t8 30 3 4 5 6\n";  // another n: skipped by the average
  const std::vector<RecordedProfile> all = read_profiles(text, "t.tsv");
  ASSERT_EQ(all.size(), 4u);
  const std::vector<RecordedProfile> mean = average_profiles(all);
  ASSERT_EQ(mean.size(), 2u);
  EXPECT_EQ(mean[0].loop, "a");
  EXPECT_EQ(mean[0].profile.block_ns(), (std::vector<double>{2, 3, 4, 5}));
  EXPECT_DOUBLE_EQ(mean[0].profile.overhead_ns(), 20);
  EXPECT_EQ(mean[1].workers, 8);
  EXPECT_THROW(read_profiles("a\tzero\t4 1 1 1 1 1\n", "t.tsv"), Error);
}

}  // namespace
}  // namespace autosched
