// The public face of a region: Region (begin, train, inspection) and
// RegionScope (one measured execution). The shared state, its registry and
// its persistence are region_state.cpp, region_registry.cpp and
// region_persistence.cpp.
#include <autosched/regions/region.hpp>

#include <autosched/measure/clock.hpp>
#include <autosched/core/error.hpp>
#include <autosched/regions/detail/region_state.hpp>

#include <algorithm>
#include <cmath>
#include <exception>
#include <utility>

namespace autosched {

// ---------------------------------------------------------------- Region

Region::Region(std::string id, RegionOptions options)
    : state_(std::make_unique<detail::RegionState>(std::move(id), std::move(options))) {}

Region::~Region() = default;

RegionScope Region::begin(std::span<const double> values) {
  detail::RegionState& s = *state_;
  const auto f = s.features.size();
  if (values.size() != f) {
    detail::throw_error("region '" + s.id + "': begin() got " + std::to_string(values.size()) +
                        " features, it declares " + std::to_string(f));
  }
  RegionScope scope;
  scope.state_ = &s;
  scope.space_ = &s.space;
  for (std::size_t i = 0; i < f; ++i) {
    const double q = s.features[i].quantise(values[i]);
    if (!std::isfinite(q)) detail::throw_error(detail::not_finite(s, i, values[i]));
    scope.features_[i] = q;
  }
  scope.nfeatures_ = static_cast<int>(f);
  scope.decide();
  scope.uncaught_ = std::uncaught_exceptions();
  scope.start_ns_ = measure::now();
  return scope;
}

RegionScope Region::begin(std::initializer_list<double> values) {
  return begin(std::span<const double>(values.begin(), values.size()));
}

RegionScope Region::begin() {
  RegionScope scope;
  scope.state_ = state_.get();
  scope.space_ = &state_->space;
  scope.uncaught_ = std::uncaught_exceptions();
  scope.start_ns_ = measure::now();
  return scope;
}

void Region::train() {
  std::lock_guard lock(state_->mutex);
  if (state_->learner.train()) state_->save_to_store();
}

const std::string& Region::id() const noexcept { return state_->id; }
const VariantSpace& Region::variants() const noexcept { return state_->space; }
const std::vector<Feature>& Region::features() const noexcept { return state_->features; }

std::string Region::model() const { return state_->learner.spec().text; }

RegionStats Region::stats() const {
  std::lock_guard lock(state_->mutex);
  const RegionLearner& l = state_->learner;
  return {.executions = l.executions(),
          .explored = l.explored(),
          .trainings = l.trainings(),
          .drifts = l.drifts(),
          .vectors = l.vectors(),
          .covered_pairs = l.covered_pairs(),
          .trained = l.trained(),
          .restored = state_->restored};
}

int Region::predict(std::span<const double> values) const {
  const detail::RegionState& s = *state_;
  if (values.size() != s.features.size()) return -1;
  double q[max_features];
  for (std::size_t i = 0; i < values.size(); ++i) q[i] = s.features[i].quantise(values[i]);
  std::lock_guard lock(s.mutex);
  return s.learner.predict(std::span<const double>(q, values.size()));
}

// ----------------------------------------------------------- RegionScope

RegionScope::RegionScope(RegionScope&& o) noexcept
    : state_(std::exchange(o.state_, nullptr)),
      space_(o.space_),
      start_ns_(o.start_ns_),
      variant_(o.variant_),
      entry_(o.entry_),
      exploring_(o.exploring_),
      nfeatures_(o.nfeatures_),
      uncaught_(o.uncaught_) {
  std::copy(o.features_, o.features_ + nfeatures_, features_);
}

RegionScope::~RegionScope() {
  if (state_ == nullptr) return;
  if (std::uncaught_exceptions() > uncaught_) {
    cancel();
    return;
  }
  try {
    finish(0, false);
  } catch (const std::exception& e) {
    detail::warn("region '" + state_->id + "': an execution could not be recorded: " + e.what());
  }
}

const VariantSpace& RegionScope::space() const noexcept { return *space_; }

void RegionScope::set_feature(double value) {
  if (state_ == nullptr) detail::throw_error("set_feature on a region scope that has ended");
  detail::RegionState& s = *state_;
  if (variant_ >= 0) detail::throw_error("region '" + s.id + "': set_feature after the variant was chosen");
  if (nfeatures_ >= static_cast<int>(s.features.size())) {
    detail::throw_error("region '" + s.id + "': more than the " + std::to_string(s.features.size()) +
                        " declared features were set");
  }
  const double q = s.features[static_cast<std::size_t>(nfeatures_)].quantise(value);
  if (!std::isfinite(q)) detail::throw_error(detail::not_finite(s, static_cast<std::size_t>(nfeatures_), value));
  features_[nfeatures_++] = q;
}

void RegionScope::decide() {
  detail::RegionState& s = *state_;
  if (nfeatures_ != static_cast<int>(s.features.size())) {
    detail::throw_error("region '" + s.id + "': the variant was asked for after " + std::to_string(nfeatures_) +
                        " of its " + std::to_string(s.features.size()) + " features were set");
  }
  std::lock_guard lock(s.mutex);
  entry_ = s.learner.entry(std::span<const double>(features_, static_cast<std::size_t>(nfeatures_)));
  const Choice c = s.learner.choose(entry_);
  variant_ = c.variant;
  exploring_ = c.exploring;
}

int RegionScope::variant() {
  if (variant_ < 0) {
    if (state_ == nullptr) detail::throw_error("variant() on a region scope that has ended without a decision");
    decide();
  }
  return variant_;
}

std::string RegionScope::label() { return space().label(variant()); }

bool RegionScope::exploring() {
  (void)variant();
  return exploring_;
}

void RegionScope::end() {
  if (state_ != nullptr) finish(0, false);
}

void RegionScope::end(double metric) {
  if (state_ != nullptr) finish(metric, true);
}

void RegionScope::cancel() noexcept { state_ = nullptr; }

void RegionScope::finish(double metric, bool use_metric) {
  detail::RegionState& s = *std::exchange(state_, nullptr);
  const std::int64_t now = measure::now();
  const double value = use_metric ? metric : static_cast<double>(now - start_ns_);
  if (variant_ < 0) return;  // nothing ran on a decision: nothing to learn
  if (!std::isfinite(value)) {
    detail::warn("region '" + s.id + "': a metric that is not a finite number was ignored");
    return;
  }
  std::lock_guard lock(s.mutex);
  const std::int64_t trainings = s.learner.trainings();
  s.learner.observe(entry_, variant_, value);
  // Saved after each training, and every half minute for models that never
  // train, so that a job killed at its wall-time limit keeps what it learned.
  if (s.learner.trainings() != trainings || now - s.last_save_ns > 30'000'000'000LL) s.save_to_store();
}

}  // namespace autosched
