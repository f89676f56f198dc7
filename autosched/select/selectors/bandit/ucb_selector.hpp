#pragma once
/// @file
/// UCB1 (Auer, Cesa-Bianchi & Fischer 2002) for costs: after the coverage
/// sweep, run the arm with the lowest optimistic mean
///   mean_a − c · scale · √(2 ln N / n_a),
/// N the samples of all arms, n_a arm a's, and `scale` the best arm's mean,
/// so that the bonus is in the units of the cost and the rule is scale free
/// (UCB1 proper assumes rewards in [0, 1]). Deterministic: no random draws
/// after a round-robin sweep. Regions' `ucb,c=c`.

#include <autosched/select/selectors/bandit/cost_bandit.hpp>

namespace autosched {

class UcbSelector final : public CostBandit {
 public:
  /// Throws autosched::Error for a negative or non-finite `c` (and see CostBandit).
  UcbSelector(int arms, double c, BanditOptions options = {});

  [[nodiscard]] std::string_view name() const noexcept override { return "ucb"; }
  [[nodiscard]] double c() const noexcept { return c_; }

 private:
  int pick(int best) override;

  double c_;
};

}  // namespace autosched
