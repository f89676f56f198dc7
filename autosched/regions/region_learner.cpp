#include <autosched/regions/region_learner.hpp>

#include <autosched/core/error.hpp>
#include <autosched/select/auto_selector.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <utility>

namespace autosched {

struct RegionLearner::Entry {
  std::vector<double> x;
  std::vector<PairStats> all;      ///< shared ⊕ own: what decisions and training use
  std::vector<PairStats> own;      ///< this process's, since the last collective training
  std::vector<PairStats> shared;   ///< loaded, or merged from all ranks
  std::vector<PairStats> unsaved;  ///< this process's, not yet in the store
  std::vector<bool> warmed;        ///< skip_first: this process's first sample was discarded
  int next = 0;                    ///< round-robin position
  int predicted = -1;              ///< the model's answer (memo until the next training)
  std::int64_t since_explore = 0;
  int rotate = 0;
  // Drift (Artemis): the time predicted at training for `predicted`.
  double expected = 0;
  int over = 0;
  std::int64_t judged_samples = 0;
  bool judged = false;
  bool drifting = false;
  std::unique_ptr<Selector> bandit;  ///< `auto`
};

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

int RegionLearner::model_predict(const double* x) const noexcept {
  if (tree_) return tree_->predict(x);
  if (forest_) return forest_->predict(x);
  return -1;
}

int RegionLearner::predict(std::span<const double> x) const {
  if (!trained_ || static_cast<int>(x.size()) != features_) return -1;
  return model_predict(x.data());
}

const DecisionTree* RegionLearner::tree() const noexcept { return tree_ ? &*tree_ : nullptr; }
const RandomForest* RegionLearner::forest() const noexcept { return forest_ ? &*forest_ : nullptr; }

Choice RegionLearner::explore(Entry& e, bool& any) {
  any = false;
  if (spec_.explore_random) {
    int uncovered = 0;
    for (const PairStats& s : e.all) uncovered += covered(s) ? 0 : 1;
    if (uncovered == 0) return {};
    int pick = std::uniform_int_distribution<int>(0, uncovered - 1)(rng_);
    for (int v = 0; v < variants_; ++v) {
      if (!covered(e.all[static_cast<std::size_t>(v)]) && pick-- == 0) {
        any = true;
        return {v, true};
      }
    }
    return {};
  }
  for (int i = 0; i < variants_; ++i) {
    const int v = (e.next + i) % variants_;
    if (!covered(e.all[static_cast<std::size_t>(v)])) {
      e.next = (v + 1) % variants_;
      any = true;
      return {v, true};
    }
  }
  return {};
}

Choice RegionLearner::choose(int index) {
  Entry& e = *entries_[static_cast<std::size_t>(index)];
  Choice c;
  bool any = false;
  switch (spec_.kind) {
    case ModelSpec::Kind::static_:
      c = {spec_.variant, false};
      break;
    case ModelSpec::Kind::round_robin:
      c = {e.next, true};
      e.next = (e.next + 1) % variants_;
      break;
    case ModelSpec::Kind::random:
      c = {std::uniform_int_distribution<int>(0, variants_ - 1)(rng_), true};
      break;
    case ModelSpec::Kind::dtree:
    case ModelSpec::Kind::rforest:
      if (trained_) {
        if (e.predicted < 0) e.predicted = model_predict(e.x.data());
        c = {e.predicted, false};
        // Low-rate exploration keeps the data current: another variant may
        // have become the fastest without the chosen one slowing down.
        if (explore_period_ > 0 && variants_ > 1 && ++e.since_explore >= explore_period_) {
          e.since_explore = 0;
          c = {(e.predicted + 1 + e.rotate % (variants_ - 1)) % variants_, true};
          ++e.rotate;
        }
      } else {
        c = explore(e, any);
        if (!any) c = {std::max(0, label(e)), false};
      }
      break;
    case ModelSpec::Kind::epsilon_greedy:
    case ModelSpec::Kind::ucb:
    case ModelSpec::Kind::thompson: {
      c = explore(e, any);
      if (any) break;
      const int b = label(e);
      int v = b;
      if (spec_.kind == ModelSpec::Kind::epsilon_greedy) {
        if (std::uniform_real_distribution<double>(0, 1)(rng_) < spec_.epsilon)
          v = std::uniform_int_distribution<int>(0, variants_ - 1)(rng_);
      } else if (spec_.kind == ModelSpec::Kind::ucb) {
        // UCB1 for costs: the lowest optimistic mean, the bonus in units of
        // the best mean so that it is scale free.
        double total = 0;
        for (const PairStats& s : e.all) total += static_cast<double>(s.count());
        const double scale = e.all[static_cast<std::size_t>(b)].time.mean;
        double best_score = 0;
        for (int a = 0; a < variants_; ++a) {
          const PairStats& s = e.all[static_cast<std::size_t>(a)];
          const double score =
              s.time.mean - spec_.ucb_c * scale * std::sqrt(2 * std::log(total) / static_cast<double>(s.count()));
          if (a == 0 || score < best_score) {
            best_score = score;
            v = a;
          }
        }
      } else {
        // Thompson: a normal posterior per variant, its width the measured
        // spread (at least 3% of the mean) over √samples.
        std::normal_distribution<double> normal(0, 1);
        double best_draw = 0;
        for (int a = 0; a < variants_; ++a) {
          const PairStats& s = e.all[static_cast<std::size_t>(a)];
          const double sd = std::max(s.time.sample_stddev(), 0.03 * std::abs(s.time.mean));
          const double draw = s.time.mean + sd / std::sqrt(static_cast<double>(s.count())) * normal(rng_);
          if (a == 0 || draw < best_draw) {
            best_draw = draw;
            v = a;
          }
        }
      }
      c = {v, v != b};
      break;
    }
    case ModelSpec::Kind::automatic: {
      if (!e.bandit) {
        AutoConfig config;
        config.warmup = 0;  // skip_first is the regions' warm-up switch
        config.seed = spec_.seed + static_cast<std::uint64_t>(index) * 0x9e3779b97f4a7c15ULL;
        auto bandit = std::make_unique<AutoSelector>(variants_, config);
        // Samples loaded from a file or the store stand in for the sweep.
        std::ostringstream state;
        state.precision(17);
        state << "auto3 " << variants_;
        for (const PairStats& s : e.all) {
          state << ' ' << s.time.count << ' ' << (s.time.count ? s.time.mean : 0.0) << ' '
                << (s.time.count ? s.time.m2 : 0.0) << " 0";
        }
        bandit->load_state(state.str());
        e.bandit = std::move(bandit);
      }
      const Decision d = e.bandit->choose(Context{});
      c = {d.arm, d.exploring};
      break;
    }
  }
  ++executions_;
  if (c.exploring) ++explored_;
  return c;
}

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

void RegionLearner::check_drift(Entry& e, int variant, double metric) {
  if (!(e.expected > 0) || variant != e.predicted) return;
  e.over = metric > spec_.drift * e.expected ? e.over + 1 : 0;
  if (!e.judged && ++e.judged_samples >= spec_.drift_after) {
    e.judged = true;
    ++judged_;
  }
  const bool now = e.over >= spec_.drift_after;
  if (now != e.drifting) {
    e.drifting = now;
    drifting_ += now ? 1 : -1;
  }
  if (drifting_ > 0 && static_cast<double>(drifting_) >= spec_.drift_share * static_cast<double>(judged_)) forget();
}

void RegionLearner::forget() {
  // The samples describe a region that no longer behaves that way: start over.
  for (auto& e : entries_) {
    for (auto* table : {&e->all, &e->own, &e->shared, &e->unsaved})
      std::fill(table->begin(), table->end(), PairStats{});
    e->predicted = -1;
    e->expected = 0;
    e->over = 0;
    e->judged_samples = 0;
    e->judged = e->drifting = false;
    e->bandit.reset();
  }
  covered_pairs_ = 0;
  judged_ = drifting_ = 0;
  trained_ = false;
  forgotten_since_save_ = true;
  tree_.reset();
  forest_.reset();
  ++drifts_;
}

bool RegionLearner::train() {
  if (!spec_.trains()) return false;
  // One row per fully covered vector, in the vectors' order (not arrival
  // order), so that ranks holding the same samples build the same model.
  std::vector<const Entry*> rows;
  for (const auto& e : entries_) {
    if (std::all_of(e->all.begin(), e->all.end(), [&](const PairStats& s) { return covered(s); }))
      rows.push_back(e.get());
  }
  if (rows.empty()) return false;
  std::sort(rows.begin(), rows.end(), [](const Entry* a, const Entry* b) { return a->x < b->x; });
  TrainingSet data;
  data.features = features_;
  data.classes = variants_;
  for (const Entry* e : rows) data.add(e->x, label(*e));
  if (spec_.kind == ModelSpec::Kind::dtree) {
    forest_.reset();
    tree_ = DecisionTree::train(data, TreeParams{.max_depth = spec_.depth, .max_features = 0, .seed = spec_.seed});
  } else {
    tree_.reset();
    forest_ = RandomForest::train(
        data,
        ForestParams{
            .trees = spec_.trees, .max_depth = spec_.depth, .seed = spec_.seed, .sqrt_features = spec_.sqrt_features});
  }
  ++trainings_;
  pairs_at_training_ = covered_pairs_;
  after_training();
  return true;
}

void RegionLearner::after_training() {
  trained_ = true;
  since_training_ = 0;
  judged_ = drifting_ = 0;
  for (auto& e : entries_) {
    e->predicted = model_predict(e->x.data());
    const PairStats& s = e->all[static_cast<std::size_t>(e->predicted)];
    e->expected = s.count() > 0 ? s.time.mean : 0;
    e->over = 0;
    e->judged_samples = 0;
    e->judged = e->drifting = false;
    e->since_explore = 0;
  }
}

void RegionLearner::recount() {
  covered_pairs_ = 0;
  for (const auto& e : entries_)
    for (const PairStats& s : e->all) covered_pairs_ += covered(s) ? 1 : 0;
}

// Samples text: a header line "samples <F> <V> <rows>", then per vector the
// features and, for each variant with samples, "| v count mean m2 min skipped".
std::string RegionLearner::samples_text(Samples which) const {
  std::string out;
  std::size_t rows = 0;
  std::string body;
  char buf[64];
  // Rows in vector order, not arrival order: equal tables give equal texts
  // (on every rank, in every file).
  std::vector<const Entry*> sorted;
  for (const auto& e : entries_) sorted.push_back(e.get());
  std::sort(sorted.begin(), sorted.end(), [](const Entry* a, const Entry* b) { return a->x < b->x; });
  for (const Entry* e : sorted) {
    const auto& table = which == Samples::all      ? e->all
                        : which == Samples::own    ? e->own
                        : which == Samples::shared ? e->shared
                                                   : e->unsaved;
    if (std::none_of(table.begin(), table.end(), [](const PairStats& s) { return s.count() > 0 || s.skipped > 0; }))
      continue;
    ++rows;
    for (std::size_t f = 0; f < e->x.size(); ++f) {
      std::snprintf(buf, sizeof buf, f ? " %a" : "%a", e->x[f]);
      body += buf;
    }
    for (int v = 0; v < variants_; ++v) {
      const PairStats& s = table[static_cast<std::size_t>(v)];
      if (s.count() == 0 && s.skipped == 0) continue;
      std::snprintf(buf, sizeof buf, " | %d %lld ", v, static_cast<long long>(s.count()));
      body += buf;
      std::snprintf(buf, sizeof buf, "%a %a ", s.time.mean, s.time.m2);
      body += buf;
      std::snprintf(buf, sizeof buf, "%a %lld", s.count() ? s.min : 0.0, static_cast<long long>(s.skipped));
      body += buf;
    }
    body += '\n';
  }
  std::snprintf(buf, sizeof buf, "samples %d %d %zu\n", features_, variants_, rows);
  out = buf;
  return out + body;
}

namespace {

struct ParsedRow {
  std::vector<double> x;
  std::vector<std::pair<int, PairStats>> pairs;
};

bool parse_samples(std::string_view text, int features, int variants, std::vector<ParsedRow>& rows, std::string* why) {
  auto fail = [&](const std::string& reason) {
    if (why) *why = reason;
    return false;
  };
  std::istringstream in{std::string(text)};
  std::string line;
  if (!std::getline(in, line)) return fail("no samples header");
  int f = 0, v = 0;
  long long n = 0;
  char extra = 0;
  if (std::sscanf(line.c_str(), "samples %d %d %lld %c", &f, &v, &n, &extra) != 3 || n < 0)
    return fail("bad samples header '" + line + "'");
  if (f != features)
    return fail("samples have " + std::to_string(f) + " features, the region " + std::to_string(features));
  if (v != variants)
    return fail("samples have " + std::to_string(v) + " variants, the region " + std::to_string(variants));
  for (long long r = 0; r < n; ++r) {
    if (!std::getline(in, line))
      return fail("samples end after " + std::to_string(r) + " of " + std::to_string(n) + " rows");
    ParsedRow row;
    const char* p = line.c_str();
    char* end = nullptr;
    for (int i = 0; i < f; ++i) {
      const double x = std::strtod(p, &end);
      if (end == p || !std::isfinite(x)) return fail("bad feature value in row " + std::to_string(r));
      row.x.push_back(x);
      p = end;
    }
    while (*p == ' ') ++p;
    while (*p == '|') {
      ++p;
      const long vi = std::strtol(p, &end, 10);
      if (end == p || vi < 0 || vi >= variants) return fail("bad variant in row " + std::to_string(r));
      p = end;
      const long long count = std::strtoll(p, &end, 10);
      if (end == p || count < 0) return fail("bad count in row " + std::to_string(r));
      p = end;
      double values[3];
      for (double& value : values) {
        value = std::strtod(p, &end);
        if (end == p || !std::isfinite(value)) return fail("bad statistic in row " + std::to_string(r));
        p = end;
      }
      const long long skipped = std::strtoll(p, &end, 10);
      if (end == p || skipped < 0) return fail("bad warm-up count in row " + std::to_string(r));
      p = end;
      // Any finite mean (a metric may be negative); only a negative spread,
      // a minimum above the mean or an empty pair are impossible.
      const double slack = 1e-9 * std::abs(values[0]);  // the incremental mean may round an ulp low
      if (values[1] < 0 || (count > 0 && values[2] > values[0] + slack) || (count == 0 && skipped == 0))
        return fail("impossible statistics in row " + std::to_string(r));
      PairStats s;
      s.time.count = count;
      s.time.mean = count ? values[0] : 0;
      s.time.m2 = count ? values[1] : 0;
      s.min = count ? values[2] : std::numeric_limits<double>::infinity();
      s.skipped = skipped;
      row.pairs.emplace_back(static_cast<int>(vi), s);
      while (*p == ' ') ++p;
    }
    if (*p != '\0') return fail("unexpected text in row " + std::to_string(r));
    rows.push_back(std::move(row));
  }
  if (std::getline(in, line) && !line.empty()) return fail("text after the last samples row");
  return true;
}

}  // namespace

std::string RegionLearner::take_unsaved(bool& replace) {
  std::string text = samples_text(Samples::unsaved);
  for (auto& e : entries_) std::fill(e->unsaved.begin(), e->unsaved.end(), PairStats{});
  replace = std::exchange(forgotten_since_save_, false);
  return text;
}

bool RegionLearner::load_samples(std::string_view text, std::string* why) {
  std::vector<ParsedRow> rows;
  if (!parse_samples(text, features_, variants_, rows, why)) return false;
  for (const ParsedRow& row : rows) {
    Entry& e = *entries_[static_cast<std::size_t>(entry(row.x))];
    for (const auto& [v, s] : row.pairs) {
      e.shared[static_cast<std::size_t>(v)].merge(s);
      e.all[static_cast<std::size_t>(v)].merge(s);
    }
    e.bandit.reset();
  }
  recount();
  return true;
}

bool RegionLearner::merge_and_train(std::string_view shared, std::span<const std::string> owns, std::string* why) {
  std::vector<ParsedRow> base;
  if (!parse_samples(shared, features_, variants_, base, why)) return false;
  std::vector<std::vector<ParsedRow>> parts(owns.size());
  for (std::size_t r = 0; r < owns.size(); ++r) {
    if (!parse_samples(owns[r], features_, variants_, parts[r], why)) {
      if (why) *why = "the samples of contributor " + std::to_string(r) + " (in rank order): " + *why;
      return false;
    }
  }
  for (auto& e : entries_) {
    for (auto* table : {&e->all, &e->own, &e->shared}) std::fill(table->begin(), table->end(), PairStats{});
    e->bandit.reset();
  }
  auto merge_rows = [&](const std::vector<ParsedRow>& rows) {
    for (const ParsedRow& row : rows) {
      Entry& e = *entries_[static_cast<std::size_t>(entry(row.x))];
      for (const auto& [v, s] : row.pairs) e.shared[static_cast<std::size_t>(v)].merge(s);
    }
  };
  merge_rows(base);
  for (const auto& rows : parts) merge_rows(rows);
  for (auto& e : entries_) e->all = e->shared;
  recount();
  if (spec_.trains()) {
    trained_ = false;
    tree_.reset();
    forest_.reset();
    train();
  }
  return true;
}

bool RegionLearner::install_trees(std::vector<std::vector<TreeNode>> trees, std::string* why) {
  auto fail = [&](const std::string& reason) {
    if (why) *why = reason;
    return false;
  };
  if (!spec_.trains()) return fail("the region's model (" + std::string(spec_.name()) + ") uses no trees");
  if (trees.empty()) return fail("no trees");
  if (spec_.kind == ModelSpec::Kind::dtree && trees.size() != 1)
    return fail("a dtree model has one tree, the file " + std::to_string(trees.size()));
  std::vector<DecisionTree> built;
  for (auto& nodes : trees) {
    auto tree = DecisionTree::from_nodes(std::move(nodes), features_, variants_);
    if (!tree)
      return fail("a tree is not valid for " + std::to_string(features_) + " features and " +
                  std::to_string(variants_) + " variants");
    built.push_back(std::move(*tree));
  }
  if (spec_.kind == ModelSpec::Kind::dtree) {
    tree_ = std::move(built.front());
    forest_.reset();
  } else {
    auto forest = RandomForest::from_trees(std::move(built));
    if (!forest) return fail("the trees do not form a forest");
    forest_ = std::move(*forest);
    tree_.reset();
  }
  pairs_at_training_ = covered_pairs_;
  after_training();
  return true;
}

std::vector<std::span<const TreeNode>> RegionLearner::trees() const {
  std::vector<std::span<const TreeNode>> out;
  if (!trained_) return out;
  if (tree_) out.push_back(tree_->nodes());
  if (forest_)
    for (const DecisionTree& t : forest_->trees()) out.push_back(t.nodes());
  return out;
}

}  // namespace autosched
