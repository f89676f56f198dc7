#include <autosched/regions/models/random_forest.hpp>

#include <autosched/core/error.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <limits>
#include <random>
#include <string>
#include <utility>

namespace autosched {
namespace {

constexpr int kPackedClasses = 16;          ///< votes kept as 8-bit counters in two words up to here
constexpr std::size_t kPackedTrees = 255;   ///< ... which no class can overflow with this many trees
constexpr std::size_t kSortedTrees = 1024;  ///< otherwise answers sorted on the stack up to here
constexpr std::size_t kLanes = 16;          ///< trees walked in lockstep

/// Uniform in [0, n) from one draw (multiply-shift), the same on every
/// standard library, unlike std::uniform_int_distribution: ranks built with
/// different toolchains must draw the same bootstrap samples.
std::uint64_t below(std::mt19937_64& rng, std::uint64_t n) {
  __extension__ typedef unsigned __int128 Wide;
  return static_cast<std::uint64_t>((static_cast<Wide>(rng()) * n) >> 64);
}

/// ⌈√f⌉ for f ≥ 0, in integers (no rounding question at perfect squares).
int ceil_sqrt(int f) {
  int k = 0;
  while (k * k < f) ++k;
  return k;
}

/// One step of a walk: to child or child + 1 (a leaf: onto itself).
inline std::int32_t step(const TreeNode* n, std::int32_t i, const double* x) noexcept {
  return n[i].child + (x[n[i].feature] < n[i].threshold ? 0 : 1);
}

/// Walks the L trees starting at roots[0, L) in lockstep, `depth` steps
/// each, and writes the classes they end on to answer[0, L). L is a
/// template argument so that the positions can live in registers; the
/// walks are independent chains of loads that the core overlaps.
template <std::size_t L>
void walk_lanes(const TreeNode* nodes, const std::int32_t* leaf_class, const std::int32_t* roots, int depth,
                const double* x, std::int32_t* answer) noexcept {
  std::int32_t at[L];
  for (std::size_t j = 0; j < L; ++j) at[j] = roots[j];
  for (int d = 0; d < depth; ++d)
    for (std::size_t j = 0; j < L; ++j) at[j] = step(nodes, at[j], x);
  for (std::size_t j = 0; j < L; ++j) answer[j] = leaf_class[at[j]];
}

using WalkLanes = void (*)(const TreeNode*, const std::int32_t*, const std::int32_t*, int, const double*,
                           std::int32_t*) noexcept;
template <std::size_t... L>
constexpr std::array<WalkLanes, sizeof...(L)> walk_lanes_table(std::index_sequence<L...>) {
  return {&walk_lanes<L + 1>...};
}
/// walk_lanes<1> … walk_lanes<kLanes>, indexed by L − 1.
constexpr auto kWalkLanes = walk_lanes_table(std::make_index_sequence<kLanes>{});

}  // namespace

RandomForest RandomForest::train(const TrainingSet& data, const ForestParams& params) {
  if (params.trees < 1)
    detail::throw_error("RandomForest::train: trees=" + std::to_string(params.trees) + ": expected >= 1");
  // One sort per feature serves every tree: a bootstrap only reweighs rows.
  const std::vector<std::uint32_t> order = DecisionTree::presort(data);
  std::mt19937_64 rng(params.seed);
  const std::size_t n = data.rows();
  TreeParams tree_params{.max_depth = params.max_depth,
                         .max_features = params.sqrt_features ? ceil_sqrt(std::max(data.features, 0)) : 0};
  std::vector<std::uint32_t> weight(n);
  std::vector<DecisionTree> trees;
  trees.reserve(static_cast<std::size_t>(params.trees));
  for (int t = 0; t < params.trees; ++t) {
    std::fill(weight.begin(), weight.end(), 0u);
    for (std::size_t k = 0; k < n; ++k) ++weight[below(rng, n)];
    tree_params.seed = rng();
    // With no rows every tree is the single leaf predicting 0.
    trees.push_back(DecisionTree::grow(data, tree_params, weight, order));
  }
  auto forest = from_trees(std::move(trees));
  if (!forest) detail::throw_error("RandomForest::train: the trees do not fit one flat array");
  return std::move(*forest);
}

std::optional<RandomForest> RandomForest::from_trees(std::vector<DecisionTree> trees) {
  if (trees.empty()) return std::nullopt;
  std::size_t total = 0;
  for (const DecisionTree& t : trees) {
    if (t.nodes().empty() || t.features() != trees.front().features() || t.classes() != trees.front().classes())
      return std::nullopt;
    total += t.nodes().size();
  }
  if (total > static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max())) return std::nullopt;

  RandomForest forest;
  forest.flat_.reserve(total);
  forest.leaf_class_.reserve(total);
  forest.roots_.reserve(trees.size());
  for (const DecisionTree& t : trees) {
    const auto offset = static_cast<std::int32_t>(forest.flat_.size());
    forest.roots_.push_back(offset);
    forest.depth_ = std::max(forest.depth_, t.depth());
    for (std::size_t i = 0; i < t.nodes_.size(); ++i) {
      TreeNode step = t.walk_[i];
      step.child += offset;  // a leaf's self-step (child = i − 1) moves along with it
      forest.flat_.push_back(step);
      forest.leaf_class_.push_back(t.nodes_[i].feature < 0 ? t.nodes_[i].child : 0);
    }
  }
  forest.features_ = trees.front().features();
  forest.classes_ = trees.front().classes();
  forest.trees_ = std::move(trees);
  return forest;
}

template <class Visit>
void RandomForest::for_each_answer(const double* x, Visit&& visit) const noexcept {
  const std::size_t trees = roots_.size();
  for (std::size_t first = 0; first < trees; first += kLanes) {
    const std::size_t lanes = std::min(kLanes, trees - first);
    std::int32_t answer[kLanes];
    kWalkLanes[lanes - 1](flat_.data(), leaf_class_.data(), roots_.data() + first, depth_, x, answer);
    for (std::size_t j = 0; j < lanes; ++j) visit(answer[j]);
  }
}

int RandomForest::predict(const double* x) const noexcept {
  if (classes_ > kPackedClasses || roots_.size() > kPackedTrees)
    return roots_.size() <= kSortedTrees ? predict_sorted(x) : predict_recounted(x);
  // Byte c & 7 of `low` (classes 0–7) or `high` (8–15) counts class c: in
  // registers, where increments of a vote array would each wait on the last
  // one's store. Leaf classes are < classes_ (train and from_nodes check it).
  std::uint64_t low = 0;
  std::uint64_t high = 0;
  for_each_answer(x, [&](std::int32_t answer) {
    const auto c = static_cast<unsigned>(answer);
    const std::uint64_t one = std::uint64_t{1} << (8 * (c & 7));
    const std::uint64_t upper = std::uint64_t{0} - (c >> 3);  // all ones for classes 8–15
    high += one & upper;
    low += one & ~upper;
  });
  int best = 0;
  std::uint64_t best_votes = 0;
  const auto scan = [&](std::uint64_t word, int first, int last) {
    for (int c = first; c < last; ++c, word >>= 8) {
      const std::uint64_t votes = word & 0xff;
      best = votes > best_votes ? c : best;
      best_votes = votes > best_votes ? votes : best_votes;
    }
  };
  scan(low, 0, std::min(classes_, 8));
  scan(high, 8, classes_);
  return best;
}

int RandomForest::predict_sorted(const double* x) const noexcept {
  // Sorted answers group each class's votes into one run, lowest class
  // first, so the first longest run is the vote with ties to the lowest.
  std::int32_t answer[kSortedTrees];
  std::size_t count = 0;
  for_each_answer(x, [&](std::int32_t a) { answer[count++] = a; });
  std::sort(answer, answer + count);
  int best = 0;
  std::size_t best_votes = 0;
  for (std::size_t begin = 0, end = 0; begin < count; begin = end) {
    while (end < count && answer[end] == answer[begin]) ++end;
    if (end - begin > best_votes) {
      best_votes = end - begin;
      best = answer[begin];
    }
  }
  return best;
}

int RandomForest::predict_recounted(const double* x) const noexcept {
  // No room to remember the answers: count each one's votes afresh.
  const TreeNode* nodes = flat_.data();
  const auto answer_of = [&](std::int32_t root) {
    for (int d = 0; d < depth_; ++d) root = step(nodes, root, x);
    return leaf_class_[static_cast<std::size_t>(root)];
  };
  int best = 0;
  std::size_t best_votes = 0;
  for (const std::int32_t root : roots_) {
    const int c = answer_of(root);
    if (c == best && best_votes > 0) continue;
    std::size_t votes = 0;
    for (const std::int32_t other : roots_) votes += answer_of(other) == c ? 1 : 0;
    if (votes > best_votes || (votes == best_votes && c < best)) {
      best_votes = votes;
      best = c;
    }
  }
  return best;
}

}  // namespace autosched
