#pragma once
/// @file
/// The steal ratio of distributed loops (docs/mpi.md): the fraction of its
/// remaining iterations a victim hands a thief, and the coordinator's
/// selector over the three accepted values.
///
///   StealRatioSelector s;                 // on the coordinator, one per loop
///   StealRatio r = s.choose();            // before the instance (broadcast)
///   … run the instance with r …
///   s.observe(r, loop_time_ns);           // after the reduction
///
/// Why not a DecisionEngine point: its arms are TechniqueSpecs and its
/// selectors (expert, auto's simulation, profiling instances) reason about
/// techniques; a steal ratio is none. The Selector interface itself only sees
/// arm indices, so the ratio selector is an existing cost bandit (UCB1,
/// deterministic) over three arms.

#include <autosched/select/selectors/bandit/ucb_selector.hpp>

#include <string_view>

namespace autosched::mpi {

/// A victim gives floor(ratio × remaining) iterations from its tail.
enum class StealRatio {
  quarter,         ///< 0.25
  half,            ///< 0.5: classic steal-half (the default)
  three_quarters,  ///< 0.75
  automatic,       ///< the coordinator's StealRatioSelector picks one per instance
};

/// 0.25, 0.5, 0.75; 0 for automatic.
[[nodiscard]] double steal_ratio_value(StealRatio r) noexcept;
/// "0.25", "0.5", "0.75", "auto".
[[nodiscard]] std::string_view steal_ratio_name(StealRatio r) noexcept;
/// Parses "0.25", "0.5", "0.75" or "auto"; throws autosched::Error naming
/// `source`, the value and the accepted ones.
[[nodiscard]] StealRatio parse_steal_ratio(std::string_view text, std::string_view source);

/// A UCB1 cost bandit over {0.25, 0.5, 0.75}, minimising the loop time.
/// Deterministic: a round-robin sweep (0.25, 0.5, 0.75), then UCB1.
class StealRatioSelector {
 public:
  /// UCB's exploration weight, in units of the best mean: 0.1 makes the bonus
  /// after 100 instances about 5% of the loop time for an arm tried 30 times,
  /// the order of the differences between ratios on the test workloads
  /// (chosen by reasoning, not tuned).
  static constexpr double default_c = 0.1;

  explicit StealRatioSelector(double c = default_c);

  /// The ratio for the next instance (never automatic).
  StealRatio choose();
  /// Learns the loop time of an instance that ran `ran`; a ratio that is
  /// automatic or a time that is not finite is ignored.
  void observe(StealRatio ran, double loop_ns);
  /// The ratio with the lowest mean loop time so far; half before any sample.
  [[nodiscard]] StealRatio best() const;
  [[nodiscard]] const UcbSelector& bandit() const noexcept { return bandit_; }

 private:
  UcbSelector bandit_;
};

}  // namespace autosched::mpi
