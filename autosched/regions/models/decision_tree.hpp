#pragma once
/// @file
/// A CART classification tree (Breiman et al. 1984) for the region models:
/// each split minimises the weighted Gini impurity
///   n_L·(1 − Σ_c p_Lc²) + n_R·(1 − Σ_c p_Rc²),
/// i.e. maximises Σ_c n_Lc²/n_L + Σ_c n_Rc²/n_R, which is decided in exact
/// integer arithmetic (no rounding picks between near-equal splits), so MPI
/// ranks given the same rows build the same tree bit for bit. Trees are stored flat (16-byte nodes, children adjacent)
/// so that predict() is a short loop over one array.
///
///   TrainingSet data;
///   data.features = 1;
///   data.classes = 2;
///   data.add(std::array{1.0}, 0);
///   data.add(std::array{4.0}, 1);
///   const auto tree = DecisionTree::train(data, {.max_depth = 2});
///   tree.predict(std::array{3.0}.data());  // 1: the root splits at 2.5

#include <autosched/regions/models/training_set.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace autosched {

/// One node of a flat tree (16 bytes). Internal: go to `child` when x[feature] < threshold, else child + 1.
/// Leaf: feature == -1, `child` holds the predicted class.
struct TreeNode {
  double threshold = 0;
  std::int32_t feature = -1;
  std::int32_t child = 0;
  friend bool operator==(const TreeNode&, const TreeNode&) = default;
};
static_assert(sizeof(TreeNode) == 16);

/// How a tree is grown.
struct TreeParams {
  int max_depth = 2;       ///< root alone = depth 0; Apollo's default 2
  int max_features = 0;    ///< features considered per split; 0 = all (a forest passes ⌈√F⌉)
  std::uint64_t seed = 0;  ///< which features are considered, when max_features < F
};

/// A trained classification tree; a value type (copy it, compare its nodes()).
class DecisionTree {
 public:
  DecisionTree() = default;  ///< empty tree: predict() returns 0

  /// CART with Gini impurity. Each feature's rows are sorted once, at the
  /// root; a split then partitions every feature's sorted list stably, so a
  /// level costs O(F·N) (one sweep with incremental class counts per node and
  /// feature considered) on top of the O(F·N log N) sort.
  /// `rows`: indices into `data` to train on (repeats allowed: a bootstrap;
  /// a row drawn k times weighs k); empty = every row once.
  ///
  /// Deterministic: thresholds are midpoints between consecutive distinct
  /// values; among splits of equal Gini the more balanced one wins (it keeps
  /// depth-limited trees able to separate every class: four equally common
  /// classes on one feature tie at all three thresholds, and only the middle
  /// one lets depth 2 tell them apart), then the lower feature, then the lower
  /// threshold. Nodes are numbered breadth-first. A node becomes a leaf at
  /// max_depth, when pure, with fewer than 2 rows, or when no split among the
  /// features considered lowers the impurity; it predicts its majority class,
  /// ties to the lowest, so only classes present in the rows are predicted.
  /// No rows: one leaf predicting 0.
  ///
  /// Throws autosched::Error for an inconsistent `data` (x.size() ≠ rows·F,
  /// a label outside [0, classes), a non-finite value), a row index out of
  /// range, max_depth or max_features < 0, or more than 2^26 rows in `data`
  /// or in `rows` (the exact comparison's 128-bit products).
  static DecisionTree train(const TrainingSet& data, const TreeParams& params, std::span<const std::size_t> rows = {});

  /// The class for feature vector x (x has `features()` values). Iterative
  /// walk over the flat array, no recursion, no allocation. A NaN feature
  /// takes the right branch (NaN < t is false).
  ///
  /// The walk takes exactly depth() steps over a copy of the nodes in which a
  /// leaf compares against NaN and steps onto itself: the loop has no
  /// data-dependent exit for the branch predictor to miss, and trees of mixed
  /// leaf depths cost what full ones do.
  [[nodiscard]] int predict(const double* x) const noexcept {
    if (nodes_.empty()) return 0;
    const TreeNode* w = walk_.data();
    std::int32_t i = 0;
    for (int d = 0; d < depth_; ++d) i = w[i].child + (x[w[i].feature] < w[i].threshold ? 0 : 1);
    return nodes_[static_cast<std::size_t>(i)].child;
  }

  [[nodiscard]] std::span<const TreeNode> nodes() const noexcept { return nodes_; }
  [[nodiscard]] int features() const noexcept { return features_; }
  /// Classes of the training set, at least 1 for a trained tree (the leaf of
  /// an empty training set predicts class 0).
  [[nodiscard]] int classes() const noexcept { return classes_; }
  /// Edges from the root to the deepest reachable leaf; 0 for a single leaf.
  [[nodiscard]] int depth() const noexcept { return depth_; }

  /// Rebuilds a tree read from a file; nullopt unless the array is a valid
  /// tree: non-empty, every internal node's child and child+1 in range and >
  /// its own index (so no cycles), feature in [0, features), leaf class in
  /// [0, classes), threshold finite (leaves' too).
  static std::optional<DecisionTree> from_nodes(std::vector<TreeNode> nodes, int features, int classes);

 private:
  friend class RandomForest;

  /// Rows of `data` with a non-zero weight (all when `weight` is empty) in
  /// ascending order of each feature, feature after feature: the sort a
  /// forest does once for all its trees. Throws for inconsistent `data`.
  static std::vector<std::uint32_t> presort(const TrainingSet& data, std::span<const std::uint32_t> weight = {});
  /// Grows a tree on the rows of weight > 0, each counting `weight[row]`
  /// times; `order` is presort()'s (a superset of those rows is fine).
  static DecisionTree grow(const TrainingSet& data, const TreeParams& params, std::span<const std::uint32_t> weight,
                           std::span<const std::uint32_t> order);
  /// Fills walk_ from nodes_ and sets depth_.
  void prepare_walk();

  std::vector<TreeNode> nodes_;
  /// nodes_ with every leaf i turned into {NaN, feature 0, child i − 1}:
  /// x[0] < NaN is false, so the walk goes on to child + 1 = i, itself.
  std::vector<TreeNode> walk_;
  int features_ = 0;
  int classes_ = 0;
  int depth_ = 0;
};

}  // namespace autosched
