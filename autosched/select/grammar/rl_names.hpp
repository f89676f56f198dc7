#pragma once
/// @file
/// Every spelling of the reinforcement-learning options, in one table each:
/// the learners with LB4OMP's method numbers (OMP_SCHEDULE=auto,<n>,
/// KMP_RL_CHUNK_TYPE) and LB4MPI's class names (MPI_RL_OPTION,
/// LB4MPI_RL_SELECTOR_TYPE), and the names of policies, rewards,
/// initialisers, decays, greedy rules and bands. The schedule grammar
/// (selector_config), the environment aliases (schedule_environment) and the
/// agent's own name all read these tables; nothing else maps names to enums.

#include <autosched/select/grammar/rl_config.hpp>

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace autosched {

struct RlLearnerName {
  RlLearner learner;
  std::string_view name;         ///< autosched's, as after `auto:`: "qlearn"
  int lb4omp_method;             ///< OMP_SCHEDULE=auto,<n>; also MPI_RL_OPTION=<n>
  std::string_view lb4mpi_name;  ///< LB4MPI's class: "QLearner"
};

/// qlearn (8, QLearner), doubleq (9, DoubleQLearner), sarsa (10,
/// SARSA_Learner), expected-sarsa (11, ExpectedSARSA_Learner), qv (12,
/// QV_Learner), in LB4OMP's method order.
std::span<const RlLearnerName> rl_learner_names() noexcept;

/// The learner named `name` in autosched's spelling (case-sensitive, as the
/// grammar lower-cases first), or nullopt.
std::optional<RlLearner> find_rl_learner(std::string_view name) noexcept;

/// The learner named by LB4OMP's number, LB4MPI's class name (any case, with
/// or without '_') or autosched's name, or nullopt.
std::optional<RlLearner> find_rl_learner_alias(std::string_view name);

/// autosched's name of `learner`: "qlearn", "sarsa", …
std::string_view rl_learner_name(RlLearner learner) noexcept;

/// "qlearn, doubleq, sarsa, expected-sarsa, qv".
std::string rl_learner_list();

/// A name and the value it stands for, for the option enums.
template <class Enum>
struct RlOptionName {
  std::string_view name;
  Enum value;
};

std::span<const RlOptionName<RlPolicy>> rl_policy_names() noexcept;
std::span<const RlOptionName<RlReward>> rl_reward_names() noexcept;
std::span<const RlOptionName<RlInit>> rl_init_names() noexcept;
std::span<const RlOptionName<RlDecay>> rl_decay_names() noexcept;
std::span<const RlOptionName<RlGreedy>> rl_greedy_names() noexcept;
std::span<const RlOptionName<RlBand>> rl_band_names() noexcept;

}  // namespace autosched
