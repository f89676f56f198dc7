#include <autosched/select/grammar/rl_names.hpp>

#include <autosched/core/text.hpp>

#include <algorithm>
#include <string>
#include <vector>

namespace autosched {

namespace {

// LB4OMP: RL4OMP's agent ids (LB4OMP's papers and published code); LB4MPI:
// MPI_RL_OPTION's class names (Birgovan 2023).
constexpr RlLearnerName learners[] = {
    {RlLearner::qlearn, "qlearn", 8, "QLearner"},
    {RlLearner::doubleq, "doubleq", 9, "DoubleQLearner"},
    {RlLearner::sarsa, "sarsa", 10, "SARSA_Learner"},
    {RlLearner::expected_sarsa, "expected-sarsa", 11, "ExpectedSARSA_Learner"},
    {RlLearner::qv, "qv", 12, "QV_Learner"},
};

constexpr RlOptionName<RlPolicy> policies[] = {{"explore-first", RlPolicy::explore_first},
                                               {"epsilon-greedy", RlPolicy::epsilon_greedy},
                                               {"softmax", RlPolicy::softmax},
                                               {"replay", RlPolicy::replay}};
constexpr RlOptionName<RlReward> rewards[] = {{"looptime", RlReward::looptime},
                                              {"looptime-average", RlReward::looptime_average},
                                              {"looptime-rolling-average", RlReward::looptime_rolling_average},
                                              {"looptime-inverse", RlReward::looptime_inverse},
                                              {"robustness", RlReward::robustness},
                                              {"loadimbalance", RlReward::loadimbalance},
                                              {"stddev", RlReward::stddev},
                                              {"cov", RlReward::cov},
                                              {"skewness", RlReward::skewness},
                                              {"kurtosis", RlReward::kurtosis}};
constexpr RlOptionName<RlInit> inits[] = {
    {"zero", RlInit::zero}, {"random", RlInit::random}, {"optimistic", RlInit::optimistic}};
constexpr RlOptionName<RlDecay> decays[] = {{"exponential", RlDecay::exponential}, {"step", RlDecay::step}};
constexpr RlOptionName<RlGreedy> greedies[] = {{"average", RlGreedy::average}, {"row", RlGreedy::row}};
constexpr RlOptionName<RlBand> bands[] = {{"band", RlBand::band}, {"strict", RlBand::strict}};

/// Lower case without '_': "SARSA_Learner" → "sarsalearner".
std::string folded(std::string_view s) {
  std::string out = text::lower(text::trim(s));
  std::erase(out, '_');
  return out;
}

}  // namespace

std::span<const RlLearnerName> rl_learner_names() noexcept { return learners; }

std::optional<RlLearner> find_rl_learner(std::string_view name) noexcept {
  for (const auto& l : learners) {
    if (l.name == name) return l.learner;
  }
  return std::nullopt;
}

std::optional<RlLearner> find_rl_learner_alias(std::string_view name) {
  const std::string f = folded(name);
  for (const auto& l : learners) {
    if (f == l.name || f == std::to_string(l.lb4omp_method) || f == folded(l.lb4mpi_name)) return l.learner;
  }
  return std::nullopt;
}

std::string_view rl_learner_name(RlLearner learner) noexcept {
  for (const auto& l : learners) {
    if (l.learner == learner) return l.name;
  }
  return "qlearn";
}

std::string rl_learner_list() {
  std::vector<std::string_view> names;
  for (const auto& l : learners) names.push_back(l.name);
  return text::join(names);
}

std::span<const RlOptionName<RlPolicy>> rl_policy_names() noexcept { return policies; }
std::span<const RlOptionName<RlReward>> rl_reward_names() noexcept { return rewards; }
std::span<const RlOptionName<RlInit>> rl_init_names() noexcept { return inits; }
std::span<const RlOptionName<RlDecay>> rl_decay_names() noexcept { return decays; }
std::span<const RlOptionName<RlGreedy>> rl_greedy_names() noexcept { return greedies; }
std::span<const RlOptionName<RlBand>> rl_band_names() noexcept { return bands; }

}  // namespace autosched
