// The RL selectors follow their published rules on scripted outcomes
// (docs/selection.md, LB4OMP's papers and published code).
#include <autosched/select/selectors/rl/rl_agent.hpp>

#include "make_outcome.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <sstream>
#include <utility>

namespace autosched {
namespace {

using testing::outcome;

// Drives `steps` decisions with a fixed time per arm; returns the arms.
std::vector<int> drive(RlAgent& agent, int steps, const std::vector<double>& ms) {
  std::vector<int> arms;
  for (int k = 0; k < steps; ++k) {
    const Decision d = agent.choose({});
    arms.push_back(d.arm);
    agent.observe(d, outcome(ms[static_cast<std::size_t>(d.arm)]));
  }
  return arms;
}

// RL4OMP's explore-first visits all S² ordered pairs in exactly S² steps,
// starting 0, 0, 1, 0, 2, 0, … from state 0.
TEST(RlAgent, ExploreFirstVisitsEveryOrderedPairInExactlySSquaredSteps) {
  for (int s = 2; s <= 20; ++s) {
    RlAgent agent(s, RlConfig{});
    const auto arms = drive(agent, 1 + s * s, std::vector<double>(static_cast<std::size_t>(s), 10.0));
    std::set<std::pair<int, int>> pairs;
    for (std::size_t k = 1; k < arms.size(); ++k) pairs.emplace(arms[k - 1], arms[k]);
    EXPECT_EQ(pairs.size(), static_cast<std::size_t>(s * s)) << "S = " << s;
    EXPECT_FALSE(agent.exploring_pairs()) << "S = " << s;
    if (s == 12) {
      const std::vector<int> start(arms.begin(), arms.begin() + 7);
      EXPECT_EQ(start, (std::vector<int>{0, 0, 1, 0, 2, 0, 3}));
    }
  }
}

// After exploring, Q-learning with the row-average rule exploits the arm
// with the best mean reward: the planted fastest arm.
TEST(RlAgent, QLearningConvergesOnAPlantedOptimum) {
  RlAgent agent(4, RlConfig{});
  const auto arms = drive(agent, 200, {10, 12, 7, 11});
  for (std::size_t k = 150; k < arms.size(); ++k) EXPECT_EQ(arms[k], 2);
  EXPECT_EQ(agent.greedy_action(0), 2);
}

// The update of Q-learning on a hand-computed step: r + γ·Q[a][g].
TEST(RlAgent, QLearningUpdateIsTheTextbookOne) {
  RlConfig c;
  c.alpha_decay = 0;
  RlAgent agent(2, c);
  Decision d = agent.choose({});  // arm 0, no update
  agent.observe(d, outcome(10));  // first observation: r+ = 0.01
  d = agent.choose({});           // explore-first: (0,0); Q[0][0] += 0.5·(0.01 + 0.5·0 − 0) = 0.005
  EXPECT_NEAR(agent.table_a(0, 0), 0.005, 1e-12);
  EXPECT_EQ(agent.visits(0, 0), 1);
}

// SARSA bootstraps from the a' its policy draws — and then takes a'.
TEST(RlAgent, SarsaBootstrapsFromTheActionItTakesNext) {
  RlConfig c;
  c.alpha_decay = 0;
  c.policy = RlPolicy::epsilon_greedy;
  c.epsilon = 1.0;  // always random, so a' is informative
  c.epsilon_decay = 0;
  c.epsilon_min = 1.0;
  // Every update Q[s][a] must use Q[a][a'] with a' = the action that follows:
  // replay the transitions on a shadow table and compare.
  c.learner = RlLearner::sarsa;
  RlAgent replay(3, c);
  ASSERT_EQ(replay.name(), "sarsa");
  std::vector<int> arms;
  Decision e = replay.choose({});
  arms.push_back(e.arm);
  for (int step = 0; step < 50; ++step) {
    replay.observe(e, outcome(10 + e.arm));
    e = replay.choose({});
    arms.push_back(e.arm);
  }
  // Shadow computation with the same rewards (looptime band: arm 0 is fastest).
  std::vector<double> q(9, 0.0);
  double low = 10, high = 10;
  auto reward = [&](double x) {
    if (x <= 1.05 * low) {
      low = std::min(low, x);
      return 0.01;
    }
    if (x >= 0.95 * high) {
      high = std::max(high, x);
      return -4.0;
    }
    return -2.0;
  };
  for (std::size_t k = 1; k + 1 < arms.size(); ++k) {
    const int s = arms[k - 1], a = arms[k], a2 = arms[k + 1];
    const double r = reward(10 + s);
    q[s * 3 + a] += 0.5 * (r + 0.5 * q[a * 3 + a2] - q[s * 3 + a]);
  }
  // The agent's last update (for the final transition) bootstrapped from an
  // a' that is not in `arms` yet; compare the entries that are complete.
  const int last_s = arms[arms.size() - 2], last_a = arms.back();
  for (int s = 0; s < 3; ++s) {
    for (int a = 0; a < 3; ++a) {
      if (s == last_s && a == last_a) continue;
      EXPECT_NEAR(replay.table_a(s, a), q[s * 3 + a], 1e-9) << s << "," << a;
    }
  }
}

// Double-Q: whichever table is updated bootstraps from its own argmax,
// evaluated in the other table; policies read A + B.
TEST(RlAgent, DoubleQUpdatesEachTableWithItsOwnArgmax) {
  RlConfig c;
  c.alpha_decay = 0;
  c.learner = RlLearner::doubleq;
  RlAgent agent(3, c);
  const auto arms = drive(agent, 60, {10, 9, 11});
  double sum_a = 0, sum_b = 0;
  for (int s = 0; s < 3; ++s) {
    for (int a = 0; a < 3; ++a) {
      sum_a += std::abs(agent.table_a(s, a));
      sum_b += std::abs(agent.table_b(s, a));
      EXPECT_DOUBLE_EQ(agent.q(s, a), agent.table_a(s, a) + agent.table_b(s, a));
    }
  }
  EXPECT_GT(sum_a, 0);  // both tables learn (each update picks one at random)
  EXPECT_GT(sum_b, 0);
  (void)arms;
}

/// Epsilon-greedy from α = 0.5 and ε = 0.9, both decaying towards `floor`.
RlConfig decaying(double alpha_decay, double epsilon_decay, double floor) {
  RlConfig c;
  c.policy = RlPolicy::epsilon_greedy;
  c.alpha = 0.5;
  c.alpha_decay = alpha_decay;
  c.alpha_min = floor;
  c.epsilon = 0.9;
  c.epsilon_decay = epsilon_decay;
  c.epsilon_min = floor;
  return c;
}

// Exponential and step decay, starting after explore-first's S² steps.
TEST(RlAgent, DecaySchedules) {
  RlConfig c = decaying(0.05, 0.01, 0.1);
  RlAgent exp_agent(3, c);
  drive(exp_agent, 11, {10, 11, 12});  // 10 decisions after the first
  EXPECT_NEAR(exp_agent.alpha(), 0.5 * std::exp(-0.05 * 10), 1e-12);
  EXPECT_NEAR(exp_agent.epsilon(), 0.9 * std::exp(-0.01 * 10), 1e-12);
  c.decay = RlDecay::step;
  RlAgent step_agent(3, c);
  drive(step_agent, 7, {10, 11, 12});  // 6 decisions after the first
  EXPECT_NEAR(step_agent.alpha(), 0.5 - 0.05 * 6, 1e-12);
  EXPECT_NEAR(step_agent.epsilon(), 0.9 - 0.01 * 6, 1e-12);
  drive(step_agent, 20, {10, 11, 12});
  EXPECT_DOUBLE_EQ(step_agent.alpha(), 0.1);  // 0.5 − 0.05·26 is below the floor
  // With explore-first the decay starts after the S² exploration steps.
  RlConfig e;
  RlAgent explorer(3, e);
  drive(explorer, 1 + 9, {10, 11, 12});
  EXPECT_DOUBLE_EQ(explorer.alpha(), e.alpha);
  drive(explorer, 4, {10, 11, 12});
  EXPECT_NEAR(explorer.alpha(), std::max(e.alpha_min, e.alpha * std::exp(-e.alpha_decay * 4)), 1e-12);
}

// The exponential decay advances by one multiplication per step; over a long
// run and across a save/load it stays the closed form x0·e^(−f·t).
TEST(RlAgent, ExponentialDecayStaysTheClosedFormOverLongRunsAndReloads) {
  const RlConfig c = decaying(0.003, 0.002, 0.0);
  RlAgent agent(3, c);
  drive(agent, 1 + 1000, {10, 11, 12});
  EXPECT_NEAR(agent.alpha(), 0.5 * std::exp(-0.003 * 1000), 1e-13);
  EXPECT_NEAR(agent.epsilon(), 0.9 * std::exp(-0.002 * 1000), 1e-13);
  RlAgent reloaded(3, c);
  ASSERT_TRUE(reloaded.load_state(agent.save_state()));
  EXPECT_NEAR(reloaded.alpha(), agent.alpha(), 1e-15);
  drive(reloaded, 500, {10, 11, 12});
  EXPECT_NEAR(reloaded.alpha(), 0.5 * std::exp(-0.003 * 1500), 1e-13);
  EXPECT_NEAR(reloaded.epsilon(), 0.9 * std::exp(-0.002 * 1500), 1e-13);
}

TEST(RlAgent, ReplayReproducesARecordedSequence) {
  RlConfig c;
  c.policy = RlPolicy::replay;
  c.replay = {3, 1, 4, 1, 5, 2, 0};
  RlAgent agent(6, c);
  const auto arms = drive(agent, 8, {10, 11, 12, 13, 14, 15});
  EXPECT_EQ(std::vector<int>(arms.begin() + 1, arms.end()), c.replay);
}

TEST(RlAgent, OptimisticInitialisationIsOptimistic) {
  RlConfig c;
  c.init = RlInit::optimistic;
  RlAgent agent(3, c);
  EXPECT_GT(agent.q(1, 2), c.r_plus);
}

TEST(RlAgent, StateRoundTripsAndRejectsOtherShapes) {
  RlAgent a(4, RlConfig{});
  drive(a, 30, {10, 12, 7, 11});
  const std::string state = a.save_state();
  RlAgent b(4, RlConfig{});
  ASSERT_TRUE(b.load_state(state));
  EXPECT_DOUBLE_EQ(b.q(2, 1), a.q(2, 1));
  EXPECT_EQ(b.visits(0, 0), a.visits(0, 0));
  RlAgent other(5, RlConfig{});
  EXPECT_FALSE(other.load_state(state));
  RlConfig sc;
  sc.learner = RlLearner::sarsa;
  RlAgent sarsa(4, sc);
  EXPECT_FALSE(sarsa.load_state(state));
  EXPECT_FALSE(b.load_state("garbage"));
}

// Two agents that learned the same: equal visits and rewards, Q-values equal
// but for rounding (a reloaded agent recomputes its decayed learning rate in
// closed form, a running one step by step).
void expect_same_learning(const RlAgent& x, const RlAgent& y, int arms) {
  EXPECT_EQ(x.last_reward(), y.last_reward());
  for (int s = 0; s < arms; ++s) {
    for (int a = 0; a < arms; ++a) {
      EXPECT_EQ(x.visits(s, a), y.visits(s, a)) << s << "," << a;
      EXPECT_NEAR(x.q(s, a), y.q(s, a), 1e-12) << s << "," << a;
    }
  }
}

// A saved state as words, to damage one at a time.
struct StateWords {
  std::vector<std::string> words;
  explicit StateWords(const std::string& state) {
    std::istringstream in(state);
    for (std::string w; in >> w;) words.push_back(w);
  }
  [[nodiscard]] std::size_t size() const { return words.size(); }
  /// The state with word `at` replaced by `value`.
  [[nodiscard]] std::string with(std::size_t at, const std::string& value) const {
    std::vector<std::string> w = words;
    w.at(at) = value;
    std::string out;
    for (const auto& x : w) out += (out.empty() ? "" : " ") + x;
    return out;
  }
};

// A decision whose outcome never came (the instance failed, or the run
// saved its state between a decision made ahead and its instance) is run
// again: the agent learns nothing from the repeat, not the last reward twice.
TEST(RlAgent, RepeatsADecisionWhoseOutcomeNeverCame) {
  RlAgent a(3, RlConfig{});
  drive(a, 12, {10, 12, 7});
  const Decision d = a.choose({});
  const std::string before = a.save_state();
  const Decision again = a.choose({});
  EXPECT_EQ(again.arm, d.arm);
  EXPECT_EQ(again.exploring, d.exploring);
  EXPECT_EQ(a.save_state(), before) << "a repeated decision learned something";

  // Saved while awaiting its outcome, a resumed agent repeats it too, and
  // then goes on exactly as the agent that was never interrupted: the same
  // arms, rewards (the state holds the reward bands) and tables.
  RlAgent resumed(3, RlConfig{});
  ASSERT_TRUE(resumed.load_state(before));
  EXPECT_EQ(resumed.choose({}).arm, d.arm);
  a.observe(d, testing::outcome(9));
  resumed.observe(d, testing::outcome(9));
  EXPECT_EQ(resumed.last_reward(), a.last_reward());
  EXPECT_EQ(drive(resumed, 200, {10, 12, 7}), drive(a, 200, {10, 12, 7}));
  expect_same_learning(resumed, a, 3);
}

// SARSA's next action and the rolling-average window survive a save too.
TEST(RlAgent, ResumesSarsaAndTheRollingWindowExactly) {
  RlConfig config;
  config.learner = RlLearner::sarsa;
  config.policy = RlPolicy::epsilon_greedy;
  config.epsilon = config.epsilon_min = 0;  // greedy: random draws (not in the state) decide nothing
  config.reward = RlReward::looptime_rolling_average;
  config.window = 4;
  RlAgent a(3, config);
  drive(a, 30, {10, 12, 7});
  RlAgent resumed(3, config);
  ASSERT_TRUE(resumed.load_state(a.save_state()));
  EXPECT_EQ(drive(resumed, 50, {11, 9, 13}), drive(a, 50, {11, 9, 13}));
  expect_same_learning(resumed, a, 3);
}

// States saved before the awaiting flag existed ("rl1") still load.
TEST(RlAgent, LoadsTheFirstStateFormat) {
  RlAgent a(2, RlConfig{});
  drive(a, 10, {10, 12});
  std::string state = a.save_state();
  ASSERT_EQ(state.rfind("rl2 ", 0), 0u);
  std::istringstream in(state);
  std::vector<std::string> words;
  for (std::string w; in >> w;) words.push_back(w);
  words[0] = "rl1";
  words.erase(words.end() - 7, words.end());  // the reward trackers: seen signal low high sum count 0
  words.erase(words.begin() + 10, words.begin() + 14);  // <awaiting> <explored> <next> <replay>
  std::string old;
  for (const auto& w : words) old += (old.empty() ? "" : " ") + w;
  RlAgent b(2, RlConfig{});
  ASSERT_TRUE(b.load_state(old));
  for (int s = 0; s < 2; ++s) {
    for (int x = 0; x < 2; ++x) {
      EXPECT_EQ(b.q(s, x), a.q(s, x));
      EXPECT_EQ(b.visits(s, x), a.visits(s, x));
    }
  }
  EXPECT_EQ(b.greedy_action(0), a.greedy_action(0));
}

// Damaged reward trackers or positions: the state is refused, nothing changes.
TEST(RlAgent, RefusesDamagedTrackersAndPositions) {
  RlAgent a(2, RlConfig{});
  drive(a, 10, {10, 12});
  const StateWords words(a.save_state());
  auto with = [&](std::size_t at, const std::string& value) { return words.with(at, value); };
  RlAgent b(2, RlConfig{});
  const std::string fresh = b.save_state();
  EXPECT_FALSE(b.load_state(with(words.size() - 1, "99")));  // 99 values in a window of 10
  EXPECT_FALSE(b.load_state(with(words.size() - 2, "-1")));  // a negative count
  EXPECT_FALSE(b.load_state(with(12, "2")));                  // next action past the arms
  EXPECT_FALSE(b.load_state(with(13, "5")));                  // replay position past the replay
  EXPECT_FALSE(b.load_state(a.save_state().substr(0, a.save_state().size() - 4)));  // cut short
  EXPECT_EQ(b.save_state(), fresh);
}

// A damaged step or visit count near 2^63 would overflow at the next step.
TEST(RlAgent, ImplausibleCountersAreDamage) {
  RlAgent a(2, RlConfig{});
  drive(a, 10, {10, 12});
  const StateWords words(a.save_state());
  auto with = [&](std::size_t at, const std::string& value) { return words.with(at, value); };
  RlAgent b(2, RlConfig{});
  ASSERT_TRUE(b.load_state(with(4, "5")));
  // "rl2 <name> <arms> <learner> <step> <state> <paired> <jump> <started> <reward> <awaiting>
  // <explored> <next action> <replay position>", then the q-values (arms² for the default
  // Q-learner), then the visits.
  const std::size_t visits = 14 + 4;
  ASSERT_TRUE(b.load_state(with(visits, "7")));
  for (const char* big : {"9223372036854775000", "281474976710657", "-1"}) {
    RlAgent c(2, RlConfig{});
    EXPECT_FALSE(c.load_state(with(4, big))) << "step " << big;
    EXPECT_FALSE(c.load_state(with(visits, big))) << "visits " << big;
  }
}

}  // namespace
}  // namespace autosched
