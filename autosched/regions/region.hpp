#pragma once
/// @file
/// A tunable region: a piece of code with alternative variants, run many
/// times, each time with a feature vector describing the input. The region
/// learns which variant is fastest for which features and picks it.
///
///   autosched::Region spmv("spmv", {.features = {"rows", Feature::log2("nnz")},
///                                   .variants = {"csr", "ell", "coo"},
///                                   .model = "dtree,depth=3", .min_train = 12});
///   {
///     auto s = spmv.begin({double(rows), double(nnz)});
///     run(s.variant());            // or s.label(), s.value<int>("tile")
///   }                              // timed; the learner sees the time
///
/// Thread-safe and re-entrant: every begin() returns its own scope (no hidden
/// "current" state), so several threads, or a region nested in itself, each
/// measure their own execution. One scope's decision can feed any number of
/// consumers; it is measured once, when the scope ends.
///
/// Persistence: with the store on (AUTOSCHED_DB), a region resumes from the
/// samples and model its id, features and variants left in an earlier run on
/// this system, and saves them after each training and when it is destroyed.

#include <autosched/regions/feature.hpp>
#include <autosched/regions/variant_space.hpp>

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace autosched {

namespace detail {
class RegionState;
}
class RegionScope;

struct RegionOptions {
  // Every member has an initializer so that designated initializers may
  // leave any out without -Wmissing-field-initializers.
  std::vector<Feature> features{};
  /// Variant labels: the common case. Ignored when `knobs` is not empty.
  std::vector<std::string> variants{};
  /// A multi-dimensional variant space (each knob one dimension).
  std::vector<Knob> knobs{};
  /// Model spec (model_spec.hpp); empty: AUTOSCHED_REGION_MODEL, else "auto".
  std::string model{};
  /// Training threshold when the model spec sets no min_train.
  int min_train = 0;
  /// A model file to start from (save_model()); a missing, corrupt or
  /// mismatching file is a warning and the region explores.
  std::string model_file{};
  /// false: this region neither reads nor writes the store.
  bool persist = true;
};

/// Counters of one region, for tests, traces and `autosched info`.
struct RegionStats {
  std::int64_t executions = 0;
  std::int64_t explored = 0;
  std::int64_t trainings = 0;
  std::int64_t drifts = 0;
  std::int64_t vectors = 0;        ///< distinct (quantised) feature vectors seen
  std::int64_t covered_pairs = 0;  ///< (vector, variant) pairs with enough samples
  bool trained = false;
  /// It started from a model file or the store rather than from nothing.
  bool restored = false;
};

class Region {
 public:
  /// Throws autosched::Error for an empty id, a bad model spec, no variants,
  /// more than Region::max_features features, or repeated feature names.
  Region(std::string id, RegionOptions options);
  ~Region();
  Region(const Region&) = delete;
  Region& operator=(const Region&) = delete;

  static constexpr int max_features = 16;

  /// Starts one execution with its features (raw values; the region
  /// quantises them), decides its variant and starts the clock.
  /// Throws autosched::Error when the count differs from the features declared.
  [[nodiscard]] RegionScope begin(std::span<const double> features);
  [[nodiscard]] RegionScope begin(std::initializer_list<double> features);
  /// Starts an execution whose features are added with RegionScope::set_feature;
  /// the decision is made when the variant is first asked for.
  [[nodiscard]] RegionScope begin();

  /// Trains the model now on what has been measured (learners only).
  void train();
  /// Writes a versioned model file (model + samples). Throws autosched::Error
  /// when the file cannot be written.
  void save_model(const std::string& path) const;
  /// Starts from a model file; false (with a warning) when it is unusable.
  bool load_model(const std::string& path);
  /// Queues the samples and model for the store (done after each training
  /// and at destruction anyway).
  void save();

  [[nodiscard]] const std::string& id() const noexcept;
  [[nodiscard]] const VariantSpace& variants() const noexcept;
  [[nodiscard]] const std::vector<Feature>& features() const noexcept;
  [[nodiscard]] std::string model() const;
  [[nodiscard]] RegionStats stats() const;
  /// What the region would run now for these (raw) features, without running
  /// or exploring: the model's answer, -1 when it has none yet.
  [[nodiscard]] int predict(std::span<const double> features) const;
  [[nodiscard]] int predict(std::initializer_list<double> features) const {
    return predict(std::span<const double>(features.begin(), features.size()));
  }

  /// The shared state (the C interface and collective training reach it).
  [[nodiscard]] detail::RegionState& state() const noexcept { return *state_; }

 private:
  std::unique_ptr<detail::RegionState> state_;
};

/// One execution of a region. Ends (and is measured) on destruction, on
/// end() or end(metric); destroyed by an exception, it learns nothing (the
/// time of a failed execution says nothing about its variant). Movable, not
/// copyable; must not outlive its Region. Its decision may be read after it
/// ended. Several threads may read one scope's decision at once when it was
/// made at begin(features); a scope begun without features decides on the
/// first read, which must happen before the scope is shared.
class [[nodiscard]] RegionScope {
 public:
  RegionScope(RegionScope&& other) noexcept;
  RegionScope& operator=(RegionScope&&) = delete;
  RegionScope(const RegionScope&) = delete;
  ~RegionScope();

  /// Adds the next feature (after begin()); throws once the variant was asked
  /// for or when more than declared are given.
  void set_feature(double value);

  /// The variant of this execution; the same on every call.
  [[nodiscard]] int variant();
  [[nodiscard]] std::string label();
  template <class T>
  [[nodiscard]] T value(std::string_view knob) {
    return space().value<T>(variant(), knob);
  }
  /// True when this execution tries a variant to learn about it.
  [[nodiscard]] bool exploring();

  /// Ends now, learning from the elapsed time.
  void end();
  /// Ends now, learning from `metric` (minimised) instead of the time. The
  /// drift rule and `auto` assume a positive quantity (time, energy,
  /// 1/throughput); a negative one is learned, but never judged for drift.
  void end(double metric);
  /// Ends without learning anything (e.g. the execution failed).
  void cancel() noexcept;

 private:
  friend class Region;
  friend struct RegionScopeAccess;
  RegionScope() = default;
  void decide();
  [[nodiscard]] const VariantSpace& space() const noexcept;
  void finish(double metric, bool use_metric);

  detail::RegionState* state_ = nullptr;  ///< null once ended
  const VariantSpace* space_ = nullptr;   ///< the region's, for reads after the end
  std::int64_t start_ns_ = 0;
  int variant_ = -1;
  int entry_ = -1;
  bool exploring_ = false;
  int nfeatures_ = 0;
  int uncaught_ = 0;                            ///< std::uncaught_exceptions() at begin
  double features_[Region::max_features] = {};  ///< quantised
};

}  // namespace autosched
