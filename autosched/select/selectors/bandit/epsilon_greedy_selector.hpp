#pragma once
/// @file
/// ε-greedy on costs (Sutton & Barto, §2.2): after the coverage sweep, run
/// the best arm, except with probability ε a uniformly drawn arm (possibly
/// the best). Regions' `epsilon-greedy,epsilon=ε`.

#include <autosched/select/selectors/bandit/cost_bandit.hpp>

namespace autosched {

class EpsilonGreedySelector final : public CostBandit {
 public:
  /// Throws autosched::Error for ε outside [0, 1] (and see CostBandit).
  EpsilonGreedySelector(int arms, double epsilon, BanditOptions options = {});

  [[nodiscard]] std::string_view name() const noexcept override { return "epsilon-greedy"; }
  [[nodiscard]] double epsilon() const noexcept { return epsilon_; }

 private:
  int pick(int best) override;

  double epsilon_;
};

}  // namespace autosched
