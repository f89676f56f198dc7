#include <autosched/regions/region.hpp>

#include <autosched/core/error.hpp>
#include <autosched/core/system_info.hpp>
#include <autosched/core/text.hpp>
#include <autosched/drive/clock.hpp>
#include <autosched/regions/detail/region_state.hpp>
#include <autosched/store/store.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <sstream>
#include <utility>

namespace autosched {

namespace detail {

namespace {

struct Registry {
  std::mutex mutex;
  std::vector<RegionState*> regions;
};

Registry& registry() {
  static auto* r = new Registry;  // used by static destructors: never destroyed
  return *r;
}

/// At exit: every live region's knowledge to the store, then the writer
/// drains. Regions destroyed before (function-local statics created after
/// this was registered) have queued theirs already.
void save_regions_at_exit() {
  // A forked child inherits this handler but neither the writer nor the
  // connection, and maybe a lock a parent thread held: it saves nothing.
  if (recording_disabled_by_fork()) return;
  try {
    for_each_region([](RegionState& r) {
      std::lock_guard lock(r.mutex);
      r.save_to_store();
    });
    BackgroundWriter::instance().shutdown();
  } catch (...) {
    // Exit must go on; a failure to write has been reported by the writer.
  }
}

Store* region_store(bool persist) {
  if (!persist) return nullptr;
  static Store* store = [] {
    Store* s = Store::instance();
    if (s != nullptr) std::atexit(save_regions_at_exit);
    return s;
  }();
  return store;
}

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
    return RegionLearner(std::move(spec), features, variants, o.min_train);
  } catch (const Error& e) {
    throw_error("region '" + id + "': " + e.what());
  }
}

const std::string& checked_id(const std::string& id) {
  if (id.empty() || id.find('\n') != std::string::npos)
    throw_error(text::bad_value("region id", id, "a non-empty single line"));
  return id;
}

std::string read_file(const std::string& path, std::string* why) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    *why = "cannot open it";
    return {};
  }
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

RegionState::RegionState(std::string id_, RegionOptions options)
    : id(checked_id(id_)),
      features(checked_features(id, std::move(options.features))),
      space(checked_space(id, options)),
      persist(options.persist),
      learner(make_learner(id, options, static_cast<int>(features.size()), space.size())) {
  std::unique_lock lock(mutex);
  last_save_ns = drive::now();
  std::string file = options.model_file.empty() ? learner.spec().load : options.model_file;
  bool loaded = false;
  if (!file.empty()) loaded = apply_file(file);
  if (!loaded) {
    if (Store* store = region_store(persist)) {
      if (auto text = store->load_region(key())) {
        std::string why;
        if (auto parsed = read_model_text(*text, &why)) {
          loaded = apply(*parsed, "the store");
        } else {
          warn("region '" + id + "': its stored state is unusable (" + why + "); the region explores");
        }
      }
    }
  } else {
    region_store(persist);  // saves what it learns from here on
  }
  restored = loaded;
  lock.unlock();
  // Registered last: a constructor that throws leaves nothing behind.
  std::lock_guard registry_lock(registry().mutex);
  for (const RegionState* other : registry().regions) {
    if (other->id == id) {
      warn("two live regions are called '" + id +
           "'; they learn separately and their stored states overwrite each other");
      break;
    }
  }
  registry().regions.push_back(this);
}

RegionState::~RegionState() {
  {
    std::lock_guard lock(registry().mutex);
    auto& v = registry().regions;
    v.erase(std::remove(v.begin(), v.end(), this), v.end());
  }
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

ModelFile RegionState::snapshot() const {
  ModelFile f;
  f.region = id;
  for (const Feature& feature : features) f.features.push_back(feature.describe());
  f.variant_count = space.size();
  f.variants = space.signature();
  f.model = learner.spec().text;
  const SystemInfo& s = system_info();
  f.fingerprint = s.fingerprint;
  f.build = "autosched " + s.library_version + ", " + s.compiler;
  for (const auto nodes : learner.trees()) f.trees.emplace_back(nodes.begin(), nodes.end());
  f.samples = learner.samples_text();
  return f;
}

bool RegionState::apply(const ModelFile& file, const std::string& origin) {
  auto reject = [&](const std::string& why) {
    warn("region '" + id + "': " + origin + " does not fit (" + why + "); the region explores");
    return false;
  };
  if (file.region != id) return reject("it is for region '" + file.region + "'");
  std::vector<std::string> mine;
  for (const Feature& f : features) mine.push_back(f.describe());
  if (file.features != mine) {
    return reject("it has " + std::to_string(file.features.size()) + " features (" +
                  text::join({file.features.begin(), file.features.end()}) + "), the region " +
                  std::to_string(mine.size()) + " (" + text::join({mine.begin(), mine.end()}) + ")");
  }
  if (file.variant_count != space.size() || file.variants != space.signature()) {
    return reject("its variants are " + std::to_string(file.variant_count) + " " + file.variants + ", the region's " +
                  std::to_string(space.size()) + " " + space.signature());
  }
  // Trees are used only by a learner of the same kind: a region whose model
  // changed retrains on the samples instead.
  bool same_kind = false;
  try {
    same_kind = parse_model_spec(file.model, "model file").kind == learner.spec().kind;
  } catch (const Error&) {
  }
  // Everything is checked on a scratch learner first: a file that fails
  // half way must not leave half of it (e.g. its samples) behind.
  std::string why;
  {
    RegionLearner scratch(learner.spec(), learner.features(), learner.variants(), learner.min_train());
    if (!file.samples.empty() && !scratch.load_samples(file.samples, &why)) return reject(why);
    if (!file.trees.empty() && same_kind && !scratch.install_trees(file.trees, &why)) return reject(why);
  }
  if (!file.samples.empty()) learner.load_samples(file.samples, &why);
  if (!file.trees.empty() && same_kind) {
    learner.install_trees(file.trees, &why);
  } else if (learner.spec().trains()) {
    const std::int64_t threshold = learner.min_train();
    if (threshold > 0 && learner.covered_pairs() >= threshold) learner.train();
  }
  return true;
}

bool RegionState::apply_file(const std::string& path) {
  std::string why;
  const std::string text = read_file(path, &why);
  std::optional<ModelFile> parsed;
  if (why.empty()) parsed = read_model_text(text, &why);
  if (!parsed) {
    warn("region '" + id + "': model file " + path + " is unusable (" + why + "); the region explores");
    return false;
  }
  return apply(*parsed, "model file " + path);
}

void RegionState::save_to_store() {
  Store* store = region_store(persist);
  last_save_ns = drive::now();
  if (store == nullptr || learner.vectors() == 0) return;
  bool replace = false;
  std::string unsaved = learner.take_unsaved(replace);
  // Composed on the writer thread, inside the store's transaction: the row's
  // samples (this region's earlier saves, other processes' saves) plus what
  // this process measured since its last save; the model is this one's.
  store->save_region(key(), learner.spec().text,
                     [mine = snapshot(), unsaved = std::move(unsaved), replace,
                      spec = learner.spec()](const std::optional<std::string>& current) {
                       ModelFile merged = mine;
                       std::optional<ModelFile> row;
                       if (current && !replace) row = read_model_text(*current, nullptr);
                       if (row && row->features == mine.features && row->variants == mine.variants) {
                         RegionLearner sum(spec, static_cast<int>(mine.features.size()), mine.variant_count, 0);
                         std::string why;
                         const bool ok = (row->samples.empty() || sum.load_samples(row->samples, &why)) &&
                                         sum.load_samples(unsaved, &why);
                         if (ok) merged.samples = sum.samples_text();
                       }
                       return write_model_text(merged);
                     });
}

std::string not_finite(const RegionState& s, std::size_t feature, double value) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%g", value);
  return "region '" + s.id + "': feature '" + s.features[feature].name() + "' = " + buf +
         " (quantised: not a finite number); features must be finite";
}

void for_each_region(const std::function<void(RegionState&)>& f) {
  std::lock_guard lock(registry().mutex);
  std::vector<RegionState*> sorted = registry().regions;
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const RegionState* a, const RegionState* b) { return a->id < b->id; });
  for (RegionState* r : sorted) f(*r);
}

}  // namespace detail

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
  scope.start_ns_ = drive::now();
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
  scope.start_ns_ = drive::now();
  return scope;
}

void Region::train() {
  std::lock_guard lock(state_->mutex);
  if (state_->learner.train()) state_->save_to_store();
}

void Region::save_model(const std::string& path) const {
  std::string text;
  {
    std::lock_guard lock(state_->mutex);
    text = write_model_text(state_->snapshot());
  }
  // Write a neighbour and rename it: a reader never sees half a file.
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << text;
    out.close();
    if (!out) detail::throw_error("region '" + state_->id + "': cannot write model file " + tmp);
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    detail::throw_error("region '" + state_->id + "': cannot rename " + tmp + " to " + path);
  }
}

bool Region::load_model(const std::string& path) {
  std::lock_guard lock(state_->mutex);
  return state_->apply_file(path);
}

void Region::save() {
  std::lock_guard lock(state_->mutex);
  state_->save_to_store();
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
  const std::int64_t now = drive::now();
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
