#pragma once
/// @file
/// Thompson sampling (Thompson 1933) on mean costs: after the coverage sweep,
/// each arm's mean has a normal posterior N(mean_a, (sd_a / √n_a)²), sd_a
/// its measured standard deviation but at least `spread_floor` × |mean_a|
/// (one sample, or identical ones, do not make an arm certain); the arm with
/// the lowest draw runs. Regions' `thompson`.
///
/// AutoSelector samples the same kind of posterior with a spread pooled over
/// the arms, guards and change detection; this is the plain rule.

#include <autosched/select/selectors/bandit/cost_bandit.hpp>

namespace autosched {

class ThompsonSelector final : public CostBandit {
 public:
  /// 0.03: the relative spread of repeated loop and kernel times on a quiet
  /// node, the same floor AutoConfig::noise_floor assumes.
  static constexpr double default_spread_floor = 0.03;

  /// Throws autosched::Error for a negative or non-finite floor (and see CostBandit).
  explicit ThompsonSelector(int arms, BanditOptions options = {}, double spread_floor = default_spread_floor);

  [[nodiscard]] std::string_view name() const noexcept override { return "thompson"; }
  [[nodiscard]] double spread_floor() const noexcept { return floor_; }

 private:
  int pick(int best) override;

  double floor_;
};

}  // namespace autosched
