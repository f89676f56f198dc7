// What a region keeps across runs: its knowledge as a model file, checked
// before it is installed, and its row in the store (restored at start, saved
// after trainings, periodically and at the end); Region's file functions.
#include <autosched/regions/region.hpp>

#include <autosched/measure/clock.hpp>
#include <autosched/core/error.hpp>
#include <autosched/core/file_checks.hpp>
#include <autosched/core/system_info.hpp>
#include <autosched/core/text.hpp>
#include <autosched/regions/detail/region_state.hpp>
#include <autosched/store/store.hpp>

#include <cstdio>
#include <utility>

namespace autosched {

namespace detail {

namespace {

std::string read_file(const std::string& path, std::string* why) {
  return files::read_regular(path, files::default_read_limit, why).value_or(std::string());
}

}  // namespace

bool RegionState::restore(const std::string& model_file) {
  const std::string file = model_file.empty() ? learner.spec().load : model_file;
  if (!file.empty() && apply_file(file)) {
    region_store(persist);  // saves what it learns from here on
    return true;
  }
  autosched::detail::Store* store = region_store(persist);
  if (store == nullptr) return false;
  auto text = store->load_region(key());
  if (!text) return false;
  std::string why;
  if (auto parsed = read_model_text(*text, &why)) return apply(*parsed, "the store");
  warn("region '" + id + "': its stored state is unusable (" + why + "); the region explores");
  return false;
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
  autosched::detail::Store* store = region_store(persist);
  last_save_ns = measure::now();
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

}  // namespace detail

void Region::save_model(const std::string& path) const {
  std::string text;
  {
    std::lock_guard lock(state_->mutex);
    text = write_model_text(state_->snapshot());
  }
  // Write a neighbour and rename it: a reader never sees half a file.
  const std::string tmp = path + ".tmp";
  {
    std::string why;
    std::FILE* out = files::open_for_writing(tmp, &why);
    if (out == nullptr) detail::throw_error("region '" + state_->id + "': cannot write model file " + tmp + " (" + why + ")");
    const bool written = std::fwrite(text.data(), 1, text.size(), out) == text.size();
    if (std::fclose(out) != 0 || !written) {
      std::remove(tmp.c_str());
      detail::throw_error("region '" + state_->id + "': cannot write model file " + tmp);
    }
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

}  // namespace autosched
