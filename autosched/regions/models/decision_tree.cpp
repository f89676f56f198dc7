#include <autosched/regions/models/decision_tree.hpp>

#include <autosched/core/error.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <utility>

namespace autosched {
namespace {

// Split scores are fractions of integer class counts, compared by cross
// multiplication: with n rows a score's numerator is at most n³/4 and its
// denominator n²/4, so the products stay below 2^128 for n ≤ 2^26.
__extension__ typedef unsigned __int128 Wide;
constexpr std::size_t kMaxRows = std::size_t{1} << 26;

/// Uniform in [0, n) from one draw (Lemire's multiply-shift; the bias is
/// below 2^-37 for n ≤ 2^26). Written out rather than taken from
/// std::uniform_int_distribution, whose algorithm differs between standard
/// libraries: ranks built with different toolchains must draw alike.
std::uint64_t below(std::mt19937_64& rng, std::uint64_t n) {
  return static_cast<std::uint64_t>((static_cast<Wide>(rng()) * n) >> 64);
}

/// Σ n_Lc²/n_L + Σ n_Rc²/n_R as num/den, den = n_L·n_R (larger = more balanced).
struct Score {
  Wide num = 0;
  std::uint64_t den = 1;
  double approx_num = 0;  ///< num within a few ulps (den < 2^52 is exact as a double)
};

Score make_score(std::uint64_t left_squares, std::uint64_t nl, std::uint64_t right_squares, std::uint64_t nr) {
  // Every input is below 2^53 and exact as a double: approx_num carries
  // three roundings.
  return {static_cast<Wide>(left_squares) * nr + static_cast<Wide>(right_squares) * nl, nl * nr,
          static_cast<double>(left_squares) * static_cast<double>(nr) +
              static_cast<double>(right_squares) * static_cast<double>(nl)};
}

/// Whether `a` beats `b` by the split rules: strictly higher, or (when `b`
/// is a split, not the unsplit node) equal and more balanced. Decided
/// exactly in 128 bits, but only when the doubles, within 1e-15 of the
/// truth, are too close to tell: most candidates are clearly worse.
[[nodiscard]] bool beats(const Score& a, const Score& b, bool b_is_split) {
  if (a.approx_num * static_cast<double>(b.den) < b.approx_num * static_cast<double>(a.den) * (1 - 1e-12)) return false;
  const Wide lhs = a.num * b.den;
  const Wide rhs = b.num * a.den;
  return lhs > rhs || (b_is_split && lhs == rhs && a.den > b.den);
}

/// One drawn row in one feature's sorted list.
struct Entry {
  double value;
  std::uint32_t row;
  std::int32_t label;
};

struct Split {
  int feature = -1;
  double threshold = 0;
  std::size_t left = 0;  ///< entries of the node's range that go left (a prefix in `feature`'s list)
};

/// A threshold t with a < t ≤ b, so that `x < t` sends a left and b right:
/// the midpoint, unless a and b are adjacent doubles and it rounds onto a.
double threshold_between(double a, double b) {
  const double m = std::midpoint(a, b);
  return m > a ? m : b;
}

/// The split search, with buffers reused across nodes.
class Splitter {
 public:
  Splitter(const TrainingSet& data, const TreeParams& params, std::span<const std::uint32_t> weight)
      : weight_(weight),
        features_(data.features),
        considered_(params.max_features == 0 || params.max_features >= data.features ? data.features
                                                                                     : params.max_features),
        rng_(params.seed),
        candidates_(static_cast<std::size_t>(data.features)),
        left_(static_cast<std::size_t>(data.classes)),
        right_(static_cast<std::size_t>(data.classes)) {
    std::iota(candidates_.begin(), candidates_.end(), 0);
  }

  /// The best split of a node that holds `count` entries from `begin` of
  /// each feature's list (`stride` apart), with weighted class counts `total`
  /// (n rows, Σ total² = `squares`); feature −1 when none lowers the impurity.
  Split best(const Entry* lists, std::size_t stride, std::size_t begin, std::size_t count,
             std::span<const std::uint64_t> total, std::uint64_t n, std::uint64_t squares) {
    // Starting from the unsplit node's score (Σ n_c²/n) and accepting only a
    // strictly higher one is the rule "no split that does not lower the impurity".
    Score best{squares, n, static_cast<double>(squares)};
    bool found = false;
    Split split;
    for (const int f : features_for_node()) {
      const Entry* e = lists + static_cast<std::size_t>(f) * stride + begin;
      if (!(e[0].value < e[count - 1].value)) continue;  // constant here
      std::fill(left_.begin(), left_.end(), 0);
      std::copy(total.begin(), total.end(), right_.begin());
      std::uint64_t left_squares = 0;
      std::uint64_t right_squares = squares;
      std::uint64_t nl = 0;
      for (std::size_t k = 0; k + 1 < count; ++k) {
        // Moving w rows of class c across: (m + w)² − m² = (2m + w)·w.
        const auto c = static_cast<std::size_t>(e[k].label);
        const std::uint64_t w = weight_[e[k].row];
        left_squares += (2 * left_[c] + w) * w;
        left_[c] += w;
        right_squares -= (2 * right_[c] - w) * w;
        right_[c] -= w;
        nl += w;
        if (!(e[k].value < e[k + 1].value)) continue;  // no threshold between equal values
        const std::uint64_t nr = n - nl;
        const Score s = make_score(left_squares, nl, right_squares, nr);
        // Features ascend and thresholds ascend within one, so keeping the
        // first of equals yields "lower feature, then lower threshold".
        if (beats(s, best, found)) {
          best = s;
          found = true;
          split = {f, threshold_between(e[k].value, e[k + 1].value), k + 1};
        }
      }
    }
    return split;
  }

 private:
  /// Every feature, or max_features of them drawn afresh for this node, in
  /// ascending order (the tie rule prefers the lower index).
  std::span<const int> features_for_node() {
    const auto f = static_cast<std::size_t>(features_);
    const auto k = static_cast<std::size_t>(considered_);
    if (k == f) return candidates_;
    std::iota(candidates_.begin(), candidates_.end(), 0);
    for (std::size_t j = 0; j < k; ++j) std::swap(candidates_[j], candidates_[j + below(rng_, f - j)]);
    std::sort(candidates_.begin(), candidates_.begin() + static_cast<std::ptrdiff_t>(k));
    return std::span<const int>(candidates_).first(k);
  }

  std::span<const std::uint32_t> weight_;
  int features_;
  int considered_;
  std::mt19937_64 rng_;
  std::vector<int> candidates_;
  std::vector<std::uint64_t> left_, right_;
};

void check_data(const TrainingSet& data) {
  using std::to_string;
  if (data.features < 0 || data.classes < 0)
    detail::throw_error("DecisionTree::train: features=" + to_string(data.features) +
                        ", classes=" + to_string(data.classes) + ": expected both >= 0");
  if (data.x.size() != data.rows() * static_cast<std::size_t>(data.features))
    detail::throw_error("DecisionTree::train: x has " + to_string(data.x.size()) + " values: expected rows (" +
                        to_string(data.rows()) + ") x features (" + to_string(data.features) + ")");
  if (data.rows() > kMaxRows)
    detail::throw_error("DecisionTree::train: " + to_string(data.rows()) + " rows: expected at most " +
                        to_string(kMaxRows));
  for (const int label : data.y)
    if (label < 0 || label >= data.classes)
      detail::throw_error("DecisionTree::train: label " + to_string(label) + ": expected a class in [0, " +
                          to_string(data.classes) + ")");
  for (const double v : data.x)
    if (!std::isfinite(v))
      detail::throw_error("DecisionTree::train: feature value " + to_string(v) + ": expected a finite number");
}

void check_params(const TreeParams& params) {
  using std::to_string;
  if (params.max_depth < 0)
    detail::throw_error("DecisionTree::train: max_depth=" + to_string(params.max_depth) + ": expected >= 0");
  if (params.max_features < 0)
    detail::throw_error("DecisionTree::train: max_features=" + to_string(params.max_features) +
                        ": expected >= 0 (0 = all)");
}

}  // namespace

DecisionTree DecisionTree::train(const TrainingSet& data, const TreeParams& params, std::span<const std::size_t> rows) {
  check_data(data);
  check_params(params);
  if (rows.size() > kMaxRows)
    detail::throw_error("DecisionTree::train: " + std::to_string(rows.size()) + " rows: expected at most " +
                        std::to_string(kMaxRows));
  std::vector<std::uint32_t> weight(data.rows(), rows.empty() ? 1u : 0u);
  for (const std::size_t r : rows) {
    if (r >= data.rows())
      detail::throw_error("DecisionTree::train: row index " + std::to_string(r) + ": expected one in [0, " +
                          std::to_string(data.rows()) + ")");
    ++weight[r];
  }
  return grow(data, params, weight, presort(data, weight));
}

std::vector<std::uint32_t> DecisionTree::presort(const TrainingSet& data, std::span<const std::uint32_t> weight) {
  check_data(data);
  std::vector<std::uint32_t> rows;
  for (std::size_t r = 0; r < data.rows(); ++r)
    if (weight.empty() || weight[r] > 0) rows.push_back(static_cast<std::uint32_t>(r));
  const auto features = static_cast<std::size_t>(data.features);
  std::vector<std::uint32_t> order(features * rows.size());
  std::vector<std::pair<double, std::uint32_t>> keyed(rows.size());
  for (std::size_t f = 0; f < features; ++f) {
    for (std::size_t k = 0; k < rows.size(); ++k) keyed[k] = {data.row(rows[k])[f], rows[k]};
    // Ordering equal values by row makes the lists, not only the tree, the
    // same on every standard library.
    std::sort(keyed.begin(), keyed.end());
    for (std::size_t k = 0; k < keyed.size(); ++k) order[f * rows.size() + k] = keyed[k].second;
  }
  return order;
}

DecisionTree DecisionTree::grow(const TrainingSet& data, const TreeParams& params,
                                std::span<const std::uint32_t> weight, std::span<const std::uint32_t> order) {
  check_params(params);
  DecisionTree tree;
  tree.features_ = data.features;
  tree.classes_ = std::max(data.classes, 1);
  tree.nodes_.push_back(TreeNode{});  // the root, a leaf predicting 0 until decided

  const auto features = static_cast<std::size_t>(data.features);
  std::uint64_t rows = 0;  // weighted
  std::size_t drawn = 0;   // distinct
  std::vector<std::uint64_t> total(static_cast<std::size_t>(data.classes));
  for (std::size_t r = 0; r < weight.size(); ++r) {
    rows += weight[r];
    drawn += weight[r] > 0 ? 1 : 0;
    total[static_cast<std::size_t>(data.y[r])] += weight[r];
  }

  // Each feature's drawn rows in ascending order, list after list. A node
  // owns the same range [begin, end) of every list; a split keeps each list
  // sorted within both children by partitioning it stably.
  std::vector<Entry> lists(features * drawn + 1);
  if (features > 0) {
    const std::size_t given = order.size() / features;
    for (std::size_t f = 0; f < features; ++f) {
      // Written whether drawn or not, kept when drawn: about 1 row in 3 of a
      // bootstrap is not, a coin flip a branch would keep missing. The one
      // past the end lands in the next list's first slot or the spare one.
      Entry* out = lists.data() + f * drawn;
      for (const std::uint32_t r : order.subspan(f * given, given)) {
        *out = {data.row(r)[f], r, data.y[r]};
        out += weight[r] > 0 ? 1 : 0;
      }
    }
  }

  struct Work {
    std::int32_t node;
    std::size_t begin, end;
    int depth;
  };
  std::vector<Work> queue{{0, 0, drawn, 0}};  // breadth first: nodes are numbered level by level
  Splitter splitter(data, params, weight);
  std::vector<std::uint8_t> goes_left(data.rows());
  std::vector<Entry> spill(drawn + 1);  // a partition's right side (+1: the last entry is also written there)
  for (std::size_t head = 0; head < queue.size() && rows > 0; ++head) {
    const Work w = queue[head];
    std::uint64_t n = rows;
    if (head > 0) {  // the root's counts are known; a child's are those of its range
      n = 0;
      std::fill(total.begin(), total.end(), 0);
      for (std::size_t k = w.begin; k < w.end; ++k) {
        const Entry& e = lists[k];
        total[static_cast<std::size_t>(e.label)] += weight[e.row];
        n += weight[e.row];
      }
    }
    // max_element keeps the first maximum: ties go to the lowest class.
    const auto majority = std::max_element(total.begin(), total.end());
    tree.nodes_[static_cast<std::size_t>(w.node)] = {0, -1, static_cast<std::int32_t>(majority - total.begin())};
    if (w.depth >= params.max_depth || n < 2 || *majority == n) continue;

    std::uint64_t squares = 0;
    for (const std::uint64_t c : total) squares += c * c;
    const Split split = splitter.best(lists.data(), drawn, w.begin, w.end - w.begin, total, n, squares);
    if (split.feature < 0) continue;

    const auto sf = static_cast<std::size_t>(split.feature);
    const std::size_t cut = w.begin + split.left;
    for (std::size_t k = w.begin; k < w.end; ++k) goes_left[lists[sf * drawn + k].row] = k < cut ? 1 : 0;
    for (std::size_t f = 0; f < features; ++f) {
      if (f == sf) continue;  // already left | right
      // Stable partition; each entry is written to both places and the side
      // it belongs to advances, since a branch on a coin-flip side mispredicts.
      Entry* e = lists.data() + f * drawn;
      Entry* left = e + w.begin;
      Entry* right = spill.data();
      for (std::size_t k = w.begin; k < w.end; ++k) {
        const Entry v = e[k];
        const std::size_t l = goes_left[v.row];
        *left = v;
        *right = v;
        left += l;
        right += 1 - l;
      }
      std::copy(spill.data(), right, left);
    }

    const auto child = static_cast<std::int32_t>(tree.nodes_.size());
    tree.nodes_[static_cast<std::size_t>(w.node)] = {split.threshold, split.feature, child};
    tree.nodes_.resize(tree.nodes_.size() + 2);
    queue.push_back({child, w.begin, cut, w.depth + 1});
    queue.push_back({child + 1, cut, w.end, w.depth + 1});
  }
  tree.prepare_walk();
  return tree;
}

void DecisionTree::prepare_walk() {
  // Children point forward only, so one pass in index order sees every
  // parent before its children: depths without recursion.
  std::vector<int> depth(nodes_.size(), -1);
  depth[0] = 0;
  depth_ = 0;
  walk_ = nodes_;
  for (std::size_t i = 0; i < nodes_.size(); ++i) {
    const TreeNode& n = nodes_[i];
    if (n.feature < 0) {
      walk_[i] = {std::numeric_limits<double>::quiet_NaN(), 0, static_cast<std::int32_t>(i) - 1};
      continue;
    }
    if (depth[i] < 0) continue;  // unreachable: harmless, and not part of depth()
    for (const std::int32_t c : {n.child, n.child + 1}) {
      int& dc = depth[static_cast<std::size_t>(c)];
      dc = std::max(dc, depth[i] + 1);
      depth_ = std::max(depth_, dc);
    }
  }
}

std::optional<DecisionTree> DecisionTree::from_nodes(std::vector<TreeNode> nodes, int features, int classes) {
  if (nodes.empty() || features < 0 || classes < 1) return std::nullopt;
  const auto size = static_cast<std::int64_t>(nodes.size());
  if (size > std::numeric_limits<std::int32_t>::max()) return std::nullopt;
  for (std::int64_t i = 0; i < size; ++i) {
    const TreeNode& n = nodes[static_cast<std::size_t>(i)];
    if (!std::isfinite(n.threshold)) return std::nullopt;
    if (n.feature == -1) {
      if (n.child < 0 || n.child >= classes) return std::nullopt;
      continue;
    }
    if (n.feature < 0 || n.feature >= features) return std::nullopt;
    if (n.child <= i || std::int64_t{n.child} + 1 >= size) return std::nullopt;
  }
  DecisionTree tree;
  tree.nodes_ = std::move(nodes);
  tree.features_ = features;
  tree.classes_ = classes;
  tree.prepare_walk();
  return tree;
}

}  // namespace autosched
