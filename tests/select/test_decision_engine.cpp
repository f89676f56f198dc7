// The decision engine makes an RL agent's next decision when the instance
// before completes (Selector::decides_ahead): the agent's arms are the same
// as when it decides at the next instance's start, and a decision whose
// instance failed is run again, not replaced.
#include <autosched/select/decision_engine.hpp>
#include <autosched/select/rl_agent.hpp>

#include "make_outcome.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace autosched {
namespace {

using testing::outcome;

constexpr std::int64_t n = 10000;
constexpr int p = 2;

double scripted_ms(int arm) { return 10.0 + (arm * 7) % 5; }

// The engine lives as long as the process: a fresh group per test run, so
// that --gtest_repeat starts from untrained points.
DecisionGroup& fresh_group(const std::string& name) {
  static int runs = 0;
  return DecisionEngine::instance().group("test:ahead/" + name + "/" + std::to_string(++runs));
}

TEST(DecisionEngine, AnRlAgentDecidesAheadAndChoosesWhatItWouldHaveChosenLater) {
  const SelectorConfig config = parse_selector("auto:qlearn", "test");
  DecisionGroup& group = fresh_group("qlearn");
  const std::size_t arms = selector_portfolio(config, Context{n, p, {}}).size();
  RlAgent direct(static_cast<int>(arms), config.rl);  // asked at each instance's start
  for (int k = 0; k < 200; ++k) {
    const Ticket t = group.decide(config, n, p);
    ASSERT_TRUE(t.owns);
    const Decision expected = direct.choose(Context{n, p, {}});
    ASSERT_EQ(t.decision.arm, expected.arm) << "instance " << k;
    EXPECT_EQ(t.decision.exploring, expected.exploring) << "instance " << k;
    EXPECT_FALSE(t.slot->ahead.has_value()) << "decide() took the decision made ahead";
    const Outcome o = outcome(scripted_ms(t.decision.arm));
    direct.observe(expected, o);
    const DecisionGroup::Learned learned = group.complete(t, o);
    EXPECT_DOUBLE_EQ(learned.reward, direct.last_reward());
    ASSERT_TRUE(t.slot->ahead.has_value()) << "instance " << k << ": the next decision was not made ahead";
  }
  EXPECT_FALSE(direct.exploring_pairs()) << "200 instances should have ended explore-first (144 pairs)";
}

TEST(DecisionEngine, AFailedInstanceOfAnAgentIsRunAgain) {
  const SelectorConfig config = parse_selector("auto:qlearn", "test");
  DecisionGroup& group = fresh_group("abandon");
  for (int k = 0; k < 5; ++k) group.complete(group.decide(config, n, p), outcome(scripted_ms(k)));
  const Ticket failed = group.decide(config, n, p);
  const std::string state = group.selector_state(n, p);
  group.abandon(failed);
  const Ticket again = group.decide(config, n, p);
  ASSERT_TRUE(again.owns);
  EXPECT_EQ(again.decision.arm, failed.decision.arm);
  EXPECT_EQ(group.selector_state(n, p), state) << "the repeat taught the agent something";
  group.complete(again, outcome(10));
}

TEST(DecisionEngine, ASelectorThatNeedsTheContextDecidesAtTheStart) {
  const SelectorConfig config = parse_selector("auto", "test");
  DecisionGroup& group = fresh_group("auto");
  for (int k = 0; k < 10; ++k) {
    const Ticket t = group.decide(config, n, p);
    group.complete(t, outcome(10));
    EXPECT_FALSE(t.slot->ahead.has_value());
  }
}

}  // namespace
}  // namespace autosched
