#pragma once
/// @file
/// auto's change test: a Page-Hinkley test on the best arm's excess over the
/// mean it settled at in this process, in units of the relative spread, each
/// sample adding at most change_cap·σ (one outlier is not a change). A value
/// type, so that the settled path can run it on a copy and keep the copy
/// only when nothing else changes.
///
/// Backing off: an alarm whose profile finds the loop it already had (a
/// drifting loop, a process slowed by its neighbours) doubles the threshold
/// for the next alarm, up to max_backoff doublings; an alarm that finds
/// another phase restores it. Without it a loop whose cost drifts steadily
/// (a zooming image) is profiled every few dozen instances for ever.
///
///   ChangeTest t;
///   if (t.observe(arm, best, session_stats, time, config, [&] { return book.spread(true); })) {
///     // alarm: t.drift holds the samples since the excess began to grow
///   }

#include <autosched/core/running_stats.hpp>
#include <autosched/select/grammar/auto_config.hpp>

#include <algorithm>

namespace autosched::autoselect {

struct ChangeTest {
  int watched = -1;       ///< the arm watched (the best, once settled in this run); -1: none
  double reference = 0;   ///< its session mean when the watch began
  double spread = 0;      ///< the session's relative spread then
  double excess = 0;      ///< Page-Hinkley statistic, in units of σ
  double deficit = 0;     ///< the same for a loop that became faster (two_sided)
  RunningStats drift;     ///< the watched arm's samples since the excess began to grow
  int backoff = 0;        ///< the threshold is change_threshold × 2^backoff
  static constexpr int max_backoff = 6;

  /// One learned sample `time` of `arm` (whose session statistics are now
  /// `session`), `best` being the best arm after it. The watch moves to the
  /// best arm once it has `settle` samples in this run; `session_spread()`
  /// is asked only then. True when the test raised an alarm.
  template <class SessionSpread>
  bool observe(int arm, int best, const RunningStats& session, double time, const AutoConfig& c,
               SessionSpread&& session_spread, bool two_sided = false) {
    if (watched >= 0 && watched != best) watched = -1;
    if (watched < 0 && arm == best && session.count >= c.settle) {
      watched = arm;
      reference = session.mean;
      spread = session_spread();
      excess = deficit = 0;
      drift = {};
    }
    if (arm != watched) return false;
    const double z = std::min((time / reference - 1.0) / spread, c.change_cap);
    excess = std::max(0.0, excess + z - c.change_slack);
    if (two_sided) deficit = std::max(0.0, deficit - std::max(z, -c.change_cap) - c.change_slack);
    if (excess > 0 || deficit > 0) {
      drift.add(time);
    } else {
      drift = {};
    }
    const double threshold = c.change_threshold * static_cast<double>(1 << backoff);
    return excess > threshold || deficit > threshold;
  }

  /// The last alarm's profile found the same loop: the next alarm needs twice the evidence.
  void back_off() noexcept { backoff = std::min(backoff + 1, max_backoff); }
  /// The last alarm's profile found another phase: alarms are believed again.
  void restore_threshold() noexcept { backoff = 0; }

  /// Stops watching (the arm's samples went, or the loop changed); the
  /// back-off stays.
  void reset() noexcept {
    watched = -1;
    excess = deficit = 0;
  }
};

}  // namespace autosched::autoselect
