// The sample table of a RegionLearner: its feature vectors, the statistics
// per (vector, variant), and what a measurement changes (the sample, the
// vector's bandit, the training triggers). Choosing, training and the samples
// text live beside it (region_choice.cpp, region_training.cpp,
// region_samples.cpp).
#include <autosched/regions/region_learner.hpp>

#include <autosched/core/error.hpp>
#include <autosched/regions/detail/learner_entry.hpp>

#include <algorithm>
#include <cmath>
#include <utility>

namespace autosched {

RegionLearner::RegionLearner(ModelSpec spec, int features, int variants, int min_train)
    : spec_(std::move(spec)),
      features_(features),
      variants_(variants),
      min_train_(spec_.min_train_set ? spec_.min_train : min_train),
      rng_(spec_.seed ^ 0x7265676e5eedULL) {
  if (variants_ < 1) detail::throw_error("a region needs at least one variant");
  if (spec_.kind == ModelSpec::Kind::static_ && spec_.variant >= variants_) {
    detail::throw_error("model '" + spec_.text + "': variant " + std::to_string(spec_.variant) +
                        " is outside the region's " + std::to_string(variants_) + " variants");
  }
  if (spec_.explore_after > 0) explore_period_ = std::llround(std::clamp(1.0 / spec_.explore_after, 2.0, 1e15));
}

RegionLearner::~RegionLearner() = default;

int RegionLearner::find(std::span<const double> x) const {
  const auto it = index_.find(x);
  return it == index_.end() ? -1 : it->second;
}

int RegionLearner::entry(std::span<const double> x) {
  if (const auto it = index_.find(x); it != index_.end()) return it->second;
  auto e = std::make_unique<Entry>();
  e->x.assign(x.begin(), x.end());
  const auto v = static_cast<std::size_t>(variants_);
  e->all.resize(v);
  e->own.resize(v);
  e->shared.resize(v);
  e->warmed.resize(v);
  e->unsaved.resize(v);
  if (trained_) e->predicted = model_predict(e->x.data());
  const int id = static_cast<int>(entries_.size());
  index_.emplace(e->x, id);
  entries_.push_back(std::move(e));
  return id;
}

std::span<const double> RegionLearner::vector(int entry) const { return entries_[static_cast<std::size_t>(entry)]->x; }

const PairStats& RegionLearner::stats(int entry, int variant) const {
  return entries_[static_cast<std::size_t>(entry)]->all[static_cast<std::size_t>(variant)];
}

bool RegionLearner::covered(const PairStats& s) const noexcept { return s.count() >= spec_.coverage; }

int RegionLearner::label(const Entry& e) const {
  int best = -1;
  double best_value = 0;
  for (int v = 0; v < variants_; ++v) {
    const PairStats& s = e.all[static_cast<std::size_t>(v)];
    if (s.count() == 0) continue;
    const double value = spec_.label_by_min ? s.min : s.time.mean;
    if (best < 0 || value < best_value) {
      best = v;
      best_value = value;
    }
  }
  return best;
}

int RegionLearner::best(int entry) const { return label(*entries_[static_cast<std::size_t>(entry)]); }

void RegionLearner::observe(int index, int variant, double metric) {
  if (variant < 0 || variant >= variants_ || !std::isfinite(metric)) return;
  Entry& e = *entries_[static_cast<std::size_t>(index)];
  const auto v = static_cast<std::size_t>(variant);
  PairStats& a = e.all[v];
  // The warm-up (first touch, JIT, cold caches) happens in every process,
  // whatever earlier runs stored: the first sample here is not learned.
  if (spec_.skip_first && !e.warmed[v]) {
    e.warmed[v] = true;
    ++a.skipped;
    ++e.own[v].skipped;
    ++e.unsaved[v].skipped;
    return;
  }
  const bool was = covered(a);
  a.add(metric);
  e.own[v].add(metric);
  e.unsaved[v].add(metric);
  if (!was && covered(a)) ++covered_pairs_;
  if (e.bandit) {
    Outcome outcome;
    outcome.time_ns = metric;
    e.bandit->observe(Decision{.arm = variant}, outcome);
  }
  if (!spec_.trains()) return;
  if (trained_) {
    check_drift(e, variant, metric);
    if (trained_ && spec_.retrain > 0 && ++since_training_ >= spec_.retrain) train();
  } else {
    const std::int64_t threshold = min_train_ > 0 ? min_train_ : pairs_at_training_;
    const bool period = spec_.retrain > 0 && ++since_training_ >= spec_.retrain;
    if ((threshold > 0 && covered_pairs_ >= threshold) || period) {
      if (!train()) since_training_ = 0;  // nothing covered yet: try again a period later
    }
  }
}

void RegionLearner::recount() {
  covered_pairs_ = 0;
  for (const auto& e : entries_)
    for (const PairStats& s : e->all) covered_pairs_ += covered(s) ? 1 : 0;
}

}  // namespace autosched
