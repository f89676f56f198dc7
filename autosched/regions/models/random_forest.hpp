#pragma once
/// @file
/// A forest of CART trees (Breiman 2001) voting by majority: each tree sees a
/// bootstrap sample of the rows (bagging, what Apollo does) and, optionally,
/// only ⌈√F⌉ random features per split (a true random forest). All trees'
/// nodes also live in one contiguous array, so predict() walks them without
/// chasing a pointer per tree and counts votes on the stack.
///
///   const auto forest = RandomForest::train(data, {.trees = 10, .max_depth = 4, .seed = 7});
///   const int technique = forest.predict(features);

#include <autosched/regions/models/decision_tree.hpp>
#include <autosched/regions/models/training_set.hpp>

#include <cstdint>
#include <optional>
#include <vector>

namespace autosched {

/// How a forest is grown.
struct ForestParams {
  int trees = 10;          ///< at least 1
  int max_depth = 2;       ///< per tree; root alone = depth 0
  std::uint64_t seed = 0;  ///< bootstrap samples and feature draws
  bool sqrt_features =
      false;  ///< true: each split considers ⌈√F⌉ random features (a true random forest); false: bagging only (Apollo)
};

/// A trained forest; a value type.
class RandomForest {
 public:
  RandomForest() = default;  ///< no trees: predict() returns 0

  /// Each tree on a bootstrap sample (N draws with replacement) from
  /// std::mt19937_64 seeded with params.seed: deterministic for a seed. Per
  /// tree the generator gives N row draws, then the tree's own feature seed.
  /// Throws autosched::Error for trees < 1 and whatever DecisionTree::train
  /// rejects.
  static RandomForest train(const TrainingSet& data, const ForestParams& params);

  /// Majority vote; ties go to the lowest class. No allocation.
  ///
  /// Up to 16 trees at a time are walked in lockstep, each for the forest's
  /// depth (a leaf steps onto itself, see DecisionTree::predict), by code
  /// compiled for that number of trees: the positions stay in registers and
  /// the walks are independent chains of loads that the core overlaps. Up to
  /// 16 classes and 255 trees the votes are 8-bit counters in two registers;
  /// otherwise up to 1024 trees' answers are sorted on the stack, and beyond
  /// that each answer's votes are recounted (quadratic in trees, for a shape
  /// nobody should need).
  [[nodiscard]] int predict(const double* x) const noexcept;

  [[nodiscard]] const std::vector<DecisionTree>& trees() const noexcept { return trees_; }
  [[nodiscard]] int features() const noexcept { return features_; }
  [[nodiscard]] int classes() const noexcept { return classes_; }

  /// A forest of trees read from a file; nullopt if `trees` is empty, a tree
  /// has no nodes (a default-constructed one), or the trees disagree on
  /// features or classes.
  static std::optional<RandomForest> from_trees(std::vector<DecisionTree> trees);

 private:
  /// Calls visit(class) for each tree's answer for x, walking the trees in lockstep.
  template <class Visit>
  void for_each_answer(const double* x, Visit&& visit) const noexcept;
  [[nodiscard]] int predict_sorted(const double* x) const noexcept;
  [[nodiscard]] int predict_recounted(const double* x) const noexcept;

  std::vector<DecisionTree> trees_;
  /// Every tree's walk array (leaves step onto themselves, see
  /// DecisionTree::predict), children as indices into flat_.
  std::vector<TreeNode> flat_;
  std::vector<std::int32_t> leaf_class_;  ///< per node of flat_: the class, for leaves
  std::vector<std::int32_t> roots_;       ///< where each tree starts in flat_
  int depth_ = 0;                         ///< the deepest tree's: steps every walk takes
  int features_ = 0;
  int classes_ = 0;
};

}  // namespace autosched
