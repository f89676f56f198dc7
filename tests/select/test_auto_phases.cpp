// `auto` on the loops of real codes (docs/design/0006-auto-on-real-codes.md):
// a loop that runs once per process is never profiled and converges across
// runs; the arms that keep each thread's iterations are measured on a
// memory-bound loop, so a measured static beats a predicted dynamic arm; a
// loop whose imbalance keeps moving settles instead of profiling at every
// swing, and one that drifts steadily is profiled less and less often; a
// warm run of a loop with two phases is never worse than a cold one; a new
// size class of a loop starts from its neighbour's. Deterministic: simulated
// costs, a virtual clock nowhere needed.
#include <autosched/select/selectors/auto/auto_selector.hpp>
#include <autosched/select/engine/decision_engine.hpp>
#include <select_sim/scenario.hpp>
#include <autosched/select/grammar/selector_config.hpp>
#include <select_sim/simulation.hpp>

#include "auto_test_support.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

namespace autosched {
namespace {

using testing::arm;
using testing::four_arms;
using testing::heavy_head;
using testing::measured;

/// One run of a loop that runs once per process: a fresh selector loads
/// `state`, runs its one instance at `cost[arm]` ms with `imbalance[arm]`
/// percent between its threads, and saves. Returns the arm it ran.
int one_run(const Portfolio& arms, std::string& state, const std::vector<double>& cost,
            const std::vector<double>& imbalance, long expect_resumed) {
  autosched::detail::AutoSelector s(arms, {});
  if (!state.empty()) {
    EXPECT_TRUE(s.load_state(state)) << state;
    EXPECT_EQ(s.resumed_instances(), expect_resumed) << "every earlier run's first instance";
  }
  const Decision d = s.choose({200000, 2, {}});
  EXPECT_FALSE(d.profile) << "a first instance is never spent profiling";
  Outcome o = measured(cost[static_cast<std::size_t>(d.arm)] * 1e6);
  o.metrics.percent_imbalance = imbalance[static_cast<std::size_t>(d.arm)];
  s.observe(d, o);
  state = s.save_state();
  EXPECT_FALSE(state.empty()) << "its outcome is kept for the next run";
  return d.arm;
}

TEST(AutoOnRealCodes, AOneInstanceLoopIsNeverProfiledAndConvergesAcrossRuns) {
  const Portfolio arms = {arm("static"), arm("static-steal"), arm("guided-llvm"), arm("ss:16")};
  // Balanced (its threads finish 1% apart): guided from the first run on,
  // no run spent trying another arm.
  std::string state;
  std::vector<int> ran;
  for (int run = 0; run < 5; ++run) ran.push_back(one_run(arms, state, {5, 6, 7, 9}, {1, 1, 1, 1}, run));
  EXPECT_EQ(ran, (std::vector<int>{2, 2, 2, 2, 2})) << "guided on";
  // Guided left its threads 12% apart (a few heavy iterations at the end of
  // the loop; static-steal's 3%, static's 40%): each run tries the next
  // robust arm while the best one's imbalance leaves more than 5% to gain,
  // then the best runs in every run.
  state.clear();
  ran.clear();
  for (int run = 0; run < 6; ++run) ran.push_back(one_run(arms, state, {9, 5, 6, 3}, {40, 3, 12, 1}, run));
  EXPECT_EQ(ran, (std::vector<int>{2, 1, 1, 1, 1, 1})) << "guided, static-steal, then static-steal on";
  // Static-steal no better and still uneven: static, the last robust arm,
  // runs once; then the best of the three.
  state.clear();
  ran.clear();
  for (int run = 0; run < 5; ++run) ran.push_back(one_run(arms, state, {4, 7, 6, 9}, {8, 12, 12, 1}, run));
  EXPECT_EQ(ran, (std::vector<int>{2, 1, 0, 0, 0})) << "guided, static-steal, static, then static on";
}

TEST(AutoOnRealCodes, ALoopThatRepeatsProfilesItsSecondInstance) {
  const CostProfile profile = heavy_head();
  autosched::detail::AutoSelector s(four_arms(), {});
  const Context context{4096, 4, {}};
  const Decision first = s.choose(context);
  EXPECT_FALSE(first.profile);
  EXPECT_EQ(first.arm, 1) << "guided (gss here): no first instance recorded yet";
  EXPECT_FALSE(first.exploring);
  s.observe(first, measured(9e6));
  const Decision second = s.choose(context);
  EXPECT_TRUE(second.profile);
  s.observe(second, measured(5e6, &profile));
  EXPECT_EQ(s.predicted().size(), 4u) << "ranked on the second instance's profile";
  // The state keeps both: the ranking, and the first instance for a run
  // whose loop stops after it.
  const std::string state = s.save_state();
  EXPECT_EQ(state.rfind("auto5 ", 0), 0u) << state;
  EXPECT_NE(state.find(" once 1 1 1 "), std::string::npos) << state;
  autosched::detail::AutoSelector warm(four_arms(), {});
  EXPECT_TRUE(warm.load_state(state));
  EXPECT_FALSE(warm.load_state(state + " once 1 0 1 9e6 0 0")) << "one once section";
}

Scenario parse(const std::string& text) { return parse_scenario(text, "test.scenario"); }

/// Heavy rows move from the front to the back at half time, and each phase
/// has its own best arm (by what the simulator does not see).
std::string phase_flip(int steps) {
  return "name phase-flip\nsteps " + std::to_string(steps) + R"(
noise 0.03
workers 2
iterations 4096
shape ramp 8 0.5
loop-time 10
arms auto
arm auto-llvm factor 0.9 -> 1.15 at 0.5
arm mfac2 factor 1.15 -> 0.88 at 0.5
)";
}

TEST(AutoOnRealCodes, AMemoryBoundLoopWhosePredictionFavoursADynamicArmEndsOnAMeasuredFasterStatic) {
  // A balanced loop of cheap iterations (15 ns): the simulator ties static
  // with the dynamic arms or puts it a few percent behind; the cache it
  // cannot see makes static 25% faster than simulated.
  const std::string text = R"(name affinity
steps 200
noise 0.02
workers 8
iterations 262144
shape ramp 0 1
loop-time 0.5
arms auto
arm static factor 0.75
)";
  for (const bool with_affinity : {true, false}) {
    const SelectorConfig config = parse_selector(with_affinity ? "auto" : "auto,affinity=0", "test");
    const SimulationResult r = simulate(parse(text), config, 3);
    const int static_arm = 0;  // `arms auto` lists static first
    const auto tail = std::count(r.choices.end() - 100, r.choices.end(), static_arm);
    if (with_affinity) {
      EXPECT_GE(tail, 95) << "static measured faster: it runs at the end";
      EXPECT_LT(r.regret_vs_fixed_pct(), 3.0);
    } else {
      EXPECT_LT(tail, 50) << "without the affinity trial static is never measured (the case this guards)";
    }
  }
}

/// Runs `scenario` through a decision point as the engine does and returns
/// how many instances profiled after `after` steps.
int profiles_after(const Scenario& scenario, int after, bool& unsteady) {
  const SelectorConfig config = parse_selector("auto", "test");
  const Portfolio arms = scenario.portfolio();
  auto selector = std::make_unique<autosched::detail::AutoSelector>(arms, config.automatic);
  autosched::detail::AutoSelector& a = *selector;
  const auto cost = scenario_costs(scenario, 1, scenario.steps);
  const Context context{scenario.iterations, scenario.workers, {}};
  int profiles = 0;
  for (int t = 0; t < scenario.steps; ++t) {
    const Decision d = a.choose(context);
    Outcome o = measured(cost[static_cast<std::size_t>(t)][static_cast<std::size_t>(d.arm)] * 1e6);
    if (d.profile) {
      o.profile = &scenario.generated->profiles[static_cast<std::size_t>(t)];
      if (t >= after) ++profiles;
    }
    a.observe(d, o);
  }
  unsteady = a.unsteady();
  return profiles;
}

TEST(AutoOnRealCodes, ALoopWhoseImbalanceKeepsMovingSettlesInsteadOfProfilingAtEverySwing) {
  const std::string text = R"(name periodic
steps 600
noise 0.03
workers 8
iterations 262144
shape band 0.08 4 100 0.37
loop-time 10
arms auto
)";
  bool unsteady = false;
  const int late = profiles_after(parse(text), 300, unsteady);
  EXPECT_TRUE(unsteady);
  EXPECT_EQ(late, 0) << "once unsteady, the swings of the second half profile nothing";
}

/// `instances` instances of a loop whose level keeps rising (+0.2% per
/// instance, ±1% noise) with one shape throughout: where `s` profiled.
std::vector<int> run_drifting(autosched::detail::AutoSelector& s, int instances) {
  const CostProfile profile = heavy_head();
  const Context context{4096, 4, {}};
  const std::vector<double> base = {9e6, 4e6, 3.5e6, 2e6};
  std::uint64_t noise = 12345;
  std::vector<int> profiled_at;
  for (int t = 0; t < instances; ++t) {
    const Decision d = s.choose(context);
    noise = noise * 6364136223846793005ULL + 1442695040888963407ULL;
    const double jitter = 1.0 + 0.02 * (static_cast<double>(noise >> 40) / static_cast<double>(1 << 24) - 0.5);
    const double level = 1.0 + 0.002 * t;
    s.observe(d, measured(base[static_cast<std::size_t>(d.arm)] * level * jitter, d.profile ? &profile : nullptr));
    if (d.profile) profiled_at.push_back(t);
  }
  return profiled_at;
}

TEST(AutoOnRealCodes, ALoopThatDriftsSteadilyIsProfiledLessAndLessOften) {
  // The same shape at a level that keeps rising (a zooming image): each
  // change alarm's profile finds the loop it had, so each next alarm needs
  // twice the evidence. Without the back-off an alarm, and a profile, came
  // every few dozen instances to the end.
  autosched::detail::AutoSelector s(four_arms(), {});
  const std::vector<int> profiled_at = run_drifting(s, 1200);
  ASSERT_GE(profiled_at.size(), 2u) << "the drift raises alarms at all";
  const auto late = std::count_if(profiled_at.begin(), profiled_at.end(), [](int t) { return t >= 600; });
  EXPECT_LE(late, 2) << "profiles in the second half";
  EXPECT_LE(profiled_at.size(), 8u);
  for (std::size_t k = 3; k < profiled_at.size(); ++k) {
    EXPECT_GT(profiled_at[k] - profiled_at[k - 1], profiled_at[2] - profiled_at[1]) << "gaps widen";
  }
}

TEST(AutoOnRealCodes, TheBackOffADriftTaughtCarriesIntoTheNextRun) {
  // A process that drifts from the start again (the zoom restarts in every
  // run): the warm run starts at the back-off the last one reached instead
  // of paying a profile per alarm to learn it again.
  autosched::detail::AutoSelector cold(four_arms(), {});
  const std::vector<int> cold_profiles = run_drifting(cold, 400);
  const std::string state = cold.save_state();
  ASSERT_NE(state.find(" backoff "), std::string::npos) << state;
  autosched::detail::AutoSelector warm(four_arms(), {});
  ASSERT_TRUE(warm.load_state(state));
  const std::vector<int> warm_profiles = run_drifting(warm, 400);
  ASSERT_GE(cold_profiles.size(), 3u) << "the cold run backed off at all";
  EXPECT_LE(warm_profiles.size() + 2, cold_profiles.size()) << "the warm run re-learns the back-off";
  for (const std::string& bad : {state + " 1", state + " backoff 2", state.substr(0, state.rfind(' ')) + " 99",
                                 state.substr(0, state.rfind(' ')) + " -1", state.substr(0, state.rfind(' '))}) {
    autosched::detail::AutoSelector fresh(four_arms(), {});
    EXPECT_FALSE(fresh.load_state(bad)) << bad.substr(bad.size() > 40 ? bad.size() - 40 : 0);
  }
}

TEST(AutoOnRealCodes, ALoopThatCyclesThroughShapesWithOneBestArmIsProfiledLessAndLessOften) {
  // Heavy rows at the front, then at the back, every 50 instances, the
  // back-heavy phase 30% slower; ss:16 is the best arm in both. Each return
  // to a shape seen before brings its phase back with the arm that already
  // runs: the alarm changed nothing, and the next needs twice the evidence.
  std::vector<double> tail = heavy_head().block_ns();
  std::reverse(tail.begin(), tail.end());
  const CostProfile shapes[2] = {heavy_head(), CostProfile::from_blocks(4096, tail, 5)};
  const Context context{4096, 4, {}};
  const std::vector<double> base = {9e6, 4e6, 3.5e6, 2e6};
  autosched::detail::AutoSelector s(four_arms(), {});
  std::uint64_t noise = 777;
  int late = 0, all = 0;
  for (int t = 0; t < 1600; ++t) {
    const int phase = (t / 50) % 2;
    const Decision d = s.choose(context);
    noise = noise * 6364136223846793005ULL + 1442695040888963407ULL;
    const double jitter = 1.0 + 0.02 * (static_cast<double>(noise >> 40) / static_cast<double>(1 << 24) - 0.5);
    const double level = phase == 0 ? 1.0 : 1.3;
    s.observe(d, measured(base[static_cast<std::size_t>(d.arm)] * level * jitter,
                          d.profile ? &shapes[phase] : nullptr));
    if (d.profile) {
      ++all;
      if (t >= 800) ++late;
    }
  }
  EXPECT_TRUE(s.phased()) << "the two shapes are two phases";
  EXPECT_GE(all, 3) << "the first returns are noticed";
  EXPECT_LE(late, 2) << "profiles in the second half (one per switch without the back-off: 16)";
  EXPECT_EQ(s.best_arm(), 3);
}

TEST(AutoOnRealCodes, AWarmRunOfALoopWithTwoPhasesIsNotWorseThanACold) {
  // The store holds the second phase's arm.
  const Scenario s = parse(phase_flip(400));
  const SelectorConfig config = parse_selector("auto", "test");
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    const SimulationResult cold = simulate(s, config, seed);
    const SimulationResult warm = simulate(s, config, seed, 0, cold.state);
    EXPECT_LE(warm.total_ms, 1.01 * cold.total_ms) << "seed " << seed;
    EXPECT_LT(warm.regret_vs_oracle_pct(), 5.0) << "seed " << seed << ": the warm run finds each phase's arm";
  }
  // Without phases (comparing predictions only) the warm run keeps the
  // second phase's arm through the first: the failure this guards.
  const SelectorConfig plain = parse_selector("auto,phases=no", "test");
  const SimulationResult warm = simulate(s, config, 1, 0, simulate(s, config, 1).state);
  const SimulationResult warm_plain = simulate(s, plain, 1, 0, simulate(s, plain, 1).state);
  EXPECT_GT(warm_plain.total_ms, 1.05 * warm.total_ms);
}

TEST(AutoOnRealCodes, TrialsAfterThePredictionAreSpacedByPatience) {
  // The prediction runs at once; the k-th trial after it once the loop has
  // run 4k instances since its ranking; the best measured arm in between.
  const CostProfile profile = heavy_head();
  const Context context{4096, 4, {}};
  autosched::detail::AutoSelector s(four_arms(), testing::profile_first({.warmup = 0, .patience = 4}));
  const Decision first = s.choose(context);
  ASSERT_TRUE(first.profile);
  s.observe(first, measured(5e6, &profile));
  ASSERT_GE(s.shortlist().size(), 2u);
  std::vector<int> exploring_at;
  for (int i = 1; i <= 12; ++i) {
    const Decision d = s.choose(context);
    if (i == 1) {
      EXPECT_EQ(d.arm, s.shortlist().front());
    }
    if (d.arm != s.shortlist().front()) exploring_at.push_back(i);
    s.observe(d, measured(d.arm == s.shortlist().front() ? 2e6 : 2.1e6));
  }
  ASSERT_FALSE(exploring_at.empty());
  EXPECT_GE(exploring_at.front(), 4) << "the second trial waits 4 instances";
  for (std::size_t k = 1; k < exploring_at.size(); ++k) EXPECT_GE(exploring_at[k] - exploring_at[k - 1], 4);
}

TEST(AutoOnRealCodes, ATrialSlowerThanTheProfileIsNotRepeatedWhileTheNextWaits) {
  // Patience runs the best measured arm between trials; when the only arm
  // measured ran slower than the profiling instance itself, repeating it
  // costs more than trying the next: the second trial runs at once.
  const CostProfile profile = heavy_head();
  const Context context{4096, 4, {}};
  autosched::detail::AutoSelector s(four_arms(), testing::profile_first({.warmup = 0, .patience = 4}));
  const Decision first = s.choose(context);
  ASSERT_TRUE(first.profile);
  s.observe(first, measured(2e6, &profile));
  ASSERT_GE(s.shortlist().size(), 2u);
  const Decision prediction = s.choose(context);
  EXPECT_EQ(prediction.arm, s.shortlist().front());
  s.observe(prediction, measured(3.2e6));  // 1.6x the profile
  const Decision next = s.choose(context);
  EXPECT_FALSE(next.profile);
  EXPECT_EQ(next.arm, s.shortlist()[1]) << "the next trial, not the slow arm again";
}

TEST(AutoOnRealCodes, TheStateOfALoopWithPhasesRoundTripsAndDamageIsRejected) {
  const Scenario s = parse(phase_flip(300));
  // A run that archived a phase (not every seed's run does; the regret is
  // alike either way).
  SimulationResult r;
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    r = simulate(s, parse_selector("auto", "test"), seed);
    autosched::detail::AutoSelector probe(s.portfolio(), {});
    if (probe.load_state(r.state) && probe.phased()) break;
  }
  ASSERT_EQ(r.state.rfind("auto5 ", 0), 0u) << r.state;
  autosched::detail::AutoSelector loaded(s.portfolio(), {});
  ASSERT_TRUE(loaded.load_state(r.state));
  EXPECT_TRUE(loaded.phased()) << "none of five seeds archived a phase";
  EXPECT_EQ(loaded.save_state().substr(0, 40), r.state.substr(0, 40));
  for (const std::string& bad : {r.state + " 7", r.state.substr(0, r.state.size() / 2),
                                 std::string("auto5 24 -1") + r.state.substr(std::string("auto5 24 ").size())}) {
    autosched::detail::AutoSelector fresh(s.portfolio(), {});
    EXPECT_FALSE(fresh.load_state(bad)) << bad.substr(0, 60);
  }
}

TEST(AutoOnRealCodes, ANewSizeClassStartsFromItsNeighboursBestWithoutAProfile) {
  // A blocked LU's loops shrink every step: size class after size class.
  // The second size class runs the first one's best arm at once, neither
  // profiling nor trying (its profiles cost the LU 30-60% of an instance).
  static int runs = 0;
  DecisionGroup& group = autosched::detail::DecisionEngine::instance().group("test:neighbour/" + std::to_string(++runs));
  const SelectorConfig config = parse_selector("auto", "test");
  const std::vector<double> shares(64, 1.0);
  auto profile_of = [&](std::int64_t n) {
    return CostProfile::from_blocks(n, std::vector<double>(64, 100.0 * static_cast<double>(n) / 64), 20);
  };
  int last = -1;  // the last arm run without exploring
  auto run = [&](std::int64_t n, int instances, int& profiles, int& explored) {
    const CostProfile profile = profile_of(n);
    for (int i = 0; i < instances; ++i) {
      Ticket t = group.decide(config, n, 2);
      if (!t.explored && !t.decision.profile) last = t.decision.arm;
      Outcome o = measured(100.0 * static_cast<double>(n) / 2 * (1.0 + 0.01 * t.decision.arm));
      if (t.decision.profile) {
        o.profile = &profile;
        ++profiles;
      }
      explored += t.explored && !t.decision.profile ? 1 : 0;
      group.complete(t, o);
    }
  };
  int profiles = 0, explored = 0;
  run(40000, 60, profiles, explored);
  EXPECT_EQ(profiles, 1);
  EXPECT_GT(explored, 0) << "the first size class tries its shortlist";
  profiles = explored = 0;
  Ticket first = group.decide(config, 20000, 2);  // the next size class down
  EXPECT_FALSE(first.decision.profile);
  EXPECT_FALSE(first.explored);
  EXPECT_EQ(first.decision.arm, last) << "the neighbour's best";
  group.complete(first, measured(100.0 * 20000 / 2));
  run(20000, 30, profiles, explored);
  EXPECT_EQ(profiles, 0) << "this process's neighbour: no profile";
  EXPECT_EQ(explored, 0) << "and no trials";
}

TEST(AutoOnRealCodes, AWarmStartOfALoopWhoseTripCountShrinksVerifiesPerIteration) {
  // Each instance of a blocked LU's update has fewer iterations than the
  // last. A warm run begins at the largest N, far above what the stored
  // means (over every N of the last run) took; per iteration it is the same
  // loop, and the warm run exploits without a profile. Compared as plain
  // times (outcomes without N) the levels differ by 30%: it profiles.
  const CostProfile profile = heavy_head();
  const auto outcome = [&](const Decision& d, std::int64_t n, bool with_n) {
    Outcome o = measured(100.0 * static_cast<double>(n) * (1.0 + 0.05 * d.arm), d.profile ? &profile : nullptr);
    o.n = with_n ? n : 0;
    return o;
  };
  for (const bool with_n : {true, false}) {
    autosched::detail::AutoSelector cold(four_arms(), testing::profile_first({.warmup = 0}));
    for (std::int64_t n = 4096; n > 2048; n -= 32) {
      const Decision d = cold.choose({n, 4, {}});
      cold.observe(d, outcome(d, n, with_n));
    }
    autosched::detail::AutoSelector warm(four_arms(), testing::profile_first({.warmup = 0}));
    ASSERT_TRUE(warm.load_state(cold.save_state()));
    int profiles = 0;
    for (std::int64_t n = 4096; n > 3700; n -= 32) {
      const Decision d = warm.choose({n, 4, {}});
      profiles += d.profile ? 1 : 0;
      warm.observe(d, outcome(d, n, with_n));
    }
    if (with_n) {
      EXPECT_EQ(profiles, 0) << "the same loop per iteration";
    } else {
      EXPECT_GT(profiles, 0) << "without N the levels differ (what this test guards against)";
    }
  }
}

TEST(AutoOnRealCodes, ALoopThatShrinksEveryStepCarriesItsTrialsAcrossSizeClasses) {
  // A blocked LU's update leaves each size class after a few steps, while
  // its trials are still running. Each new class starts from its
  // neighbour's best and goes on with the trials it had left: across seven
  // classes one profile, and most instances run one arm (starting over in
  // every class, 7 of 21 did; each arm index costs 1% more, so the lowest
  // tried wins).
  static int runs = 0;
  DecisionGroup& group = autosched::detail::DecisionEngine::instance().group("test:shrinking/" + std::to_string(++runs));
  const SelectorConfig config = parse_selector("auto,patience=0", "test");
  int profiles = 0, firsts = 0, ran_arms = 0;
  std::map<int, int> runs_of;  // arm → instances, profiles aside
  for (int size_class = 17; size_class >= 11; --size_class) {
    const std::int64_t n = std::int64_t{3} << (size_class - 2);  // in class `size_class`
    const CostProfile profile =
        CostProfile::from_blocks(n, std::vector<double>(64, 100.0 * static_cast<double>(n) / 64), 20);
    for (int i = 0; i < 4; ++i) {
      Ticket t = group.decide(config, n, 2);
      Outcome o = measured(100.0 * static_cast<double>(n) / 2 * (1.0 + 0.01 * t.decision.arm));
      if (t.decision.profile) {
        o.profile = &profile;
        ++profiles;
      } else {
        ++runs_of[t.decision.arm];
        ++ran_arms;
      }
      if (size_class < 17 && i == 0 && !t.decision.profile) ++firsts;
      group.complete(t, o);
    }
  }
  std::string ran;
  int most = 0;
  for (const auto& [arm, count] : runs_of) {
    ran += " " + std::to_string(arm) + "x" + std::to_string(count);
    most = std::max(most, count);
  }
  EXPECT_EQ(firsts, 6) << "a later size class runs its neighbour's best at once";
  EXPECT_EQ(profiles, 1) << "one profile, in the first size class";
  EXPECT_GE(2 * most, ran_arms) << "arms run (arm x instances):" << ran;
}

}  // namespace
}  // namespace autosched
