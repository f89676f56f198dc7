// A region's shared state: checking what a Region is declared with, and its
// life (restored at construction, registered, saved at destruction).
#include <autosched/regions/detail/region_state.hpp>

#include <autosched/measure/clock.hpp>
#include <autosched/core/error.hpp>
#include <autosched/core/text.hpp>

#include <cstdio>
#include <exception>
#include <utility>

namespace autosched::detail {

namespace {

std::vector<Feature> checked_features(const std::string& id, std::vector<Feature> features) {
  if (static_cast<int>(features.size()) > Region::max_features) {
    throw_error("region '" + id + "' declares " + std::to_string(features.size()) + " features; at most " +
                std::to_string(Region::max_features) + " are supported");
  }
  for (std::size_t i = 0; i < features.size(); ++i) {
    const std::string& name = features[i].name();
    if (name.empty() || name.find_first_of(":;|\n ") != std::string::npos) {
      throw_error(text::bad_value("region '" + id + "' feature name", name, "a non-empty name without blanks or :;|"));
    }
    for (std::size_t j = 0; j < i; ++j)
      if (features[j].name() == name) throw_error("region '" + id + "' declares feature '" + name + "' twice");
  }
  return features;
}

VariantSpace checked_space(const std::string& id, const RegionOptions& o) {
  if (o.knobs.empty() && o.variants.empty())
    throw_error("region '" + id + "' has no variants: set RegionOptions::variants (labels) or ::knobs");
  try {
    return o.knobs.empty() ? VariantSpace::labels(o.variants) : VariantSpace(o.knobs);
  } catch (const Error& e) {
    throw_error("region '" + id + "': " + e.what());
  }
}

ModelSpec checked_spec(const std::string& id, const RegionOptions& o) {
  if (o.model.empty()) return default_model_spec();
  return parse_model_spec(o.model, "region '" + id + "' model");
}

RegionLearner make_learner(const std::string& id, const RegionOptions& o, int features, int variants) {
  ModelSpec spec = checked_spec(id, o);
  try {
    return RegionLearner(spec, features, variants, o.min_train);
  } catch (const Error& e) {
    // A model given in code is the caller's error; the environment's default
    // fits some regions and not others (static,variant=5 with 3 variants), and
    // a setting must never abort the program: this region tunes with 'auto'.
    if (!o.model.empty()) throw_error("region '" + id + "': " + e.what());
    warn("AUTOSCHED_REGION_MODEL=" + spec.text + ": region '" + id + "' cannot use it (" + e.what() +
         "); this region uses 'auto'");
  }
  return RegionLearner(parse_model_spec("auto", "default model"), features, variants, o.min_train);
}

const std::string& checked_id(const std::string& id) {
  if (id.empty() || id.find('\n') != std::string::npos)
    throw_error(text::bad_value("region id", id, "a non-empty single line"));
  return id;
}

}  // namespace

RegionState::RegionState(std::string id_, RegionOptions options)
    : id(checked_id(id_)),
      features(checked_features(id, std::move(options.features))),
      space(checked_space(id, options)),
      persist(options.persist),
      learner(make_learner(id, options, static_cast<int>(features.size()), space.size())) {
  {
    std::lock_guard lock(mutex);
    last_save_ns = measure::now();
    restored = restore(options.model_file);
  }
  // Registered last: a constructor that throws leaves nothing behind.
  register_region(*this);
}

RegionState::~RegionState() {
  unregister_region(*this);
  try {
    std::lock_guard lock(mutex);
    save_to_store();
  } catch (const std::exception& e) {
    try {
      warn("region '" + id + "': its state could not be saved: " + e.what());
    } catch (...) {  // nothing left to report with
    }
  }
}

RegionKey RegionState::key() const {
  RegionKey k;
  k.region = id;
  for (std::size_t i = 0; i < features.size(); ++i) {
    if (i > 0) k.features += ';';
    k.features += features[i].describe();
  }
  k.variants = space.signature();
  return k;
}

std::string not_finite(const RegionState& s, std::size_t feature, double value) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%g", value);
  return "region '" + s.id + "': feature '" + s.features[feature].name() + "' = " + buf +
         " (quantised: not a finite number); features must be finite";
}

}  // namespace autosched::detail
