#pragma once
/// @file
/// Options of the reinforcement-learning selectors (RL4OMP in LB4OMP, the RL
/// agents of LB4MPI; docs/selection.md, LB4OMP's papers and published code). Defaults are
/// the thesis' Table 4.1 (Birgovan 2023) except alpha = gamma = 0.5 and
/// alpha-decay 0.05, which is what the 2025 comparative study ran, and the
/// rewards (0.01, −2, −4) the thesis and that study used.

#include <cstdint>
#include <string>
#include <vector>

namespace autosched {

enum class RlLearner : std::uint8_t { qlearn, sarsa, doubleq, qv, expected_sarsa };
enum class RlPolicy : std::uint8_t { explore_first, epsilon_greedy, softmax, replay };
enum class RlReward : std::uint8_t {
  looptime,
  looptime_average,
  looptime_rolling_average,
  looptime_inverse,
  robustness,
  loadimbalance,
  stddev,
  cov,
  skewness,
  kurtosis,
};
enum class RlInit : std::uint8_t { zero, random, optimistic };
enum class RlDecay : std::uint8_t { exponential, step };
/// The greedy action: `average` picks the arm whose visited Q entries have the
/// best mean (state-independent; what LB4OMP's code since 2023 and the 2025
/// study do: row i estimates the value of arm i); `row` is the textbook
/// argmax over the current state's row.
enum class RlGreedy : std::uint8_t { average, row };
/// Reward bands: `band` = r+ within 5% of the best seen, r− within 5% of the
/// worst (thesis Algorithm 4); `strict` = only at or beyond them (paper Eq. 11).
enum class RlBand : std::uint8_t { band, strict };

struct RlConfig {
  RlLearner learner = RlLearner::qlearn;
  RlPolicy policy = RlPolicy::explore_first;
  RlReward reward = RlReward::looptime;
  RlInit init = RlInit::zero;
  RlDecay decay = RlDecay::exponential;
  RlGreedy greedy = RlGreedy::average;
  RlBand band = RlBand::band;
  double alpha = 0.5;         ///< learning rate (2025 study; thesis default 0.85)
  double gamma = 0.5;         ///< discount (2025 study; thesis default 0.95)
  double epsilon = 0.9;       ///< exploration probability of epsilon-greedy
  double tau = 1.5;           ///< softmax temperature and robustness tolerance
  double alpha_decay = 0.05;  ///< (2025 study; thesis default 0.01)
  double epsilon_decay = 0.01;
  double alpha_min = 0.1;
  double epsilon_min = 0.1;
  double r_plus = 0.01, r_zero = -2.0, r_minus = -4.0;  ///< good, neutral, bad rewards
  int window = 10;                                      ///< looptime-rolling-average window
  double inverse_multiplier = 10;                       ///< looptime-inverse: reward = multiplier / time_ms
  std::vector<int> replay;                              ///< policy=replay: the recorded arm sequence
  std::uint64_t seed = 0x5eed;
  std::string stats_path;   ///< per-step agent log (KMP_RL_AGENT_STATS style); empty = none
  std::string qtable_path;  ///< Q-table after every step; empty = none
  friend bool operator==(const RlConfig&, const RlConfig&) = default;
};

}  // namespace autosched
