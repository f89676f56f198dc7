#pragma once
/// @file
/// The ten reward signals of the RL selectors, each with its own trackers
/// (per decision point, initialised from the first observation — LB4OMP's
/// start at 999 ms means loops over ~1 s can never earn r+, and its averages
/// are shared by every loop of the process).
///   looptime, loadimbalance, stddev, cov, skewness (|·|), kurtosis (|·|):
///       a band reward on that signal x: r+ when x is at or near the lowest
///       seen, r− at or near the highest, r0 otherwise (RlBand).
///   looptime-average: r+ when the loop time is at most the mean of all
///       earlier ones, else r− (thesis text).
///   looptime-rolling-average: the same against the mean of the last
///       `window` loop times including the current one.
///   looptime-inverse: multiplier / loop time in ms.
///   robustness: tau · fastest loop time − loop time (ms), fastest seen so far.

#include <autosched/select/grammar/outcome.hpp>
#include <autosched/select/grammar/rl_config.hpp>

#include <iosfwd>
#include <vector>

namespace autosched {

class RewardTracker {
 public:
  explicit RewardTracker(const RlConfig& config) : config_(config) {}

  /// The reward for one outcome; updates the trackers.
  double reward(const Outcome& outcome);

  /// The trackers as text (appended to the agent's state) and back; load()
  /// returns false, changing nothing, when the text is damaged.
  void save(std::ostream& out) const;
  bool load(std::istream& in);

  /// The raw signal of the last outcome and the trackers, for agent logs.
  [[nodiscard]] double signal() const noexcept { return signal_; }
  [[nodiscard]] double low() const noexcept { return low_; }
  [[nodiscard]] double high() const noexcept { return high_; }

 private:
  double band(double x);
  /// Every signal but loop time (the default), off the decision path's pages.
  double other_reward(const Outcome& outcome);

  RlConfig config_;
  bool seen_ = false;
  double signal_ = 0, low_ = 0, high_ = 0;
  double sum_ = 0;
  long count_ = 0;
  std::vector<double> recent_;  ///< the rolling window, oldest first (a deque allocates even when empty)
};

}  // namespace autosched
