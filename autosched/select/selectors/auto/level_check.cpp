#include <autosched/select/selectors/auto/level_check.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

namespace autosched::autoselect {

void LevelCheck::begin(int best, double mean, int instances) {
  left = std::max(0, instances);
  arm = best;
  stored_mean = mean;
  samples = {};
}

LevelCheck::Verdict LevelCheck::add(double time_ns, double spread, const AutoConfig& config) {
  samples.add(time_ns);
  if (--left > 0) return Verdict::pending;
  const double tolerance =
      std::max(config.match, 3.0 * spread / std::sqrt(static_cast<double>(std::max(1, config.verify))));
  const double relative = samples.mean / stored_mean - 1.0;
  return std::abs(relative) <= tolerance ? Verdict::same_level : Verdict::other_level;
}

bool LevelCheck::same_loop(const std::vector<double>& predicted, const std::vector<double>& stored,
                           const AutoConfig& config) const {
  const int best = arm;
  if (best < 0 || stored.size() != predicted.size()) return false;
  const auto at = [](const std::vector<double>& v, int a) { return v[static_cast<std::size_t>(a)]; };
  const double now_best = at(predicted, best), then_best = at(stored, best);
  if (!(std::isfinite(now_best) && now_best > 0 && std::isfinite(then_best) && then_best > 0)) return false;
  double lowest = std::numeric_limits<double>::infinity();
  for (const double t : predicted) {
    if (std::isfinite(t) && t > 0) lowest = std::min(lowest, t);
  }
  if (now_best > (1.0 + config.margin) * lowest) return false;
  std::vector<double> differences;
  for (int a = 0; a < static_cast<int>(stored.size()); ++a) {
    const double now = at(predicted, a), then = at(stored, a);
    if (std::isfinite(now) && now > 0 && std::isfinite(then) && then > 0) {
      differences.push_back(std::abs(std::log(now / now_best) - std::log(then / then_best)));
    }
  }
  if (differences.empty()) return false;
  const auto middle = differences.begin() + static_cast<std::ptrdiff_t>(differences.size() / 2);
  std::nth_element(differences.begin(), middle, differences.end());
  return *middle <= config.match;
}

void LevelCheck::clear() noexcept {
  samples_counted = false;
  left = 0;
  arm = -1;
  witness.arm = -1;
}

bool LevelCheck::witness_agrees(double witness_time, double ratio, const AutoConfig& config) const {
  const double own = witness_time / witness.mean;
  return std::isfinite(own) && own > 0 && std::isfinite(ratio) && ratio > 0 &&
         std::abs(std::log(own / ratio)) <= std::log1p(config.match);
}

}  // namespace autosched::autoselect
