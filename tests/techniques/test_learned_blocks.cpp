// BlockLearner on cost functions with a known best split: the learned
// blocks of static loops (the drop-in's --loops static) must balance an
// imbalanced loop within a few instances, leave a balanced one on the
// runtime's split, go back to it when a learned split is slower, and resume
// from a saved state.
#include <autosched/techniques/learned_blocks.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>

namespace autosched {
namespace {

/// Each block's time: the sum of cost(i) over its iterations.
std::vector<double> block_times(const BlockBounds& b, const std::function<double(std::int64_t)>& cost) {
  std::vector<double> out;
  for (std::size_t t = 0; t + 1 < b.size(); ++t) {
    double s = 0;
    for (std::int64_t i = b[t]; i < b[t + 1]; ++i) s += cost(i);
    out.push_back(s);
  }
  return out;
}

double makespan(const std::vector<double>& s) { return *std::max_element(s.begin(), s.end()); }

/// Runs `instances` instances; the runtime's split is even_blocks here.
void run(BlockLearner& l, int instances, const std::function<double(std::int64_t)>& cost) {
  for (int k = 0; k < instances; ++k) {
    const auto next = l.next();
    const BlockBounds ran = next ? *next : even_blocks(l.n(), l.p());
    l.observe(ran, !next.has_value(), block_times(ran, cost));
  }
}

TEST(LearnedBlocks, EvenSplitGivesTheFirstThreadsTheExtraIterations) {
  EXPECT_EQ(even_blocks(10, 3), (BlockBounds{0, 4, 7, 10}));
  EXPECT_EQ(even_blocks(2, 4), (BlockBounds{0, 1, 2, 2, 2}));
  EXPECT_EQ(even_blocks(0, 2), (BlockBounds{0, 0, 0}));
}

TEST(LearnedBlocks, EqualCostSplitIsExactForPiecewiseConstantCost) {
  // Block 0 (100 iterations) took 3 s, block 1 (100) took 1 s: total 4, so
  // the half (2 s) lies two thirds into block 0.
  EXPECT_EQ(equal_cost_blocks({0, 100, 200}, std::vector<double>{3.0, 1.0}), (BlockBounds{0, 67, 200}));
  // An empty block borrows its neighbour's density.
  EXPECT_EQ(equal_cost_blocks({0, 0, 100}, std::vector<double>{0.0, 2.0}), (BlockBounds{0, 50, 100}));
  // Nothing measured: unchanged.
  EXPECT_EQ(equal_cost_blocks({0, 50, 100}, std::vector<double>{0.0, 0.0}), (BlockBounds{0, 50, 100}));
}

TEST(LearnedBlocks, RisingCostConvergesNearTheBestSplit) {
  // Iteration i costs i: with 2 threads the best boundary is n/sqrt(2).
  const std::int64_t n = 10000;
  BlockLearner l(n, 2);
  auto cost = [](std::int64_t i) { return static_cast<double>(i); };
  run(l, 1, cost);  // 50% imbalanced: one even instance is enough
  EXPECT_EQ(l.phase(), BlockLearner::Phase::learning);
  run(l, 2, cost);
  const double even = makespan(block_times(even_blocks(n, 2), cost));
  run(l, 12, cost);
  ASSERT_TRUE(l.next().has_value());
  const double best = 0.5 * static_cast<double>(n) * static_cast<double>(n - 1) / 2;
  EXPECT_LT(makespan(block_times(*l.next(), cost)), 1.02 * best);
  EXPECT_LT(makespan(block_times(*l.next(), cost)), 0.7 * even);
  EXPECT_NEAR(static_cast<double>((*l.next())[1]), n / 1.41421356, n * 0.01);
  EXPECT_EQ(l.phase(), BlockLearner::Phase::settled);
}

TEST(LearnedBlocks, FourThreadsBalanceATriangle) {
  const std::int64_t n = 4096;
  BlockLearner l(n, 4);
  auto cost = [n](std::int64_t i) { return static_cast<double>(n - i); };
  run(l, 20, cost);
  ASSERT_TRUE(l.next().has_value());
  EXPECT_LT(block_imbalance(block_times(*l.next(), cost)), 0.03);
}

TEST(LearnedBlocks, ASlightImbalanceIsMeasuredTwiceBeforeLearning) {
  BlockLearner l(1000, 2);
  l.observe(even_blocks(1000, 2), true, std::vector<double>{1.0, 1.1});
  EXPECT_EQ(l.phase(), BlockLearner::Phase::measuring_even);
  l.observe(even_blocks(1000, 2), true, std::vector<double>{1.0, 1.12});
  EXPECT_EQ(l.phase(), BlockLearner::Phase::learning);
}

TEST(LearnedBlocks, ABalancedLoopStaysOnTheRuntimesSplit) {
  BlockLearner l(1000, 2);
  run(l, 10, [](std::int64_t) { return 1.0; });
  EXPECT_EQ(l.phase(), BlockLearner::Phase::even);
  EXPECT_FALSE(l.next().has_value());
  EXPECT_EQ(l.learned_instances(), 0);
}

TEST(LearnedBlocks, ALoopTooShortToTimeStaysOnTheRuntimesSplit) {
  // Imbalanced, but 10 µs in all: the clock reads would be part of what is learned.
  BlockLearner l(1000, 2);
  run(l, 10, [](std::int64_t i) { return 2e-11 * static_cast<double>(i); });
  EXPECT_EQ(l.phase(), BlockLearner::Phase::even);
}

TEST(LearnedBlocks, TheGuardGoesBackToEvenWhenLearnedBlocksAreSlower) {
  // The measured times say thread 1 is slow, but a learned split is slower
  // than even anyway (a cost the block times cannot see): back to even.
  BlockLearner l(1000, 2);
  for (int k = 0; k < 3; ++k) l.observe(even_blocks(1000, 2), true, std::vector<double>{1.0, 2.0});
  ASSERT_EQ(l.phase(), BlockLearner::Phase::learning);
  for (int k = 0; k < 2; ++k) {
    l.observe(*l.next(), false, std::vector<double>{2.5, 2.4});
    EXPECT_EQ(l.phase(), BlockLearner::Phase::learning);
  }
  l.observe(*l.next(), false, std::vector<double>{2.5, 2.4});
  EXPECT_EQ(l.phase(), BlockLearner::Phase::even);
  EXPECT_TRUE(l.guarded());
  EXPECT_FALSE(l.next().has_value());
  // The verdict is this process's: the next run learns again.
  BlockLearner next_run(1000, 2);
  ASSERT_TRUE(next_run.resume(l.save()));
  EXPECT_EQ(next_run.phase(), BlockLearner::Phase::measuring_even);
}

TEST(LearnedBlocks, ASettledSplitThatDriftsLearnsAgain) {
  const std::int64_t n = 10000;
  BlockLearner l(n, 2);
  run(l, 20, [](std::int64_t i) { return static_cast<double>(i); });
  ASSERT_EQ(l.phase(), BlockLearner::Phase::settled);
  run(l, 1, [n](std::int64_t i) { return static_cast<double>(n - i); });
  EXPECT_EQ(l.phase(), BlockLearner::Phase::settled);  // once may be a noisy spell
  run(l, 1, [n](std::int64_t i) { return static_cast<double>(n - i); });
  EXPECT_EQ(l.phase(), BlockLearner::Phase::learning);
}

TEST(LearnedBlocks, AWarmStartMeasuresEvenOnceThenRunsTheStoredSplit) {
  const std::int64_t n = 10000;
  BlockLearner cold(n, 2);
  auto cost = [](std::int64_t i) { return static_cast<double>(i); };
  run(cold, 20, cost);
  const std::string saved = cold.save();
  BlockLearner warm(n, 2);
  ASSERT_TRUE(warm.resume(saved)) << saved;
  EXPECT_TRUE(warm.resumed());
  EXPECT_FALSE(warm.next().has_value());  // one even instance first: the guard's reference
  run(warm, 1, cost);
  ASSERT_TRUE(warm.next().has_value());
  EXPECT_EQ(*warm.next(), *cold.next());
  // Another size, a damaged line: refused, state unchanged.
  BlockLearner other(n + 1, 2);
  EXPECT_FALSE(other.resume(saved));
  EXPECT_FALSE(other.resumed());
  EXPECT_FALSE(BlockLearner(n, 2).resume("blocks v1 learning 5 0 x 10000"));
  // A loop that went back to even stays there.
  BlockLearner flat(1000, 2);
  run(flat, 5, [](std::int64_t) { return 1.0; });
  BlockLearner flat_warm(1000, 2);
  ASSERT_TRUE(flat_warm.resume(flat.save()));
  EXPECT_EQ(flat_warm.phase(), BlockLearner::Phase::even);
}

TEST(LearnedBlocks, FewerIterationsThanThreads) {
  BlockLearner l(3, 4);
  run(l, 10, [](std::int64_t i) { return 1.0 + static_cast<double>(i); });
  const auto b = l.next().value_or(even_blocks(3, 4));
  EXPECT_EQ(b.front(), 0);
  EXPECT_EQ(b.back(), 3);
  EXPECT_TRUE(std::is_sorted(b.begin(), b.end()));
}

}  // namespace
}  // namespace autosched
