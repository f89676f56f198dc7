#include <autosched/select/selectors/rl/rl_reward.hpp>

#include <autosched/core/decision_path.hpp>

#include <algorithm>
#include <cmath>
#include <istream>
#include <ostream>
#include <numeric>

namespace autosched {

AUTOSCHED_DECISION_PATH double RewardTracker::band(double x) {
  if (!seen_) {
    seen_ = true;
    low_ = high_ = x;
  }
  const bool strict = config_.band == RlBand::strict;
  if (strict ? x <= low_ : x <= 1.05 * low_) {
    low_ = std::min(low_, x);
    return config_.r_plus;
  }
  if (strict ? x >= high_ : x >= 0.95 * high_) {
    high_ = std::max(high_, x);
    return config_.r_minus;
  }
  return config_.r_zero;
}

AUTOSCHED_DECISION_PATH double RewardTracker::reward(const Outcome& o) {
  // The default signal in a few instructions next to band(): the switch
  // below fills a page of code and reads a jump table from another.
  if (config_.reward == RlReward::looptime) return band(signal_ = o.time_ns / 1e6);
  return other_reward(o);
}

double RewardTracker::other_reward(const Outcome& o) {
  const double ms = o.time_ns / 1e6;
  const LoopMetrics& m = o.metrics;
  switch (config_.reward) {
    case RlReward::looptime:
      return band(signal_ = ms);
    case RlReward::loadimbalance:
      return band(signal_ = m.lib);
    case RlReward::stddev:
      return band(signal_ = m.stddev);
    case RlReward::cov:
      return band(signal_ = m.cov);
    case RlReward::skewness:
      return band(signal_ = std::abs(m.skewness));
    case RlReward::kurtosis:
      return band(signal_ = std::abs(m.kurtosis));
    case RlReward::looptime_average: {
      signal_ = ms;
      const bool good = count_ == 0 || ms <= sum_ / static_cast<double>(count_);
      sum_ += ms;
      ++count_;
      low_ = high_ = sum_ / static_cast<double>(count_);
      return good ? config_.r_plus : config_.r_minus;
    }
    case RlReward::looptime_rolling_average: {
      signal_ = ms;
      recent_.push_back(ms);
      const auto window = static_cast<std::size_t>(std::max(1, config_.window));
      if (recent_.size() > window) recent_.erase(recent_.begin(), recent_.end() - static_cast<std::ptrdiff_t>(window));
      const double mean = std::accumulate(recent_.begin(), recent_.end(), 0.0) / static_cast<double>(recent_.size());
      low_ = high_ = mean;
      return ms <= mean ? config_.r_plus : config_.r_minus;
    }
    case RlReward::looptime_inverse:
      signal_ = ms;
      return ms > 0 ? config_.inverse_multiplier / ms : config_.inverse_multiplier;
    case RlReward::robustness:
      signal_ = ms;
      low_ = seen_ ? std::min(low_, ms) : ms;  // fastest so far (LB4OMP never updates it)
      seen_ = true;
      return config_.tau * low_ - ms;
  }
  return config_.r_zero;
}

void RewardTracker::save(std::ostream& out) const {
  out << ' ' << seen_ << ' ' << signal_ << ' ' << low_ << ' ' << high_ << ' ' << sum_ << ' ' << count_ << ' '
      << recent_.size();
  for (double x : recent_) out << ' ' << x;
}

bool RewardTracker::load(std::istream& in) {
  RewardTracker copy = *this;
  std::size_t recent = 0;
  if (!(in >> copy.seen_ >> copy.signal_ >> copy.low_ >> copy.high_ >> copy.sum_ >> copy.count_ >> recent)) {
    return false;
  }
  // The window never holds more than config_.window values.
  if (copy.count_ < 0 || recent > static_cast<std::size_t>(std::max(1, config_.window))) return false;
  copy.recent_.resize(recent);
  for (double& x : copy.recent_) in >> x;
  if (!in) return false;
  *this = std::move(copy);
  return true;
}

}  // namespace autosched
