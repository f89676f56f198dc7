// The rules of the cost bandits; the sweep, the samples and the state text
// are CostBandit's.
#include <autosched/core/error.hpp>
#include <autosched/select/selectors/bandit/epsilon_greedy_selector.hpp>
#include <autosched/select/selectors/bandit/thompson_selector.hpp>
#include <autosched/select/selectors/bandit/ucb_selector.hpp>

#include <algorithm>
#include <cmath>
#include <random>

namespace autosched {

EpsilonGreedySelector::EpsilonGreedySelector(int arms, double epsilon, BanditOptions options)
    : CostBandit(arms, options), epsilon_(epsilon) {
  if (!(epsilon >= 0 && epsilon <= 1))
    detail::throw_error("epsilon-greedy: epsilon = " + std::to_string(epsilon) + ", expected a number in [0,1]");
}

int EpsilonGreedySelector::pick(int best) {
  if (std::uniform_real_distribution<double>(0, 1)(random()) < epsilon_)
    return std::uniform_int_distribution<int>(0, arms() - 1)(random());
  return best;
}

UcbSelector::UcbSelector(int arms, double c, BanditOptions options) : CostBandit(arms, options), c_(c) {
  if (!(c >= 0 && std::isfinite(c)))
    detail::throw_error("ucb: c = " + std::to_string(c) + ", expected a finite number ≥ 0");
}

int UcbSelector::pick(int best) {
  const auto& arms = table();
  double total = 0;
  for (const ArmSamples& s : arms) total += static_cast<double>(s.stats.count);
  const double scale = arms[static_cast<std::size_t>(best)].stats.mean;
  int chosen = best;
  double lowest = 0;
  for (int a = 0; a < this->arms(); ++a) {
    const RunningStats& s = arms[static_cast<std::size_t>(a)].stats;
    const double score = s.mean - c_ * scale * std::sqrt(2 * std::log(total) / static_cast<double>(s.count));
    if (a == 0 || score < lowest) {
      lowest = score;
      chosen = a;
    }
  }
  return chosen;
}

ThompsonSelector::ThompsonSelector(int arms, BanditOptions options, double spread_floor)
    : CostBandit(arms, options), floor_(spread_floor) {
  if (!(spread_floor >= 0 && std::isfinite(spread_floor)))
    detail::throw_error("thompson: spread floor = " + std::to_string(spread_floor) + ", expected a finite number ≥ 0");
}

int ThompsonSelector::pick(int best) {
  std::normal_distribution<double> normal(0, 1);
  int chosen = best;
  double lowest = 0;
  for (int a = 0; a < arms(); ++a) {
    const RunningStats& s = table()[static_cast<std::size_t>(a)].stats;
    const double sd = std::max(s.sample_stddev(), floor_ * std::abs(s.mean));
    const double draw = s.mean + sd / std::sqrt(static_cast<double>(s.count)) * normal(random());
    if (a == 0 || draw < lowest) {
      lowest = draw;
      chosen = a;
    }
  }
  return chosen;
}

}  // namespace autosched
