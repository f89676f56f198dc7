// The region models' random forest: the vote (through every counting path),
// seeded bootstraps, √F features per split, and assembly from stored trees.
#include <autosched/regions/models/random_forest.hpp>

#include <gtest/gtest.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

namespace autosched {
namespace {

TreeNode leaf(int label) { return {0, -1, label}; }
TreeNode split(int feature, double threshold, int child) { return {threshold, feature, child}; }

DecisionTree tree(std::vector<TreeNode> nodes, int features, int classes) {
  auto t = DecisionTree::from_nodes(std::move(nodes), features, classes);
  EXPECT_TRUE(t);
  return t.value_or(DecisionTree{});
}

int predict1(const RandomForest& f, double v) { return f.predict(&v); }

std::vector<TreeNode> nodes_of(const DecisionTree& t) { return {t.nodes().begin(), t.nodes().end()}; }

/// label = ⌊8·x0⌋ on eight uniform features.
TrainingSet staircase(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  auto data = TrainingSet{.features = 8, .classes = 8};
  std::array<double, 8> row{};
  for (std::size_t i = 0; i < n; ++i) {
    for (double& v : row) v = u(rng);
    data.add(row, static_cast<int>(row[0] * 8));
  }
  return data;
}

// Three one-split trees on x0 whose answers move apart along x:
//   A: x < 0.5 → 0 else 1;  B: x < 1.5 → 1 else 2;  C: always 2.
// x = 0 votes {0, 1, 2}: a three-way tie → 0; x = 1 votes {1, 1, 2} → 1;
// x = 2 votes {1, 2, 2} → 2.
TEST(RandomForest, MajorityVoteWithTiesToTheLowestClass) {
  const auto forest =
      RandomForest::from_trees({tree({split(0, 0.5, 1), leaf(0), leaf(1)}, 1, 3),
                                tree({split(0, 1.5, 1), leaf(1), leaf(2)}, 1, 3), tree({leaf(2)}, 1, 3)});
  ASSERT_TRUE(forest);
  EXPECT_EQ(predict1(*forest, 0), 0);
  EXPECT_EQ(predict1(*forest, 1), 1);
  EXPECT_EQ(predict1(*forest, 2), 2);
  EXPECT_EQ(forest->trees().size(), 3u);
  EXPECT_EQ(forest->features(), 1);
  EXPECT_EQ(forest->classes(), 3);

  // Two against two: the lower class, whichever trees come first.
  const auto even = RandomForest::from_trees(
      {tree({leaf(2)}, 1, 3), tree({leaf(1)}, 1, 3), tree({leaf(2)}, 1, 3), tree({leaf(1)}, 1, 3)});
  ASSERT_TRUE(even);
  EXPECT_EQ(predict1(*even, 0), 1);
}

// Classes 8–15 are counted in the second vote word.
TEST(RandomForest, VoteOverTheUpperPackedClasses) {
  const auto forest = RandomForest::from_trees(
      {tree({leaf(11)}, 1, 16), tree({split(0, 0.5, 1), leaf(9), leaf(15)}, 1, 16), tree({leaf(7)}, 1, 16),
       tree({leaf(9)}, 1, 16), tree({split(0, 0.5, 1), leaf(11), leaf(15)}, 1, 16)});
  ASSERT_TRUE(forest);
  EXPECT_EQ(predict1(*forest, 0), 9);   // 11, 9, 7, 9, 11: a tie of 9 and 11
  EXPECT_EQ(predict1(*forest, 1), 15);  // 11, 15, 7, 9, 15
}

// More trees than walk in lockstep (16), of different depths: the leaves
// of the shallow ones wait in place while the deep ones finish.
TEST(RandomForest, VoteOverMoreTreesThanOneLockstep) {
  // Depth 2 on x0 then x1: (x0 < 0.5, x1 < 0.5) → 0, 1; otherwise 2, 3.
  const auto deep =
      tree({split(0, 0.5, 1), split(1, 0.5, 3), split(1, 0.5, 5), leaf(0), leaf(1), leaf(2), leaf(3)}, 2, 4);
  std::vector<DecisionTree> trees;
  for (int k = 0; k < 9; ++k) trees.push_back(deep);
  for (int k = 0; k < 8; ++k) trees.push_back(tree({leaf(1)}, 2, 4));
  const auto forest = RandomForest::from_trees(trees);
  ASSERT_TRUE(forest);
  const auto at = [&](double a, double b) {
    const std::array x{a, b};
    return forest->predict(x.data());
  };
  EXPECT_EQ(at(0, 0), 0);  // 9 × 0 against 8 × 1
  EXPECT_EQ(at(0, 1), 1);  // 17 × 1
  EXPECT_EQ(at(1, 0), 2);
  EXPECT_EQ(at(1, 1), 3);
  trees.push_back(tree({leaf(1)}, 2, 4));  // 9 against 9: the lower class
  EXPECT_EQ(RandomForest::from_trees(trees)->predict(std::array{1.0, 1.0}.data()), 1);
}

// Above 16 classes or 255 trees the answers are sorted rather than counted,
// and above 1024 trees recounted: the same rule either way.
TEST(RandomForest, VoteOverManyClassesAndManyTrees) {
  const auto sorted = RandomForest::from_trees(
      {tree({split(0, 0.5, 1), leaf(99), leaf(70)}, 1, 100), tree({leaf(70)}, 1, 100), tree({leaf(99)}, 1, 100)});
  ASSERT_TRUE(sorted);
  EXPECT_EQ(predict1(*sorted, 0), 99);  // 99, 70, 99
  EXPECT_EQ(predict1(*sorted, 1), 70);  // 70, 70, 99

  std::vector<DecisionTree> few_classes;
  for (int k = 0; k < 150; ++k) few_classes.push_back(tree({split(0, 0.5, 1), leaf(2), leaf(0)}, 1, 3));
  for (int k = 0; k < 150; ++k) few_classes.push_back(tree({leaf(1)}, 1, 3));
  const auto wide = RandomForest::from_trees(few_classes);
  EXPECT_EQ(predict1(*wide, 0), 1);  // 150 × 2 against 150 × 1
  EXPECT_EQ(predict1(*wide, 1), 0);  // 150 × 0 against 150 × 1

  std::vector<DecisionTree> trees;
  for (int k = 0; k < 600; ++k) trees.push_back(tree({split(0, 0.5, 1), leaf(80), leaf(81)}, 1, 100));
  for (int k = 0; k < 600; ++k) trees.push_back(tree({leaf(75)}, 1, 100));
  trees.push_back(tree({leaf(3)}, 1, 100));
  const auto many = RandomForest::from_trees(trees);
  ASSERT_TRUE(many);
  EXPECT_EQ(predict1(*many, 0), 75);  // 600 × 80 against 600 × 75
  EXPECT_EQ(predict1(*many, 1), 75);  // 600 × 81 against 600 × 75
  trees.push_back(tree({split(0, 0.5, 1), leaf(80), leaf(81)}, 1, 100));
  const auto more = RandomForest::from_trees(std::move(trees));
  EXPECT_EQ(predict1(*more, 0), 80);  // 601 against 600
}

TEST(RandomForest, FromTreesRejectsEmptyAndMismatchedTrees) {
  EXPECT_FALSE(RandomForest::from_trees({}));
  EXPECT_FALSE(RandomForest::from_trees({tree({leaf(0)}, 1, 3), tree({leaf(0)}, 2, 3)}));
  EXPECT_FALSE(RandomForest::from_trees({tree({leaf(0)}, 1, 3), tree({leaf(0)}, 1, 4)}));
  EXPECT_FALSE(RandomForest::from_trees({tree({leaf(0)}, 1, 3), DecisionTree{}}));
  EXPECT_TRUE(RandomForest::from_trees({tree({leaf(0)}, 1, 3), tree({leaf(0)}, 1, 3)}));
}

TEST(RandomForest, DefaultAndEmptyForestsPredictZero) {
  EXPECT_EQ(predict1(RandomForest{}, 1.0), 0);
  const auto f = RandomForest::train(TrainingSet{.features = 1, .classes = 4}, {.trees = 3});
  EXPECT_EQ(f.trees().size(), 3u);
  EXPECT_EQ(predict1(f, 1.0), 0);
  EXPECT_THROW((void)RandomForest::train(TrainingSet{.features = 1, .classes = 4}, {.trees = 0}), Error);
}

TEST(RandomForest, TheSeedDeterminesTheForest) {
  const auto data = staircase(300, 1);
  const ForestParams params{.trees = 10, .max_depth = 4, .seed = 17, .sqrt_features = true};
  const auto a = RandomForest::train(data, params);
  const auto b = RandomForest::train(data, params);
  ASSERT_EQ(a.trees().size(), 10u);
  ASSERT_EQ(b.trees().size(), 10u);
  for (std::size_t t = 0; t < 10; ++t) EXPECT_EQ(nodes_of(a.trees()[t]), nodes_of(b.trees()[t]));
  // The bootstraps differ from tree to tree, and from seed to seed.
  EXPECT_NE(nodes_of(a.trees()[0]), nodes_of(a.trees()[1]));
  auto other = params;
  other.seed = 18;
  EXPECT_NE(nodes_of(a.trees()[0]), nodes_of(RandomForest::train(data, other).trees()[0]));
}

// Only feature 0 of 9 tells the classes apart, so a depth-1 tree splits only
// when its root's ⌈√9⌉ = 3 random features include it: in about a third of
// the trees. Bagging alone considers every feature and always splits.
TEST(RandomForest, SqrtFeaturesConsidersThreeOfNine) {
  auto data = TrainingSet{.features = 9, .classes = 2};
  for (int i = 0; i < 40; ++i) data.add(std::array{i % 2 * 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0}, i % 2);
  const auto splits = [&](bool sqrt_features) {
    const auto f = RandomForest::train(data, {.trees = 150, .max_depth = 1, .seed = 5, .sqrt_features = sqrt_features});
    int n = 0;
    for (const auto& t : f.trees()) n += t.nodes().size() > 1 ? 1 : 0;
    return n;
  };
  EXPECT_NEAR(splits(true), 50, 15);
  EXPECT_EQ(splits(false), 150);
}

TEST(RandomForest, LearnsARuleFromBootstraps) {
  const auto data = staircase(1000, 2);
  const auto f = RandomForest::train(data, {.trees = 10, .max_depth = 6, .seed = 1});
  EXPECT_EQ(f.features(), 8);
  EXPECT_EQ(f.classes(), 8);
  const auto probe = staircase(1000, 3);
  std::size_t right = 0;
  for (std::size_t i = 0; i < probe.rows(); ++i) right += f.predict(probe.row(i)) == probe.y[i] ? 1 : 0;
  EXPECT_GE(static_cast<double>(right) / 1000.0, 0.95);
}

}  // namespace
}  // namespace autosched
