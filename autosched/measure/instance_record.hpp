#pragma once
/// @file
/// Everything measured about one instance (one execution) of a loop: what ran,
/// how long it took, how evenly the threads finished, and each thread's share.
/// The loop runtime fills one per instance; callers read it with
/// autosched::last_instance(), the selection layer receives it as the outcome.

#include <autosched/measure/metrics.hpp>
#include <autosched/measure/thread_stats.hpp>

#include <cstdint>
#include <limits>
#include <string_view>
#include <vector>

namespace autosched {

struct InstanceRecord {
  std::string_view loop;       ///< loop id (storage lives as long as the process)
  std::uint64_t instance = 0;  ///< 0-based index among this loop's instances
  std::string_view technique;  ///< technique that ran (static storage)
  /// Technique the schedule or the selector asked for; differs from
  /// `technique` when it could not run as asked (fsc without a profile runs
  /// mfsc; the selector is credited with the arm that ran, if it has one).
  std::string_view requested;
  std::int64_t chunk = 0;      ///< chunk parameter used; 0 = the technique's default
  bool exp_chunk = false;      ///< the chunk parameter came from expChunk
  std::int64_t n = 0;          ///< iterations
  int p = 0;                   ///< threads in the team
  std::int64_t start_ns = 0;   ///< loop start on the now_ns clock
  double selection_ns = 0;     ///< the selector's time since the last instance closed (DecisionGroup::Learned), 0 if fixed
  std::string_view selector;   ///< the selector that chose ("auto", "qlearn", …); empty if fixed
  bool explored = false;       ///< the selector was trying an arm, not using its best
  bool cut_short = false;      ///< a guarded trial overran its budget and the fallback finished
  bool failed = false;         ///< the body threw; metrics cover the work done until then
  /// The reward the selector derived from this instance (RL agents); NaN when
  /// the selector compares loop times directly or the schedule is fixed.
  double reward = std::numeric_limits<double>::quiet_NaN();
  LoopMetrics metrics;
  std::vector<ThreadStats> threads;

  /// Fraction of the loop time thread `t` spent executing chunks, or -1 when
  /// chunks were not timed.
  [[nodiscard]] double busy_share(std::size_t t) const noexcept {
    const auto& s = threads[t];
    if (!s.busy_measured() || metrics.loop_time_ns <= 0) return -1.0;
    return static_cast<double>(s.busy_ns) / metrics.loop_time_ns;
  }
};

}  // namespace autosched
