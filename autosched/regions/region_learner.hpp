#pragma once
/// @file
/// What a region knows and how it decides, without clocks, threads or files:
/// the sample table (per quantised feature vector and variant: count, mean,
/// min and Welford M2), the exploration rules, the trained model and drift
/// detection. Region wraps it with a lock, a clock and persistence; tests
/// drive it directly with planted costs.
///
/// Exploration before training is per feature vector (round-robin or random
/// over the variants that vector has not covered yet), so a periodic input
/// can never pair each vector with one variant (Apollo's global round-robin
/// does). A vector that has covered every variant runs its best one while
/// others still explore. Training data: one row per fully covered vector,
/// labelled by its best variant. Only covered pairs advance min_train, so
/// repeating a measured pair does not.
///
/// The bandit models (epsilon-greedy, ucb, thompson, auto) are select/'s
/// selectors, one per feature vector, started from that vector's samples;
/// the learner only keeps their table and counts their explorations.
///
/// Sources, one concern each: region_learner.cpp (the sample table and what
/// a measurement changes), region_choice.cpp (deciding), region_training.cpp
/// (models, drift), region_samples.cpp (the samples text and merging).

#include <autosched/core/running_stats.hpp>
#include <autosched/regions/model_spec.hpp>
#include <autosched/regions/models/decision_tree.hpp>
#include <autosched/regions/models/random_forest.hpp>
#include <autosched/select/selectors/selector.hpp>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace autosched {

/// Samples of one (feature vector, variant) pair.
struct PairStats {
  RunningStats time;  ///< count, mean, M2 of the metric
  double min = std::numeric_limits<double>::infinity();
  std::int64_t skipped = 0;  ///< warm-up samples not learned from (skip_first)

  void add(double x) noexcept {
    time.add(x);
    if (x < min) min = x;
  }
  void merge(const PairStats& o) noexcept {
    time.merge(o.time);
    if (o.min < min) min = o.min;
    skipped += o.skipped;
  }
  [[nodiscard]] std::int64_t count() const noexcept { return time.count; }
};

struct Choice {
  int variant = 0;
  bool exploring = false;
};

class RegionLearner {
 public:
  /// `min_train` applies when the spec sets none. Throws autosched::Error for
  /// a static variant outside [0, variants).
  RegionLearner(ModelSpec spec, int features, int variants, int min_train);
  ~RegionLearner();
  RegionLearner(const RegionLearner&) = delete;
  RegionLearner& operator=(const RegionLearner&) = delete;

  /// The entry of quantised vector `x` (created on first sight; entries are
  /// never removed, so an index stays valid).
  int entry(std::span<const double> x);
  [[nodiscard]] int find(std::span<const double> x) const;

  Choice choose(int entry);
  /// Learns `metric` (minimised) of `variant` on `entry`; may train.
  void observe(int entry, int variant, double metric);

  /// Trains the model on the covered vectors now (learners only); false when
  /// no vector is covered yet (the region keeps exploring).
  bool train();
  /// The model's variant for quantised `x`; -1 without a trained model.
  [[nodiscard]] int predict(std::span<const double> x) const;

  // State, for stats, persistence and collective training.
  [[nodiscard]] const ModelSpec& spec() const noexcept { return spec_; }
  [[nodiscard]] int features() const noexcept { return features_; }
  [[nodiscard]] int variants() const noexcept { return variants_; }
  [[nodiscard]] int min_train() const noexcept { return min_train_; }
  [[nodiscard]] bool trained() const noexcept { return trained_; }
  [[nodiscard]] std::int64_t executions() const noexcept { return executions_; }
  [[nodiscard]] std::int64_t explored() const noexcept { return explored_; }
  [[nodiscard]] std::int64_t trainings() const noexcept { return trainings_; }
  [[nodiscard]] std::int64_t drifts() const noexcept { return drifts_; }
  [[nodiscard]] std::int64_t covered_pairs() const noexcept { return covered_pairs_; }
  [[nodiscard]] std::int64_t vectors() const noexcept { return static_cast<std::int64_t>(entries_.size()); }
  [[nodiscard]] std::span<const double> vector(int entry) const;
  [[nodiscard]] const PairStats& stats(int entry, int variant) const;
  /// The best variant of an entry by the label statistic; -1 with no samples.
  [[nodiscard]] int best(int entry) const;
  [[nodiscard]] const DecisionTree* tree() const noexcept;
  [[nodiscard]] const RandomForest* forest() const noexcept;

  /// Which samples: every one; this process's since the last collective
  /// training; or the rest (loaded from a file or store, merged collectively).
  enum class Samples : std::uint8_t { all, own, shared, unsaved };
  /// The sample table as text (hex floats: exact round trip).
  [[nodiscard]] std::string samples_text(Samples which = Samples::all) const;
  /// This process's samples since the last call, as text, and forgets them:
  /// what a save adds to the store's row. `replace` is set when the table
  /// was forgotten since (a drift): the row must be replaced, not added to.
  std::string take_unsaved(bool& replace);

  /// Adds a samples_text() to the table (as shared, not own, samples).
  /// False, with the reason in `why`, when it is malformed or has another F
  /// or V; nothing changes then.
  bool load_samples(std::string_view text, std::string* why);
  /// Installs a model read from a file or the store (trees for a learner of
  /// the same kind and shape); false when it does not fit.
  bool install_trees(std::vector<std::vector<TreeNode>> trees, std::string* why);
  /// The model's trees (one for dtree); empty when untrained.
  [[nodiscard]] std::vector<std::span<const TreeNode>> trees() const;

  /// Collective training: replaces the shared samples by `shared` (rank 0's),
  /// merges every rank's own samples into it in the order given, forgets
  /// the own samples and trains. Identical inputs give identical models.
  bool merge_and_train(std::string_view shared, std::span<const std::string> owns, std::string* why);

 private:
  struct Entry;
  // Feature vectors key the table; lookups take a span (no allocation).
  struct KeyHash {
    using is_transparent = void;
    std::size_t operator()(std::span<const double> x) const noexcept {
      std::uint64_t h = 0x9e3779b97f4a7c15ULL;
      for (double v : x) {
        const double canonical = v == 0 ? 0.0 : v;  // -0 == +0 must hash alike
        h ^= std::bit_cast<std::uint64_t>(canonical) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
      }
      return static_cast<std::size_t>(h);
    }
    std::size_t operator()(const std::vector<double>& x) const noexcept { return (*this)(std::span<const double>(x)); }
  };
  struct KeyEqual {
    using is_transparent = void;
    static bool same(std::span<const double> a, std::span<const double> b) noexcept {
      return std::equal(a.begin(), a.end(), b.begin(), b.end());
    }
    bool operator()(const std::vector<double>& a, const std::vector<double>& b) const noexcept { return same(a, b); }
    bool operator()(std::span<const double> a, const std::vector<double>& b) const noexcept { return same(a, b); }
    bool operator()(const std::vector<double>& a, std::span<const double> b) const noexcept { return same(a, b); }
  };

  Choice explore(Entry& e, bool& any);
  void learn(Entry& e, int variant, double metric);
  void after_training();
  void check_drift(Entry& e, int variant, double metric);
  void forget();
  [[nodiscard]] bool covered(const PairStats& s) const noexcept;
  [[nodiscard]] int label(const Entry& e) const;
  [[nodiscard]] int model_predict(const double* x) const noexcept;
  void recount();

  ModelSpec spec_;
  int features_ = 0;
  int variants_ = 0;
  int min_train_ = 0;
  std::vector<std::unique_ptr<Entry>> entries_;
  std::unordered_map<std::vector<double>, int, KeyHash, KeyEqual> index_;
  std::mt19937_64 rng_;
  bool trained_ = false;
  std::optional<DecisionTree> tree_;
  std::optional<RandomForest> forest_;
  std::int64_t executions_ = 0, explored_ = 0, trainings_ = 0, drifts_ = 0;
  std::int64_t covered_pairs_ = 0;
  std::int64_t since_training_ = 0;
  std::int64_t pairs_at_training_ = 0;  ///< covered pairs when last trained (retrain after a drift)
  std::int64_t judged_ = 0, drifting_ = 0;
  std::int64_t explore_period_ = 0;  ///< 1/explore_after, 0 = never
  bool forgotten_since_save_ = false;
};

}  // namespace autosched
