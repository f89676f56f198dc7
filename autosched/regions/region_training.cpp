// Training a RegionLearner's model (CART tree or forest) on its covered
// vectors, installing a stored model, predicting, and the drift rule that
// sends a trained region back to exploring.
#include <autosched/regions/region_learner.hpp>

#include <autosched/regions/detail/learner_entry.hpp>

#include <algorithm>
#include <string>
#include <utility>

namespace autosched {

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
