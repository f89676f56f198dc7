// bench_regions: what a tunable region costs, in the shape of the reference's
// Apollo measurements (Apollo's published overheads: F = 8 features, P = 8
// variants, 128 feature vectors, depth-2 trees):
//   empty_scope          two clock reads around nothing: the floor of any
//                        timed execution, for ratios that cancel machine noise;
//   exploit_iteration    begin(features) + variant() + end() on a trained
//                        dtree region, cycling over the 128 vectors;
//   exploit_set_feature  the same with begin() + 8 set_feature() (the C
//                        interface's and Apollo's way of passing features);
//   explore_iteration    the same on a round-robin region (it never trains:
//                        every execution records a sample);
//   dtree_inference, rforest_inference   DecisionTree / RandomForest predict;
//   dtree_training/N     DecisionTree::train on N rows.
// Run with AUTOSCHED_DB=off (run.sh does); the regions here also set
// persist = false. Google Benchmark's flags apply (run.sh asks for repetitions).
#include <autosched/measure/clock.hpp>
#include <autosched/regions/region.hpp>
#include <autosched/regions/models/decision_tree.hpp>
#include <autosched/regions/models/random_forest.hpp>
#include <autosched/regions/models/training_set.hpp>

#include <benchmark/benchmark.h>

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <random>
#include <span>
#include <string>
#include <vector>

namespace {

constexpr int kFeatures = 8;
constexpr int kVariants = 8;
constexpr std::size_t kVectors = 128;  // a power of two: the loops cycle with a mask

/// P random linear cost functions of the F features; the "fastest variant" of
/// a vector is the one whose cost is smallest there. Gives labels that need a
/// real tree (no one feature decides), like measured variants do.
class Costs {
 public:
  explicit Costs(std::uint64_t seed) {
    std::mt19937_64 random(seed);
    std::uniform_real_distribution<double> weight(-1.0, 1.0);
    for (auto& w : weights_)
      for (double& x : w) x = weight(random);
  }
  [[nodiscard]] double cost(int variant, const double* x) const {
    double c = 0;
    for (int f = 0; f < kFeatures; ++f)
      c += weights_[static_cast<std::size_t>(variant)][static_cast<std::size_t>(f)] * x[f];
    return c;
  }
  [[nodiscard]] int best(const double* x) const {
    int best = 0;
    for (int v = 1; v < kVariants; ++v)
      if (cost(v, x) < cost(best, x)) best = v;
    return best;
  }

 private:
  std::array<std::array<double, kFeatures>, kVariants> weights_{};
};

/// `rows` feature vectors of small integers (exact features: a region keys
/// them as given), labelled by `costs`.
autosched::TrainingSet make_rows(std::size_t rows, const Costs& costs, std::uint64_t seed) {
  autosched::TrainingSet data{.features = kFeatures, .classes = kVariants};
  std::mt19937_64 random(seed);
  std::uniform_int_distribution<int> value(0, 15);
  std::array<double, kFeatures> x{};
  for (std::size_t r = 0; r < rows; ++r) {
    for (double& v : x) v = value(random);
    data.add(x, costs.best(x.data()));
  }
  return data;
}

const Costs& costs() {
  static const Costs c(42);
  return c;
}

/// The 128 vectors the region cases cycle over.
const autosched::TrainingSet& vectors() {
  static const autosched::TrainingSet v = make_rows(kVectors, costs(), 7);
  return v;
}

autosched::RegionOptions region_options(std::string model, int min_train) {
  autosched::RegionOptions options{.model = std::move(model), .min_train = min_train, .persist = false};
  for (int f = 0; f < kFeatures; ++f) options.features.emplace_back(std::string(1, 'f').append(std::to_string(f)));
  for (int v = 0; v < kVariants; ++v) options.variants.push_back(std::string(1, 'v').append(std::to_string(v)));
  return options;
}

/// A dtree region trained on every (vector, variant) pair. The executions it
/// learns from end with the synthetic cost (in "nanoseconds" around 10^6), so
/// that the tree is a real depth-2 tree (an empty body's times are noise and
/// would give an arbitrary one), and so that the timed executions that follow
/// (tens of ns) never look like a drift.
autosched::Region& trained_region(const std::string& model) {
  // explore_after=0: the timed loop measures exploitation only.
  static std::map<std::string, std::unique_ptr<autosched::Region>> regions;
  auto& region = regions[model];
  if (region) return *region;
  region = std::make_unique<autosched::Region>(
      "bench/exploit/" + model, region_options(model + ",explore_after=0", static_cast<int>(kVectors) * kVariants));
  const auto& v = vectors();
  for (int round = 0; round < kVariants; ++round) {  // round-robin exploration: each vector meets every variant
    for (std::size_t i = 0; i < kVectors; ++i) {
      auto scope = region->begin(std::span<const double>(v.row(i), kFeatures));
      scope.end(1e6 + 1e5 * costs().cost(scope.variant(), v.row(i)));
    }
  }
  if (!region->stats().trained) region->train();
  return *region;
}

void empty_scope(benchmark::State& state) {
  for (auto _ : state) {
    const std::int64_t start = autosched::now_ns();
    const std::int64_t stop = autosched::now_ns();
    benchmark::DoNotOptimize(stop - start);
  }
}

/// Executions of `region` over the 128 vectors; reports how many explored.
void iterate(benchmark::State& state, autosched::Region& region) {
  const auto& v = vectors();
  const std::int64_t explored = region.stats().explored;
  std::size_t i = 0;
  for (auto _ : state) {
    auto scope = region.begin(std::span<const double>(v.row(i), kFeatures));
    benchmark::DoNotOptimize(scope.variant());
    scope.end();
    i = (i + 1) & (kVectors - 1);
  }
  state.counters["explored"] = static_cast<double>(region.stats().explored - explored);
  state.counters["trained"] = region.stats().trained ? 1 : 0;
}

void exploit_iteration(benchmark::State& state) {
  autosched::Region& region = trained_region("dtree,depth=2");
  if (!region.stats().trained) {
    state.SkipWithError("the dtree region did not train");
    return;
  }
  iterate(state, region);
}

/// The forest's answer is kept per feature vector after training, so a
/// trained rforest region costs what a dtree one does.
void exploit_iteration_rforest(benchmark::State& state) {
  autosched::Region& region = trained_region("rforest,trees=10,depth=4");
  if (!region.stats().trained) {
    state.SkipWithError("the rforest region did not train");
    return;
  }
  iterate(state, region);
}

void exploit_set_feature(benchmark::State& state) {
  autosched::Region& region = trained_region("dtree,depth=2");
  if (!region.stats().trained) {
    state.SkipWithError("the dtree region did not train");
    return;
  }
  const auto& v = vectors();
  std::size_t i = 0;
  for (auto _ : state) {
    auto scope = region.begin();
    const double* x = v.row(i);
    for (int f = 0; f < kFeatures; ++f) scope.set_feature(x[f]);
    benchmark::DoNotOptimize(scope.variant());
    scope.end();
    i = (i + 1) & (kVectors - 1);
  }
}

void explore_iteration(benchmark::State& state) {
  static autosched::Region region("bench/explore", region_options("round-robin", 0));
  iterate(state, region);
}

void dtree_inference(benchmark::State& state) {
  const auto& data = vectors();
  const auto tree = autosched::DecisionTree::train(data, {.max_depth = 2});
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(tree.predict(data.row(i)));
    i = (i + 1) & (kVectors - 1);
  }
  state.counters["depth"] = tree.depth();
}

void rforest_inference(benchmark::State& state) {
  const auto& data = vectors();
  const auto forest = autosched::RandomForest::train(data, {.trees = 10, .max_depth = 4, .seed = 1});
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(forest.predict(data.row(i)));
    i = (i + 1) & (kVectors - 1);
  }
}

void dtree_training(benchmark::State& state) {
  const auto data = make_rows(static_cast<std::size_t>(state.range(0)), costs(), 11);
  int depth = 0;
  for (auto _ : state) {
    auto tree = autosched::DecisionTree::train(data, {.max_depth = 2});
    benchmark::DoNotOptimize(tree);
    depth = tree.depth();
  }
  state.counters["depth"] = depth;
}

}  // namespace

BENCHMARK(empty_scope);
BENCHMARK(exploit_iteration);
BENCHMARK(exploit_iteration_rforest);
BENCHMARK(exploit_set_feature);
BENCHMARK(explore_iteration);
BENCHMARK(dtree_inference);
BENCHMARK(rforest_inference);
BENCHMARK(dtree_training)->Arg(16)->Arg(128)->Arg(1000)->Unit(benchmark::kMicrosecond);

BENCHMARK_MAIN();
