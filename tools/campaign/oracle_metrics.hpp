#pragma once
/// @file
/// The evaluation protocol's yardstick (docs/campaigns.md): per loop, the
/// per-step median over repetitions of every configuration, the Oracle (Σ
/// over steps of the fastest arm at that step), the best fixed arm, and per
/// configuration its degradation vs the Oracle, regret vs the best fixed arm,
/// exploration share and cost, similarity to the Oracle's arm sequence and
/// selector cost. Pure functions of the step table, so they are tested on
/// hand-made tables.

#include "configurations.hpp"
#include "runs_table.hpp"

#include <limits>
#include <string>
#include <vector>

namespace autosched::campaign {

/// One run of one configuration on one loop, indexed by step.
struct StepSeries {
  std::vector<double> time_ns;
  std::vector<std::string> arm;
  std::vector<bool> explored;
  std::vector<double> selection_ns;
  std::vector<bool> cut_short;  ///< a guarded trial cut at its budget (empty: none was)
};

struct ConfigRuns {
  std::string name;
  ConfigKind kind = ConfigKind::method;
  std::string arm_label;         ///< arms: the label methods' steps are matched against
  std::vector<StepSeries> reps;  ///< one per repetition
};

/// Everything measured for one loop of one app in one phase.
struct LoopTable {
  std::string app;
  std::string loop;
  std::vector<ConfigRuns> configs;
};

struct ConfigMetrics {
  std::string name;
  ConfigKind kind = ConfigKind::method;
  int reps = 0;
  std::vector<double> median_ns;  ///< per step, median over repetitions
  std::vector<std::string> arms;  ///< per step, the arm of the first repetition
  double total_ms = 0;            ///< Σ median_ns
  double degradation_pct = 0;     ///< (total − Oracle) / Oracle × 100
  double regret_pct = 0;          ///< (total − best fixed arm) / best fixed arm × 100
  double explored_steps_pct = 0;  ///< share of steps the selector marked as exploration
  double explored_time_pct = 0;   ///< share of the loop time spent in them
  double explored_lost_ms = 0;    ///< Σ over them of (step time − Oracle's step time)
  int settled_step = 0;           ///< first step after the last explored one (median over reps)
  double same_arm_pct = 0;        ///< steps running the Oracle's arm of that step
  /// Steps whose arm's median time at that step is within 5% of the Oracle's;
  /// NaN when none of the method's arms is an Oracle arm.
  double near_oracle_pct = 0;
  double selector_ns = 0;  ///< mean selection cost per instance (NaN for fixed schedules)
  /// (slowest − fastest repetition's total) / fastest × 100: how much the
  /// same configuration varies from process to process (NaN for one rep).
  double rep_spread_pct = 0;
  /// Methods: the degradation vs the Oracle of the method's choices priced as
  /// the Oracle prices its own, each step at the per-step median of the
  /// fixed-arm runs of the arm it ran. A step on no Oracle arm (a profiling
  /// instance) or cut at its budget keeps its measured time. What the
  /// choices cost, without the luck of the method's own processes (NaN for
  /// arms and references).
  double choice_pct = std::numeric_limits<double>::quiet_NaN();
  /// Methods: median over the priced steps of measured ÷ priced time, i.e.
  /// how fast the method's processes ran the arms they chose against those
  /// arms' own processes (1 = as fast; NaN when no step was priced).
  double run_level = std::numeric_limits<double>::quiet_NaN();
};

struct LoopMetrics {
  std::string app;
  std::string loop;
  int steps = 0;
  double oracle_ms = 0;
  std::vector<double> oracle_ns;           ///< per step, the fastest arm's median
  std::vector<std::string> oracle_arms;    ///< per step, that arm's name
  std::vector<std::string> oracle_labels;  ///< per step, that arm's recorded label
  std::string best_arm;
  double best_arm_ms = 0;
  std::vector<ConfigMetrics> configs;  ///< in the table's order
  [[nodiscard]] const ConfigMetrics* find(const std::string& name) const;
};

/// Within this factor of the Oracle's step time an arm counts as near-optimal.
inline constexpr double near_oracle_factor = 1.05;

/// Median of a non-empty list (mean of the middle two for even sizes).
[[nodiscard]] double median(std::vector<double> values);
/// Per-step median over repetitions, over the steps every repetition has.
[[nodiscard]] std::vector<double> step_medians(const std::vector<StepSeries>& reps);
/// Computes every metric; needs at least one arm with data.
[[nodiscard]] LoopMetrics evaluate(const LoopTable& table);
/// Groups runs.csv rows of one phase by (app, loop), configurations in order
/// of first appearance. Repetitions are indexed by the rows' rep field.
[[nodiscard]] std::vector<LoopTable> group_rows(const std::vector<StepRow>& rows, const std::string& phase);

}  // namespace autosched::campaign
