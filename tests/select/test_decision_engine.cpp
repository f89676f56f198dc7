// The decision engine makes an RL agent's next decision, and a settled
// auto's, when the instance before completes (Selector::decides_ahead): the
// agent's arms are the same as when it decides at the next instance's start,
// and a decision whose instance failed is run again, not replaced; auto
// decides at the start until it settles.
#include <autosched/core/error.hpp>
#include <autosched/select/selectors/auto/auto_selector.hpp>
#include <autosched/select/engine/decision_engine.hpp>
#include <autosched/select/selectors/rl/rl_agent.hpp>
#include <autosched/techniques/loop_simulator.hpp>

#include "make_outcome.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <span>
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
  return autosched::detail::DecisionEngine::instance().group("test:ahead/" + name + "/" + std::to_string(++runs));
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
    EXPECT_EQ(t.slot->ahead.left(), 0) << "decide() took the decision made ahead";
    const Outcome o = outcome(scripted_ms(t.decision.arm));
    direct.observe(expected, o);
    const DecisionGroup::Learned learned = group.complete(t, o);
    EXPECT_DOUBLE_EQ(learned.reward, direct.last_reward());
    ASSERT_EQ(t.slot->ahead.left(), 1) << "instance " << k << ": the next decision was not made ahead (one at a time)";
  }
  EXPECT_FALSE(direct.exploring_pairs()) << "200 instances should have ended explore-first (144 pairs)";
}

// Thousands of loop names under `auto` hold one copy of the arms and of
// the configuration, not one each (3.5 KB and 600 B a name): equal arms
// share, different ones do not, and the store's key is the labels'.
TEST(DecisionEngine, PointsWithEqualArmsShareOneCopyOfThem) {
  const SelectorConfig config = parse_selector("auto", "test");
  DecisionGroup& one = fresh_group("shared-a");
  DecisionGroup& two = fresh_group("shared-b");
  const Ticket a = one.decide(config, n, p);
  const Ticket b = two.decide(config, n, p);
  ASSERT_NE(a.slot, b.slot);
  EXPECT_EQ(&a.slot->point->arms(), &b.slot->point->arms());
  EXPECT_EQ(&a.slot->config(), &b.slot->config());
  EXPECT_EQ(a.slot->portfolio(), "static,ss,tss,auto-llvm,guided-llvm,mfac2,static-steal,awf-b,awf-c,awf-d,awf-e,maf,"
                                 "static:expert,ss:expert,tss:expert,auto-llvm:expert,guided-llvm:expert,"
                                 "mfac2:expert,static-steal:expert,awf-b:expert,awf-c:expert,awf-d:expert,"
                                 "awf-e:expert,maf:expert");
  const SelectorConfig other = parse_selector("auto,portfolio=static,ss", "test");
  const Ticket c = fresh_group("shared-c").decide(other, n, p);
  EXPECT_NE(&c.slot->point->arms(), &a.slot->point->arms());
  EXPECT_NE(&c.slot->config(), &a.slot->config());
  EXPECT_EQ(c.slot->point->arms().size(), 2U);
  EXPECT_EQ(share_portfolio(auto_portfolio())->arms, a.slot->point->arms());
  EXPECT_EQ(share_portfolio(auto_portfolio()).get(), &a.slot->point->shared_arms());
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

/// A loop auto can profile: 10000 iterations, the first eighth 20× dearer;
/// each arm's time is the simulator's, with 1% of deterministic noise.
struct ProfiledLoop {
  CostProfile profile;
  Portfolio arms;
  ProfiledLoop(const SelectorConfig& config) : arms(selector_portfolio(config, Context{n, p, {}})) {
    std::vector<double> blocks(64, 1e5);
    for (std::size_t b = 0; b < 8; ++b) blocks[b] = 2e6;
    profile = CostProfile::from_blocks(n, blocks, 100);
  }
  [[nodiscard]] double arm_ns(int arm) const {
    return simulate_loop(profile, arms[static_cast<std::size_t>(arm)], {.workers = p}).time_ns;
  }
  [[nodiscard]] double best_ns() const {
    double best = arm_ns(0);
    for (int a = 1; a < static_cast<int>(arms.size()); ++a) best = std::min(best, arm_ns(a));
    return best;
  }
  [[nodiscard]] Outcome outcome_of(const Decision& d, int k) const {
    Outcome o;
    o.time_ns = (d.profile ? 2.0 : 1.0) * arm_ns(d.arm) * (1.0 + 0.01 * ((k * 7) % 5 - 2));
    if (d.profile) o.profile = &profile;
    o.metrics.loop_time_ns = o.time_ns;
    return o;
  }
};

TEST(DecisionEngine, AutoDecidesAtTheStartUntilItSettlesThenAhead) {
  // Before it settles, auto's choice needs the instance's context (a profile
  // asks for n): it decides at decide(). Settled, its choice is the draw
  // alone, made at complete() while its memory is cached.
  const SelectorConfig config = parse_selector("auto", "test");
  const ProfiledLoop loop(config);
  const double best_ns = loop.best_ns();
  DecisionGroup& group = fresh_group("auto");
  int ahead = 0, near_best = 0;
  for (int k = 0; k < 300; ++k) {
    const Ticket t = group.decide(config, n, p);
    ASSERT_TRUE(t.owns);
    const auto& selector = dynamic_cast<const autosched::detail::AutoSelector&>(t.slot->point->selector());
    group.complete(t, loop.outcome_of(t.decision, k));
    EXPECT_EQ(t.slot->ahead.left() > 0, selector.settled()) << "instance " << k;
    ahead += t.slot->ahead.left() > 0 ? 1 : 0;
    if (k >= 200 && !t.decision.profile) near_best += loop.arm_ns(t.decision.arm) <= 1.05 * best_ns ? 1 : 0;
  }
  EXPECT_GT(ahead, 200) << "auto should have settled, and decided ahead, within 100 instances";
  EXPECT_GE(near_best, 90) << "the decisions made ahead left the arms within 5% of the best";
}

TEST(DecisionEngine, AFailedSettledInstanceOfAutoLeavesNothingPending) {
  // A draw made ahead whose instance failed taught nothing: the next
  // decide() draws again and the learned state is unchanged.
  const SelectorConfig config = parse_selector("auto", "test");
  const ProfiledLoop loop(config);
  DecisionGroup& group = fresh_group("auto-abandon");
  Ticket t = group.decide(config, n, p);
  for (int k = 0; k < 300 && t.slot->ahead.left() == 0; ++k) {
    group.complete(t, loop.outcome_of(t.decision, k));
    if (t.slot->ahead.left() > 0) break;
    t = group.decide(config, n, p);
  }
  ASSERT_GT(t.slot->ahead.left(), 0) << "auto never settled";
  const Ticket failed = group.decide(config, n, p);
  const std::string state = group.selector_state(n, p);
  group.abandon(failed);
  const Ticket again = group.decide(config, n, p);
  ASSERT_TRUE(again.owns);
  EXPECT_EQ(group.selector_state(n, p), state) << "the failed instance taught auto something";
  group.complete(again, loop.outcome_of(again.decision, 0));
}

TEST(DecisionPoint, CallsInsideASpanAreTimedAsOneWhenItEnds) {
  const SelectorConfig config = parse_selector("auto:exhaustive", "test");
  DecisionGroup& group = fresh_group("span");
  const Ticket t = group.decide(config, n, p);
  group.complete(t, outcome(10.0));
  DecisionPoint& point = *t.slot->point;
  (void)point.take_cost_ns();
  point.choose(Context{n, p, {}});
  EXPECT_GT(point.take_cost_ns(), 0.0) << "a call on its own is timed at once";
  {
    const DecisionPoint::Span span(point);
    for (int i = 0; i < 3; ++i) point.observe(point.choose(Context{n, p, {}}), outcome(10.0));
    EXPECT_EQ(point.take_cost_ns(), 0.0) << "inside a span the calls add nothing of their own";
  }
  EXPECT_GT(point.take_cost_ns(), 0.0) << "the span reports its time when it ends";
  EXPECT_EQ(point.take_cost_ns(), 0.0) << "once";
}

/// Runs `config` on `loop` until auto has settled and the engine holds a
/// fresh batch of at least `min_batch` decisions made ahead; returns the
/// instances run.
int settle(DecisionGroup& group, const SelectorConfig& config, const ProfiledLoop& loop, int min_batch = 1) {
  for (int k = 0; k < 300; ++k) {
    const Ticket t = group.decide(config, n, p);
    group.complete(t, loop.outcome_of(t.decision, k));
    if (t.slot->ahead.left() >= min_batch && t.slot->ahead.held() == 0) return k + 1;
  }
  ADD_FAILURE() << "auto never settled";
  return 300;
}

TEST(DecisionEngine, SettledAutoLearnsABatchMadeAheadWhenItsLastInstanceCompletes) {
  const SelectorConfig config = parse_selector("auto", "test");
  const ProfiledLoop loop(config);
  DecisionGroup& group = fresh_group("auto-batch");
  const int before = settle(group, config, loop);
  Ticket t = group.decide(config, n, p);
  DecisionSlot& slot = *t.slot;
  const std::uint64_t observed = slot.point->instances();
  EXPECT_EQ(observed, static_cast<std::uint64_t>(before));
  const int batch = static_cast<int>(slot.ahead.batch().size());
  ASSERT_GE(batch, 2) << "a settled auto on a clear best arm draws it several times ahead";
  for (int i = 1; i < batch; ++i) {
    const DecisionGroup::Learned learned = group.complete(t, loop.outcome_of(t.decision, i));
    EXPECT_EQ(slot.ahead.held(), i) << "the outcome waits for the batch's last";
    EXPECT_EQ(slot.point->instances(), observed) << "nothing was observed yet";
    EXPECT_EQ(learned.cost_ns, 0.0) << "a held outcome costs the selector nothing";
    t = group.decide(config, n, p);
    ASSERT_TRUE(t.owns);
  }
  group.complete(t, loop.outcome_of(t.decision, 0));
  EXPECT_EQ(slot.ahead.held(), 0);
  EXPECT_EQ(slot.point->instances(), observed + static_cast<std::uint64_t>(batch)) << "the batch was learned, all of it";
  EXPECT_GT(slot.ahead.left(), 0) << "and the next batch drawn";
}

TEST(DecisionEngine, ABatchEndsAtItsFirstDrawThatExploresAndKeepsTheBestsEquals) {
  // The arms within 10% of the best measure alike, with noise of a few
  // percent: the draws mix them. A draw of one of those equals stays in
  // its batch (ending a batch at every switch paid the cold selector every
  // few instances); a draw that explores must end its batch, so that it is
  // learned before the next.
  const SelectorConfig config = parse_selector("auto", "test");
  const ProfiledLoop loop(config);
  const double best_ns = loop.best_ns();
  DecisionGroup& group = fresh_group("auto-batch-ends");
  int full = 0, explored = 0, mixed = 0;
  for (int k = 0; k < 600; ++k) {
    const Ticket t = group.decide(config, n, p);
    DecisionSlot& slot = *t.slot;
    Outcome o = loop.outcome_of(t.decision, k);
    if (!t.decision.profile && loop.arm_ns(t.decision.arm) <= 1.1 * best_ns) {
      o.time_ns = best_ns * (1.0 + 0.03 * ((k * 13) % 7 - 3) / 3.0);  // the near-best arms measure alike
      o.metrics.loop_time_ns = o.time_ns;
    }
    group.complete(t, o);
    const std::span<const Decision> batch = slot.ahead.batch();
    const int count = static_cast<int>(batch.size());
    if (slot.ahead.handed_out() != 0 || count == 0) continue;  // only a freshly drawn batch
    bool one_arm = true;
    for (int i = 0; i < count; ++i) {
      one_arm = one_arm && batch[static_cast<std::size_t>(i)].arm == batch[0].arm;
      if (i + 1 < count) {
        EXPECT_FALSE(batch[static_cast<std::size_t>(i)].exploring) << "a draw that explores ends its batch";
      }
    }
    if (!one_arm) ++mixed;
    if (count < slot.point->selector().ahead_batch()) {
      EXPECT_TRUE(batch[static_cast<std::size_t>(count - 1)].exploring || !slot.point->selector().decides_ahead())
          << "a batch ended early for no reason";
      if (batch[static_cast<std::size_t>(count - 1)].exploring) ++explored;
    } else {
      ++full;
    }
  }
  EXPECT_GT(full, 0) << "the settled loop fills batches";
  EXPECT_GT(mixed, 0) << "no batch mixed the best's equals: the test did not test";
  EXPECT_GT(explored, 0) << "no draw that explores ended a batch: the test did not test";
}

TEST(DecisionEngine, HeldOutcomesAreLearnedBeforeAStateIsReadOrACutTrial) {
  const SelectorConfig config = parse_selector("auto", "test");
  const ProfiledLoop loop(config);
  DecisionGroup& group = fresh_group("auto-held");
  settle(group, config, loop, 3);
  Ticket t = group.decide(config, n, p);
  DecisionSlot& slot = *t.slot;
  const std::uint64_t observed = slot.point->instances();
  group.complete(t, loop.outcome_of(t.decision, 1));
  group.complete(t = group.decide(config, n, p), loop.outcome_of(t.decision, 2));
  ASSERT_EQ(slot.ahead.held(), 2);
  (void)group.selector_state(n, p);  // what a snapshot or the exit saves
  EXPECT_EQ(slot.ahead.held(), 0);
  EXPECT_EQ(slot.point->instances(), observed + 2) << "a saved state must include what ran";

  // On until an outcome is held again (the next batch of two or more).
  for (int k = 3; k < 300 && slot.ahead.held() == 0; ++k) {
    t = group.decide(config, n, p);
    group.complete(t, loop.outcome_of(t.decision, k));
  }
  ASSERT_EQ(slot.ahead.held(), 1);
  const std::uint64_t before_cut = slot.point->instances();
  t = group.decide(config, n, p);
  Outcome cut = loop.outcome_of(t.decision, 4);
  cut.cut_short = true;  // the guard cut it: the selector must know before its next draw
  group.complete(t, cut);
  EXPECT_EQ(slot.ahead.held(), 0);
  EXPECT_EQ(slot.point->instances(), before_cut + 2) << "the held outcome and the cut one";
}

TEST(DecisionEngine, ABatchOfOneDecidesAheadOneAtATime) {
  const SelectorConfig config = parse_selector("auto,batch=1", "test");
  const ProfiledLoop loop(config);
  DecisionGroup& group = fresh_group("auto-batch1");
  settle(group, config, loop);
  for (int k = 0; k < 20; ++k) {
    const Ticket t = group.decide(config, n, p);
    group.complete(t, loop.outcome_of(t.decision, k));
    EXPECT_EQ(t.slot->ahead.held(), 0);
    EXPECT_LE(t.slot->ahead.left(), 1);
  }
  EXPECT_THROW((void)parse_selector("auto,batch=33", "test"), Error) << "the engine makes at most 32 ahead";
}

TEST(DecisionEngine, ASteadyLoopLearnsInLongerBatchesUpToTheCap) {
  // A clear best arm measured alike every time: once settled, each batch
  // may be as long as the run of instances the arm has kept, from 8 up to
  // 32; another arm's draw starts the run again.
  const SelectorConfig config = parse_selector("auto", "test");
  const ProfiledLoop loop(config);
  DecisionGroup& group = fresh_group("auto-batch-grows");
  settle(group, config, loop, 2);
  std::vector<int> sizes;
  for (int k = 0; k < 400; ++k) {
    const Ticket t = group.decide(config, n, p);
    DecisionSlot& slot = *t.slot;
    group.complete(t, loop.outcome_of(t.decision, k));
    if (slot.ahead.handed_out() == 0 && !slot.ahead.batch().empty()) {
      sizes.push_back(static_cast<int>(slot.ahead.batch().size()));
    }
  }
  ASSERT_GE(sizes.size(), 4u);
  EXPECT_LE(sizes.front(), 16) << "a loop that has just settled learns soon";
  EXPECT_EQ(*std::max_element(sizes.begin(), sizes.end()), DecisionsAhead::max_batch) << "a steady one once per 32";
  for (int s : sizes) EXPECT_LE(s, DecisionsAhead::max_batch);

  // batch=N fixes the batch; batch-max=M lets it grow to M only.
  for (const auto& [text, cap] : {std::pair{"auto,batch=8", 8}, std::pair{"auto,batch-max=12", 12}}) {
    const SelectorConfig fixed = parse_selector(text, "test");
    DecisionGroup& g = fresh_group(std::string("auto-batch-cap-") + text);
    int longest = 0;
    for (int k = 0; k < 400; ++k) {
      const Ticket t = g.decide(fixed, n, p);
      g.complete(t, loop.outcome_of(t.decision, k));
      if (t.slot->ahead.handed_out() == 0) longest = std::max(longest, static_cast<int>(t.slot->ahead.batch().size()));
    }
    EXPECT_EQ(longest, cap) << text;
  }
  EXPECT_THROW((void)parse_selector("auto,batch=16,batch-max=8", "test"), Error) << "a cap below the start";
  EXPECT_EQ(parse_selector("auto,batch-max=16,batch=4", "test").automatic.settled_batch_max, 16) << "either order";
}

}  // namespace
}  // namespace autosched

namespace autosched {
namespace {

// The caller's slot hint skips the configuration comparison only for the
// same size class and team; another size or team finds (or makes) its own
// slot, and a cleared hint goes by the configuration again.
TEST(DecisionEngine, ASlotHintIsTakenOnlyForItsSizeClassAndTeam) {
  const SelectorConfig config = parse_selector("auto", "test");
  DecisionGroup& group = fresh_group("hint");
  DecisionSlot* hint = nullptr;
  const Ticket a = group.decide(config, 1000, 2, &hint);
  ASSERT_EQ(hint, a.slot);
  group.abandon(a);
  const Ticket b = group.decide(config, 1001, 2, &hint);  // same size class
  EXPECT_EQ(b.slot, a.slot);
  group.abandon(b);
  const Ticket c = group.decide(config, 100000, 2, &hint);  // another size class
  EXPECT_NE(c.slot, a.slot);
  EXPECT_EQ(hint, c.slot);
  group.abandon(c);
  const Ticket d = group.decide(config, 100000, 4, &hint);  // another team
  EXPECT_NE(d.slot, c.slot);
  group.abandon(d);
  hint = nullptr;
  const SelectorConfig other = parse_selector("auto:random", "test");
  const Ticket e = group.decide(other, 1000, 2, &hint);  // a new schedule: its own slot
  EXPECT_NE(e.slot, a.slot);
  group.abandon(e);
  hint = nullptr;
  const Ticket f = group.decide(config, 1000, 2, &hint);
  EXPECT_EQ(f.slot, a.slot);
  group.abandon(f);
}

}  // namespace
}  // namespace autosched
