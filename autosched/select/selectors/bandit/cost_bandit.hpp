#pragma once
/// @file
/// The base of the sample-based bandits (ε-greedy, UCB, Thompson sampling):
/// per arm the count, mean, spread (Welford) and minimum of the costs seen, a
/// coverage sweep that tries every arm `coverage` times before any rule
/// applies, the best arm (lowest mean, or lowest minimum), and the state
/// text. A subclass is one rule: given the best arm, which arm runs next.
/// Costs are Outcome::time_ns, minimised; they may be any finite number (a
/// tunable region's user metric may be negative).
///
/// One such bandit decides for one decision point: a tunable region holds one
/// per feature vector; a loop could hold one per size class.

#include <autosched/core/running_stats.hpp>
#include <autosched/select/selectors/bandit/coverage_sweep.hpp>
#include <autosched/select/selectors/selector.hpp>

#include <cstdint>
#include <limits>
#include <random>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace autosched {

/// What every cost bandit is told besides its rule's own parameter.
struct BanditOptions {
  int coverage = 1;           ///< samples each arm gets in the sweep before the rule applies (≥ 1)
  bool best_by_min = false;   ///< the best arm is the one with the lowest minimum, not mean
  bool sweep_random = false;  ///< the sweep draws among the uncovered arms instead of taking them in turn
  std::uint64_t seed = 0;     ///< the random stream (random sweep, ε draws, posterior draws)
  friend bool operator==(const BanditOptions&, const BanditOptions&) = default;
};

/// The costs one arm has measured.
struct ArmSamples {
  RunningStats stats;  ///< count, mean, M2
  double min = std::numeric_limits<double>::infinity();

  void add(double x) noexcept {
    stats.add(x);
    if (x < min) min = x;
  }
};

class CostBandit : public Selector {
 public:
  /// The sweep's next arm while an arm is not covered, else the rule's.
  /// Exploring: every sweep trial, and any rule pick other than best_arm().
  Decision choose(const Context& context) final;
  /// Learns outcome.time_ns for decision.arm; a cost that is not finite, or
  /// an arm outside [0, arms), is ignored.
  void observe(const Decision& decision, const Outcome& outcome) final;
  /// "<name> <arms>" and per arm "count mean m2 min" (hex floats: exact);
  /// empty before the first sample.
  [[nodiscard]] std::string save_state() const override;
  bool load_state(std::string_view state) override;
  /// "sweep k/A" while sweeping, then "best a".
  [[nodiscard]] std::string summary() const override;

  /// Starts from samples measured elsewhere (an earlier run's, kept by the
  /// caller): `samples[a]` are arm a's; arms without enough samples are swept
  /// first. False, with nothing changed, when the size is not the number of
  /// arms or a statistic is impossible (negative count or M2, not finite).
  bool seed(std::span<const ArmSamples> samples);

  [[nodiscard]] int arms() const noexcept { return static_cast<int>(arms_.size()); }
  [[nodiscard]] const ArmSamples& samples(int arm) const { return arms_[static_cast<std::size_t>(arm)]; }
  [[nodiscard]] const BanditOptions& options() const noexcept { return options_; }
  /// The arm with the lowest mean (or minimum, with best_by_min), the first
  /// of equals; -1 before any sample.
  [[nodiscard]] int best_arm() const;
  /// True while some arm has fewer than `coverage` samples.
  [[nodiscard]] bool sweeping() const;

 protected:
  /// Throws autosched::Error for fewer than one arm or a coverage below 1.
  CostBandit(int arms, BanditOptions options);

  /// The rule, once every arm is covered: the arm to run next, given the
  /// best one.
  virtual int pick(int best) = 0;

  [[nodiscard]] std::mt19937_64& random() noexcept { return rng_; }
  [[nodiscard]] const std::vector<ArmSamples>& table() const noexcept { return arms_; }

 private:
  [[nodiscard]] bool covered(int arm) const noexcept {
    return arms_[static_cast<std::size_t>(arm)].stats.count >= options_.coverage;
  }

  std::vector<ArmSamples> arms_;
  BanditOptions options_;
  std::mt19937_64 rng_;
  CoverageSweep sweep_;
};

}  // namespace autosched
