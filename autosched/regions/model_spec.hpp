#pragma once
/// @file
/// How a region learns, as text (Apollo's grammar, `Name[,key=value]*`), from
/// the region's options or AUTOSCHED_REGION_MODEL:
///   static,variant=2            always variant 2 (Apollo: Static,policy=2)
///   round-robin                 each feature vector cycles through the variants
///   random,seed=7               uniform choice, reproducible
///   dtree,depth=3,min_train=32  explore until trained, then a CART tree decides
///   rforest,trees=10,depth=4,features=sqrt
///   epsilon-greedy,epsilon=0.1 | ucb,c=1 | thompson   a bandit per feature vector
///   auto                        the loops' low-regret selector, per feature vector
/// Keys every model accepts:
///   min_train=N    train once N (vector, variant) pairs are covered (0: only
///                  on train() or the period)
///   coverage=k     a pair is covered after k samples; a vector labels the
///                  training set only when all its variants are covered (1)
///   label=mean|min which statistic names a vector's best variant (mean)
///   skip_first=0|1 the first sample of each pair is a warm-up, not learned (0)
///   explore_after=ε  after training, one execution in 1/ε of each vector tries
///                  another variant, so the data stays current (0.01; 0 = never)
///   retrain=N      train every N executions, also before the first training
///                  (0 = only on min_train, train() and drift)
///   drift=R, drift_share=S, drift_after=K  Artemis' rule: a vector drifts once
///                  K samples in a row take more than R × the time predicted at
///                  training; when a share S of the judged vectors drift, the
///                  region forgets its samples and explores again (2.0, 0.5, 3)
/// Apollo's names (Static, RoundRobin, Random, DecisionTree, RandomForest) and
/// keys (policy, max_depth, num_trees) are accepted. Unknown names and keys
/// and bad values are errors that list what is accepted.

#include <cstdint>
#include <string>
#include <string_view>

namespace autosched {

struct ModelSpec {
  enum class Kind : std::uint8_t {
    static_,
    round_robin,
    random,
    dtree,
    rforest,
    epsilon_greedy,
    ucb,
    thompson,
    automatic
  };
  Kind kind = Kind::static_;
  int variant = 0;  ///< static
  // Learners (dtree, rforest).
  int depth = 2;
  int trees = 10;
  bool sqrt_features = false;
  bool explore_random = false;  ///< explore=random (default round-robin)
  // Bandits.
  double epsilon = 0.1;
  double ucb_c = 1.0;
  std::uint64_t seed = 0;
  // Every model.
  int min_train = 0;  ///< 0: from the region's options
  bool min_train_set = false;
  int coverage = 1;
  bool label_by_min = false;
  bool skip_first = false;
  double explore_after = 0.01;
  std::int64_t retrain = 0;
  double drift = 2.0;
  double drift_share = 0.5;
  int drift_after = 3;
  std::string load;  ///< load=<path>: a model file to start from
  std::string text;  ///< as written

  /// Learners train a model; the others decide from the sample table alone.
  [[nodiscard]] bool trains() const noexcept { return kind == Kind::dtree || kind == Kind::rforest; }
  [[nodiscard]] std::string_view name() const noexcept;
  friend bool operator==(const ModelSpec&, const ModelSpec&) = default;
};

/// Parses a model spec; `source` names the input in errors (e.g.
/// "AUTOSCHED_REGION_MODEL"). Throws autosched::Error.
ModelSpec parse_model_spec(std::string_view text, std::string_view source);

/// AUTOSCHED_REGION_MODEL, or "auto" when unset (Apollo defaults to Static,
/// no tuning; a region here exists to be tuned). A bad value is warned about
/// once and "auto" is used.
ModelSpec default_model_spec();

}  // namespace autosched
