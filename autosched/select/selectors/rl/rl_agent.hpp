#pragma once
/// @file
/// The reinforcement-learning selectors: Q-learning, SARSA, Double-Q, QV and
/// Expected SARSA, with the explore-first, epsilon-greedy, softmax and replay
/// policies (docs/selection.md; RL4OMP / LB4MPI as described in
/// LB4OMP's papers, without the defects known in their published code).
///
/// The MDP is RL4OMP's: the state is the arm that ran last, the action the
/// arm to run next, and the reward of the instance that just ran (arm s) is
/// credited to the transition s → a chosen now, so row s of the table
/// estimates the value of arm s. The first instance runs arm 0.
///   Q-learning:      Q[s][a] += α (r + γ Q[a][g] − Q[s][a]),  g = greedy action from a
///   SARSA:           a' drawn from the policy (and taken next): r + γ Q[a][a']
///   Expected SARSA:  r + γ ((1−ε) Q[a][g] + ε/A Σ_k Q[a][k])
///   Double-Q:        a coin picks A or B; A is updated with B[a][argmax A[a]], B with
///                    A[a][argmax B[a]] (textbook; LB4OMP uses argmax A for both);
///                    policies read A + B
///   QV:              V[s] += α (r + γ V[a] − V[s]),  Q[s][a] += α (r + γ V[a] − Q[s][a])
/// Visit counts are explicit (0.0 never means "unvisited"), the optimistic
/// initialiser is optimistic (one reward range above r+), and both decays
/// exist: exponential max(min, x0·e^(−f·t)) and step max(min, x0 − f·t), with t
/// counted from the end of explore-first.

#include <autosched/select/grammar/rl_config.hpp>
#include <autosched/select/selectors/rl/rl_reward.hpp>
#include <autosched/select/selectors/selector.hpp>

#include <random>
#include <string>
#include <vector>

namespace autosched {

class RlAgent final : public Selector {
 public:
  /// The selector's name is its learner's ("qlearn", "sarsa", …) unless
  /// `name` overrides it (the chunk selector).
  RlAgent(int arms, RlConfig config, SelectorLog* log = nullptr, std::string loop = {}, std::string name = {});

  /// The schedule name of a learner.
  static std::string_view learner_name(RlLearner learner) noexcept;

  [[nodiscard]] std::string_view name() const noexcept override { return name_; }
  Decision choose(const Context& context) override;
  void observe(const Decision& decision, const Outcome& outcome) override;
  /// The agent's state is its last arm; the context plays no part.
  [[nodiscard]] bool decides_ahead() const noexcept override { return true; }
  [[nodiscard]] std::string save_state() const override;
  bool load_state(std::string_view state) override;
  [[nodiscard]] std::string summary() const override;
  [[nodiscard]] double last_reward() const noexcept override { return pending_reward_; }

  // Inspection (tests, tools).
  [[nodiscard]] double q(int s, int a) const noexcept { return value(s, a); }
  [[nodiscard]] double table_a(int s, int a) const noexcept { return q_[index(s, a)]; }
  [[nodiscard]] double table_b(int s, int a) const noexcept { return b_.empty() ? 0.0 : b_[index(s, a)]; }
  [[nodiscard]] double v(int s) const noexcept { return v_.empty() ? 0.0 : v_[static_cast<std::size_t>(s)]; }
  [[nodiscard]] long visits(int s, int a) const noexcept { return visits_[index(s, a)]; }
  [[nodiscard]] double alpha() const noexcept { return alpha_; }
  [[nodiscard]] double epsilon() const noexcept { return epsilon_; }
  [[nodiscard]] bool exploring_pairs() const noexcept { return paired_ < arms_ * arms_; }
  [[nodiscard]] int greedy_action(int state) const;

 private:
  [[nodiscard]] std::size_t index(int s, int a) const noexcept {
    return static_cast<std::size_t>(s) * static_cast<std::size_t>(arms_) + static_cast<std::size_t>(a);
  }
  [[nodiscard]] double value(int s, int a) const noexcept {
    return b_.empty() ? q_[index(s, a)] : q_[index(s, a)] + b_[index(s, a)];
  }
  [[nodiscard]] int argmax_row(const std::vector<double>& table, int s) const;
  int policy(int state, bool& explored);
  int softmax_action(int state, bool& explored);
  int explore_first(int state);
  void learn(int s, int a, double r);
  void update_rates();
  void log_step(int arm, double reward);

  // What a decision reads comes first, next to the object's start (its
  // virtual table pointer) and ahead of the 2.5 KB random generator: on a
  // coordinator whose caches the ranks have emptied, every further page a
  // decision touches costs it about half a microsecond (docs/mpi.md).
  int arms_;
  int state_ = 0;
  int next_action_ = -1;  ///< SARSA: the a' it bootstrapped from, taken next
  int paired_ = 0;
  int jump_ = 0;
  bool started_ = false;
  /// A decision was made and its outcome not yet observed: choose() repeats
  /// it (learning nothing) instead of learning the last reward a second time.
  bool awaiting_ = false;
  bool last_explored_ = false;
  long step_ = 0;  ///< decisions after the first
  double pending_reward_ = 0;
  double alpha_ = 0, epsilon_ = 0;
  // Exponential decay: e^(−f·t) for t = decay_t_, and e^(−f), one step.
  double alpha_factor_ = 1, epsilon_factor_ = 1;
  double alpha_step_ = 1, epsilon_step_ = 1;
  long decay_t_ = 0;
  std::size_t replay_next_ = 0;
  std::vector<double> q_, b_, v_;
  std::vector<long> visits_;
  std::vector<char> paired_matrix_;  ///< explore-first: ordered pairs already traversed
  RlConfig config_;
  RewardTracker rewards_;
  std::string name_;
  SelectorLog* log_;
  std::string loop_;
  std::mt19937_64 rng_;
};

}  // namespace autosched
