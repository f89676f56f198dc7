// How a RegionLearner decides for one feature vector: the fixed models, the
// learners (coverage sweep, then the model with low-rate exploration) and
// the bandits, which are select/'s selectors, one per vector.
#include <autosched/regions/region_learner.hpp>

#include <autosched/regions/detail/learner_entry.hpp>
#include <autosched/select/selectors/auto/auto_selector.hpp>
#include <autosched/select/selectors/bandit/epsilon_greedy_selector.hpp>
#include <autosched/select/selectors/bandit/thompson_selector.hpp>
#include <autosched/select/selectors/bandit/ucb_selector.hpp>

#include <algorithm>
#include <random>

namespace autosched {

namespace {

constexpr std::uint64_t golden = 0x9e3779b97f4a7c15ULL;

/// The bandit of vector number `index`, starting from the samples `all`
/// already holds (loaded from a file or the store, or measured before a
/// reload dropped the previous bandit).
std::unique_ptr<Selector> make_bandit(const ModelSpec& spec, int variants, int index, std::span<const PairStats> all) {
  if (spec.kind == ModelSpec::Kind::automatic) {
    AutoConfig config;
    config.warmup = 0;  // skip_first is the regions' warm-up switch
    config.seed = spec.seed + static_cast<std::uint64_t>(index) * golden;
    auto bandit = std::make_unique<autosched::detail::AutoSelector>(variants, config);
    std::vector<RunningStats> samples(all.size());
    for (std::size_t v = 0; v < all.size(); ++v)
      if (all[v].count() > 0) samples[v] = all[v].time;
    (void)bandit->seed(samples);  // refused (no sample, a mean ≤ 0): it sweeps
    return bandit;
  }
  // The first vector draws the stream a learner-wide generator drew before
  // the bandits were selectors; the others get streams of their own.
  BanditOptions options{.coverage = spec.coverage,
                        .best_by_min = spec.label_by_min,
                        .sweep_random = spec.explore_random,
                        .seed = (spec.seed ^ 0x7265676e5eedULL) + static_cast<std::uint64_t>(index) * golden};
  std::unique_ptr<CostBandit> bandit;
  switch (spec.kind) {
    case ModelSpec::Kind::epsilon_greedy:
      bandit = std::make_unique<EpsilonGreedySelector>(variants, spec.epsilon, options);
      break;
    case ModelSpec::Kind::ucb:
      bandit = std::make_unique<UcbSelector>(variants, spec.ucb_c, options);
      break;
    default:
      bandit = std::make_unique<ThompsonSelector>(variants, options);
      break;
  }
  std::vector<ArmSamples> samples(all.size());
  for (std::size_t v = 0; v < all.size(); ++v)
    if (all[v].count() > 0) samples[v] = ArmSamples{all[v].time, all[v].min};
  (void)bandit->seed(samples);  // the table holds only statistics a run produces
  return bandit;
}

}  // namespace

Choice RegionLearner::explore(Entry& e, bool& any) {
  const int v = e.sweep.next(
      variants_, [&](int a) { return covered(e.all[static_cast<std::size_t>(a)]); },
      spec_.explore_random ? &rng_ : nullptr);
  any = v >= 0;
  return any ? Choice{v, true} : Choice{};
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
    case ModelSpec::Kind::thompson:
    case ModelSpec::Kind::automatic: {
      if (!e.bandit) e.bandit = make_bandit(spec_, variants_, index, e.all);
      const Decision d = e.bandit->choose(Context{});
      c = {d.arm, d.exploring};
      break;
    }
  }
  ++executions_;
  if (c.exploring) ++explored_;
  return c;
}

}  // namespace autosched
