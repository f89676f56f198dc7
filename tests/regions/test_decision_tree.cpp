// The region models' CART tree: splits and leaves computed by hand, the tie
// rules that keep ranks identical, bootstrap weights, and the checks on a
// tree read back from a file.
#include <autosched/regions/models/decision_tree.hpp>

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <random>
#include <span>
#include <vector>

namespace autosched {
namespace {

TrainingSet one_feature(const std::vector<double>& values, const std::vector<int>& labels, int classes) {
  auto data = TrainingSet{.features = 1, .classes = classes};
  for (std::size_t i = 0; i < values.size(); ++i) data.add(std::array{values[i]}, labels[i]);
  return data;
}

TreeNode leaf(int label) { return {0, -1, label}; }
TreeNode split(int feature, double threshold, int child) { return {threshold, feature, child}; }

std::vector<TreeNode> nodes_of(const DecisionTree& t) { return {t.nodes().begin(), t.nodes().end()}; }

int predict1(const DecisionTree& t, double v) { return t.predict(&v); }

/// Fraction of `data`'s rows that `t` classifies as labelled.
double accuracy(const DecisionTree& t, const TrainingSet& data) {
  std::size_t right = 0;
  for (std::size_t i = 0; i < data.rows(); ++i) right += t.predict(data.row(i)) == data.y[i] ? 1 : 0;
  return static_cast<double>(right) / static_cast<double>(data.rows());
}

/// N rows of F features uniform in [0, 1) with random labels: hard to
/// learn, so trees grow as deep as they are allowed to.
TrainingSet noise(std::size_t n, int features, int classes, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  auto data = TrainingSet{.features = features, .classes = classes};
  std::vector<double> row(static_cast<std::size_t>(features));
  for (std::size_t i = 0; i < n; ++i) {
    for (double& v : row) v = u(rng);
    data.add(row, static_cast<int>(rng() % static_cast<std::uint64_t>(classes)));
  }
  return data;
}

TEST(TrainingSet, AddChecksTheRow) {
  auto data = TrainingSet{.features = 2, .classes = 3};
  data.add(std::array{1.0, 2.0}, 2);
  EXPECT_THROW(data.add(std::array{1.0}, 0), Error);
  EXPECT_THROW(data.add(std::array{1.0, 2.0, 3.0}, 0), Error);
  EXPECT_THROW(data.add(std::array{1.0, 2.0}, 3), Error);
  EXPECT_THROW(data.add(std::array{1.0, 2.0}, -1), Error);
  EXPECT_THROW(data.add(std::array{std::nan(""), 2.0}, 0), Error);
  EXPECT_THROW(data.add(std::array{1.0, std::numeric_limits<double>::infinity()}, 0), Error);
  ASSERT_EQ(data.rows(), 1u);
  EXPECT_EQ(data.x.size(), 2u);
  EXPECT_EQ(data.row(0)[1], 2.0);
  EXPECT_EQ(data.y[0], 2);
}

TEST(DecisionTree, DefaultAndEmptyTreesPredictZero) {
  const DecisionTree none;
  EXPECT_TRUE(none.nodes().empty());
  EXPECT_EQ(predict1(none, 5.0), 0);

  const DecisionTree t = DecisionTree::train(TrainingSet{.features = 2, .classes = 3}, {});
  EXPECT_EQ(nodes_of(t), std::vector<TreeNode>{leaf(0)});
  EXPECT_EQ(t.depth(), 0);
  EXPECT_EQ(t.features(), 2);
  EXPECT_EQ(t.classes(), 3);
  const std::array x{1.0, 2.0};
  EXPECT_EQ(t.predict(x.data()), 0);
}

// x = 1..6, labels 0 1 0 1 1 1; parent Σn²/n = (4+16)/6 = 3.33. Candidates,
// Σn_L²/n_L + Σn_R²/n_R (higher = lower Gini):
//   1.5: 1 + 17/5 = 4.40     2.5: 1 + 10/4 = 3.50     3.5: 5/3 + 9/3 = 4.67
//   4.5: 2 + 2    = 4.00     5.5: 13/5 + 1 = 3.60
// so the root splits at 3.5, the midpoint of 3 and 4; its left leaf holds
// {0, 1, 0} and predicts 0, its right one {1, 1, 1}.
TEST(DecisionTree, RootSplitIsTheHandComputedGiniOptimum) {
  const auto data = one_feature({1, 2, 3, 4, 5, 6}, {0, 1, 0, 1, 1, 1}, 2);
  const auto t = DecisionTree::train(data, {.max_depth = 1});
  EXPECT_EQ(nodes_of(t), (std::vector<TreeNode>{split(0, 3.5, 1), leaf(0), leaf(1)}));
  EXPECT_EQ(t.depth(), 1);

  // A separable set stops at pure children whatever the depth allowed.
  const auto pure = DecisionTree::train(one_feature({1, 2, 4, 5}, {0, 0, 1, 1}, 2), {.max_depth = 5});
  EXPECT_EQ(nodes_of(pure), (std::vector<TreeNode>{split(0, 3.0, 1), leaf(0), leaf(1)}));
  EXPECT_EQ(pure.depth(), 1);
}

// Apollo's upstream tree took each leaf's majority from a moved-from vector,
// so every leaf said class 0. x = 0: {0, 2, 2, 2}; x = 1: {1, 1, 1, 0}.
TEST(DecisionTree, LeavesPredictTheirMajority) {
  const auto data = one_feature({0, 0, 0, 0, 1, 1, 1, 1}, {0, 2, 2, 2, 1, 1, 1, 0}, 3);
  const auto t = DecisionTree::train(data, {.max_depth = 2});
  EXPECT_EQ(nodes_of(t), (std::vector<TreeNode>{split(0, 0.5, 1), leaf(2), leaf(1)}));
  EXPECT_EQ(predict1(t, 0), 2);
  EXPECT_EQ(predict1(t, 1), 1);

  // Depth 0: the root is the leaf. Counts {0:1, 2:3} → 2.
  const auto root = DecisionTree::train(one_feature({0, 1, 2, 3}, {2, 0, 2, 2}, 3), {.max_depth = 0});
  EXPECT_EQ(nodes_of(root), std::vector<TreeNode>{leaf(2)});
  // A tie {1:2, 2:2} goes to the lower class, and class 0, absent, is never predicted.
  const auto tie = DecisionTree::train(one_feature({0, 1, 2, 3}, {2, 1, 1, 2}, 3), {.max_depth = 0});
  EXPECT_EQ(nodes_of(tie), std::vector<TreeNode>{leaf(1)});
}

// label = x on x ∈ {0, 1, 2, 3}: all three root thresholds tie in Gini (each
// gives Σn²/n = 2), and only the middle one lets depth 2 separate the four
// classes; Apollo's upstream tree got 1 of 4 right.
TEST(DecisionTree, OracleOfFourClassesOnOneFeature) {
  const auto data = one_feature({0, 1, 2, 3, 0, 1, 2, 3}, {0, 1, 2, 3, 0, 1, 2, 3}, 4);
  for (const int depth : {2, 3}) {
    SCOPED_TRACE(depth);
    const auto t = DecisionTree::train(data, {.max_depth = depth});
    for (int v = 0; v < 4; ++v) EXPECT_EQ(predict1(t, v), v);
    EXPECT_EQ(t.depth(), 2);
    EXPECT_EQ(nodes_of(t), (std::vector<TreeNode>{split(0, 1.5, 1), split(0, 0.5, 3), split(0, 2.5, 5), leaf(0),
                                                  leaf(1), leaf(2), leaf(3)}));
  }
}

// Quadrants (x0, x1) → label x0 xor x1 with unequal counts, so that a root
// split lowers the impurity: (0,0)→0 ×3, (0,1)→1 ×1, (1,0)→1 ×2, (1,1)→0 ×2.
// Parent 34/8 = 4.25; x0 < 0.5: 10/4 + 8/4 = 4.5; x1 < 0.5: 13/5 + 5/3 = 4.27.
TEST(DecisionTree, XorLikeDataAtDepthTwo) {
  auto data = TrainingSet{.features = 2, .classes = 2};
  const auto add = [&](double a, double b, int times) {
    for (int k = 0; k < times; ++k) data.add(std::array{a, b}, (a != b) ? 1 : 0);
  };
  add(0, 0, 3);
  add(0, 1, 1);
  add(1, 0, 2);
  add(1, 1, 2);
  const auto t = DecisionTree::train(data, {.max_depth = 2});
  EXPECT_EQ(t.nodes()[0], split(0, 0.5, 1));
  for (const double a : {0.0, 1.0})
    for (const double b : {0.0, 1.0}) {
      const std::array x{a, b};
      EXPECT_EQ(t.predict(x.data()), a != b ? 1 : 0) << a << " " << b;
    }
  EXPECT_DOUBLE_EQ(accuracy(t, data), 1.0);

  // Balanced XOR: every split leaves both sides as mixed as the parent, so
  // none lowers the impurity and the root stays a leaf (tie → class 0).
  auto balanced = TrainingSet{.features = 2, .classes = 2};
  for (const double a : {0.0, 1.0})
    for (const double b : {0.0, 1.0}) balanced.add(std::array{a, b}, a != b ? 1 : 0);
  EXPECT_EQ(nodes_of(DecisionTree::train(balanced, {.max_depth = 2})), std::vector<TreeNode>{leaf(0)});
}

TEST(DecisionTree, TiesGoToTheLowerFeatureThenTheLowerThreshold) {
  // Two copies of one feature: equal splits, feature 0 wins.
  auto twins = TrainingSet{.features = 2, .classes = 2};
  for (const double v : {1.0, 2.0, 3.0, 4.0}) twins.add(std::array{v, v}, v > 2 ? 1 : 0);
  EXPECT_EQ(DecisionTree::train(twins, {.max_depth = 1}).nodes()[0], split(0, 2.5, 1));
  // Unless feature 1 is strictly better.
  auto better = TrainingSet{.features = 2, .classes = 2};
  for (const double v : {1.0, 2.0, 3.0, 4.0}) better.add(std::array{v == 3 ? 0.0 : v, v}, v > 2 ? 1 : 0);
  EXPECT_EQ(DecisionTree::train(better, {.max_depth = 1}).nodes()[0], split(1, 2.5, 1));
  // x = 0..3, labels 0 1 0 1: 0.5 and 2.5 tie in Gini and balance (1|3 and
  // 3|1, 8/3 each, 1.5 only 2): the lower threshold wins.
  EXPECT_EQ(DecisionTree::train(one_feature({0, 1, 2, 3}, {0, 1, 0, 1}, 2), {.max_depth = 1}).nodes()[0],
            split(0, 0.5, 1));
}

// Repeated row indices count as repeated rows.
TEST(DecisionTree, BootstrapRowsWeighTheRows) {
  // x = 0..3, labels 0 1 0 1 as above: root at 0.5. With x = 3 drawn three
  // times, parent {0:2, 1:4} = 3.33; 0.5: 1 + 17/5 = 4.4; 1.5: 1 + 10/4 = 3.5;
  // 2.5: 5/3 + 3 = 4.67 → the root moves to 2.5.
  const auto data = one_feature({0, 1, 2, 3}, {0, 1, 0, 1}, 2);
  EXPECT_EQ(nodes_of(DecisionTree::train(data, {.max_depth = 1})),
            (std::vector<TreeNode>{split(0, 0.5, 1), leaf(0), leaf(1)}));
  const std::vector<std::size_t> rows{0, 1, 2, 3, 3, 3};
  EXPECT_EQ(nodes_of(DecisionTree::train(data, {.max_depth = 1}, rows)),
            (std::vector<TreeNode>{split(0, 2.5, 1), leaf(0), leaf(1)}));
  // A majority made by repeats: row 1 (label 1) twice against row 0 once.
  const std::vector<std::size_t> twice{1, 1, 0};
  EXPECT_EQ(nodes_of(DecisionTree::train(data, {.max_depth = 0}, twice)), std::vector<TreeNode>{leaf(1)});
  EXPECT_EQ(nodes_of(DecisionTree::train(data, {.max_depth = 0})), std::vector<TreeNode>{leaf(0)});

  // In general: training on a bootstrap equals training on the rows it names.
  const auto base = noise(200, 3, 4, 11);
  std::mt19937_64 rng(5);
  std::vector<std::size_t> draw(base.rows());
  auto expanded = TrainingSet{.features = 3, .classes = 4};
  for (std::size_t& r : draw) {
    r = rng() % base.rows();
    expanded.add(std::span(base.row(r), 3), base.y[r]);
  }
  EXPECT_EQ(nodes_of(DecisionTree::train(base, {.max_depth = 4}, draw)),
            nodes_of(DecisionTree::train(expanded, {.max_depth = 4})));
  EXPECT_THROW((void)DecisionTree::train(base, {}, std::vector<std::size_t>{0, base.rows()}), Error);
}

TEST(DecisionTree, MaxDepthIsRespected) {
  const auto data = noise(300, 3, 5, 1);
  for (int depth = 0; depth <= 6; ++depth) {
    SCOPED_TRACE(depth);
    const auto t = DecisionTree::train(data, {.max_depth = depth});
    // 300 random labels keep every level impure: the tree uses all it may.
    EXPECT_EQ(t.depth(), depth);
    // The depth from the nodes themselves agrees.
    const auto back = DecisionTree::from_nodes(nodes_of(t), 3, 5);
    ASSERT_TRUE(back);
    EXPECT_EQ(back->depth(), depth);
  }
  // Depth 0: a single leaf with the majority.
  const auto leaf_only = DecisionTree::train(one_feature({0, 1, 2, 3, 4}, {1, 0, 1, 2, 1}, 3), {.max_depth = 0});
  EXPECT_EQ(nodes_of(leaf_only), std::vector<TreeNode>{leaf(1)});
  EXPECT_THROW((void)DecisionTree::train(data, {.max_depth = -1}), Error);
}

TEST(DecisionTree, TrainingIsDeterministic) {
  const auto data = noise(500, 5, 4, 2);
  const TreeParams params{.max_depth = 5, .max_features = 2, .seed = 3};
  const auto a = DecisionTree::train(data, params);
  const auto b = DecisionTree::train(data, params);
  EXPECT_EQ(nodes_of(a), nodes_of(b));
  EXPECT_GT(a.nodes().size(), 30u);
  // The seed only chooses the features considered.
  EXPECT_NE(nodes_of(a), nodes_of(DecisionTree::train(data, {.max_depth = 5, .max_features = 2, .seed = 4})));
  EXPECT_EQ(nodes_of(DecisionTree::train(data, {.max_depth = 5, .seed = 3})),
            nodes_of(DecisionTree::train(data, {.max_depth = 5, .seed = 4})));
}

// Only feature 0 of 9 tells the classes apart: a root that may look at k
// random features splits in about k/9 of the seeds, always on feature 0.
TEST(DecisionTree, MaxFeaturesDrawsThatManyFeaturesPerSplit) {
  auto data = TrainingSet{.features = 9, .classes = 2};
  for (int i = 0; i < 20; ++i) data.add(std::array{i % 2 * 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0}, i % 2);
  const auto split_share = [&](int max_features) {
    int splits = 0;
    for (std::uint64_t seed = 0; seed < 300; ++seed) {
      const auto t = DecisionTree::train(data, {.max_depth = 1, .max_features = max_features, .seed = seed});
      if (t.nodes().size() > 1) {
        EXPECT_EQ(t.nodes()[0], split(0, 0.5, 1));
        ++splits;
      }
    }
    return splits / 300.0;
  };
  EXPECT_NEAR(split_share(3), 3 / 9.0, 0.08);
  EXPECT_NEAR(split_share(1), 1 / 9.0, 0.06);
  EXPECT_EQ(split_share(0), 1.0);
  EXPECT_EQ(split_share(9), 1.0);
  EXPECT_EQ(split_share(20), 1.0);
}

// A thousand rows, eight features, eight classes: label = ⌊8·x0⌋.
TEST(DecisionTree, LearnsALargerRule) {
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> u(0, 1);
  auto data = TrainingSet{.features = 8, .classes = 8};
  auto bits = TrainingSet{.features = 8, .classes = 8};
  std::array<double, 8> row{};
  for (int i = 0; i < 1000; ++i) {
    for (double& v : row) v = u(rng);
    data.add(row, static_cast<int>(row[0] * 8));
    bits.add(row, (row[1] < 0.5 ? 0 : 4) + (row[4] < 0.5 ? 0 : 2) + (row[6] < 0.5 ? 0 : 1));
  }
  // With equally common classes every cut between two steps ties in Gini,
  // so sampling noise picks the cut, often one class off an end: eight
  // steps take more than log2(8) levels (here 66% at depth 3, 89% at 4).
  EXPECT_GE(accuracy(DecisionTree::train(data, {.max_depth = 6}), data), 0.95);
  EXPECT_EQ(accuracy(DecisionTree::train(data, {.max_depth = 8}), data), 1.0);
  // Three independent bits: depth 3 is exactly enough.
  EXPECT_EQ(accuracy(DecisionTree::train(bits, {.max_depth = 3}), bits), 1.0);
}

TEST(DecisionTree, TrainRejectsAnInconsistentTrainingSet) {
  TrainingSet data = one_feature({0, 1}, {0, 1}, 2);
  data.y.push_back(0);  // a label without its row
  EXPECT_THROW((void)DecisionTree::train(data, {}), Error);
  data = one_feature({0, 1}, {0, 1}, 2);
  data.y[1] = 2;
  EXPECT_THROW((void)DecisionTree::train(data, {}), Error);
  data = one_feature({0, 1}, {0, 1}, 2);
  data.x[0] = std::nan("");
  EXPECT_THROW((void)DecisionTree::train(data, {}), Error);
  EXPECT_THROW((void)DecisionTree::train(one_feature({0, 1}, {0, 1}, 2), {.max_features = -1}), Error);
}

TEST(DecisionTree, FromNodesRejectsWhatIsNotATree) {
  const auto ok = [](std::vector<TreeNode> nodes) { return DecisionTree::from_nodes(std::move(nodes), 2, 3); };
  EXPECT_TRUE(ok({split(1, 0.5, 1), leaf(2), leaf(0)}));
  EXPECT_FALSE(ok({}));
  EXPECT_FALSE(ok({split(1, 0.5, 2), leaf(2), leaf(0)}));                    // child + 1 out of range
  EXPECT_FALSE(ok({split(1, 0.5, -1), leaf(2), leaf(0)}));                   // child out of range
  EXPECT_FALSE(ok({split(1, 0.5, 0), leaf(2), leaf(0)}));                    // child = itself: a cycle
  EXPECT_FALSE(ok({split(1, 0.5, 1), split(0, 0.5, 0), leaf(0), leaf(1)}));  // child < own index
  EXPECT_FALSE(ok({split(2, 0.5, 1), leaf(2), leaf(0)}));                    // feature ≥ F
  EXPECT_FALSE(ok({split(-2, 0.5, 1), leaf(2), leaf(0)}));                   // neither leaf nor feature
  EXPECT_FALSE(ok({split(1, 0.5, 1), leaf(3), leaf(0)}));                    // leaf class ≥ classes
  EXPECT_FALSE(ok({split(1, 0.5, 1), leaf(-1), leaf(0)}));                   // negative class
  EXPECT_FALSE(ok({split(1, std::nan(""), 1), leaf(2), leaf(0)}));           // NaN threshold
  EXPECT_FALSE(ok({split(1, std::numeric_limits<double>::infinity(), 1), leaf(2), leaf(0)}));
  EXPECT_FALSE(DecisionTree::from_nodes({leaf(0)}, 2, 0));  // no class to predict

  const auto t = ok({split(1, 0.5, 1), leaf(2), leaf(0)});
  const std::array low{9.0, 0.25};
  const std::array high{-9.0, 0.5};
  EXPECT_EQ(t->predict(low.data()), 2);
  EXPECT_EQ(t->predict(high.data()), 0);
  EXPECT_EQ(t->depth(), 1);
}

TEST(DecisionTree, TrainedNodesRoundTrip) {
  const auto data = noise(400, 4, 6, 9);
  const auto t = DecisionTree::train(data, {.max_depth = 4});
  const auto back = DecisionTree::from_nodes(nodes_of(t), t.features(), t.classes());
  ASSERT_TRUE(back);
  EXPECT_EQ(nodes_of(*back), nodes_of(t));
  EXPECT_EQ(back->depth(), t.depth());
  const auto probes = noise(500, 4, 6, 10);
  for (std::size_t i = 0; i < probes.rows(); ++i) EXPECT_EQ(back->predict(probes.row(i)), t.predict(probes.row(i)));
}

}  // namespace
}  // namespace autosched
