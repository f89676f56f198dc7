#pragma once
/// @file
/// autosched's selector, `auto`, the default. Built to be cheaper to learn and
/// closer to the per-step optimum than the published selectors:
///   0. Warm-up: the first instance in a process (thread creation, page
///      faults) is not learned from.
///   1. Sweep: try every arm once, guarded, then the first one again (its
///      trial may still have been cold). From the second trial on a trial
///      gets a budget of guard × the best mean so far, with the best arm as
///      fallback; an arm that overruns is cut short and retired (the runtime
///      finishes the instance on the fallback where it can split the work).
///      A catastrophic arm costs about three instances of the best, not 100.
///   2. Choose by Thompson sampling over the arms still in play: each arm's
///      mean cost has a normal posterior whose width is the measured relative
///      spread (pooled over arms, with a floor) over √samples; the arm with
///      the lowest draw runs. Clear gaps stop exploration within a few
///      instances; near-ties cost little; noisy gaps get the samples they
///      need. Picks other than the best-looking arm are guarded too.
///      Loop times are heavy-tailed, so a sample far above an arm's mean is
///      winsorized (at max(1.5, 1 + 3σ) × the mean, at most `clip` ×) and one
///      far below it (under 1/clip) replaces the arm's inflated samples.
///   3. Change detection: a Page-Hinkley test on the best arm's excess over
///      its settled mean in this process, in units of the spread, each sample
///      adding at most change_cap·σ (one outlier is not a change); an alarm forgets the old
///      samples (they describe a loop that no longer exists) and sweeps
///      again, old favourites first.
///   4. Warm start: save_state/load_state carry the arm statistics, so a
///      second run continues where the first stopped, without a sweep; its
///      first instance runs the stored best arm.

#include <autosched/core/running_stats.hpp>
#include <autosched/select/auto_config.hpp>
#include <autosched/select/selector.hpp>

#include <random>
#include <span>
#include <string>
#include <vector>

namespace autosched {

class AutoSelector final : public Selector {
 public:
  AutoSelector(int arms, AutoConfig config);

  [[nodiscard]] std::string_view name() const noexcept override { return "auto"; }
  Decision choose(const Context& context) override;
  void observe(const Decision& decision, const Outcome& outcome) override;
  [[nodiscard]] std::string save_state() const override;
  bool load_state(std::string_view state) override;
  [[nodiscard]] std::string summary() const override;

  /// Starts from samples measured elsewhere instead of sweeping, as a warm
  /// start from save_state() does: `samples[a]` are arm a's (count, mean and
  /// M2 of its costs, e.g. kept by a tunable region); arms without samples
  /// are swept, and the first choice runs the best arm. False, with nothing
  /// changed, when the size is not the number of arms, no arm has samples,
  /// or a statistic is one no run produces (a mean ≤ 0 or not finite, a
  /// negative M2, fields set without samples).
  ///   AutoSelector s(3, {});
  ///   std::vector<RunningStats> known(3);
  ///   known[1].add(2.0e6);
  ///   s.seed(known);  // arm 1 runs first; arms 0 and 2 are swept after it
  bool seed(std::span<const RunningStats> samples);

  /// The arm with the lowest mean among those in play, -1 before any sample.
  [[nodiscard]] int best_arm() const;
  [[nodiscard]] bool sweeping() const noexcept { return queue_next_ < queue_.size(); }
  [[nodiscard]] bool retired(int arm) const noexcept { return arms_[static_cast<std::size_t>(arm)].retired; }
  [[nodiscard]] int changes_detected() const noexcept { return changes_; }

 private:
  struct ArmState {
    RunningStats all;  ///< every sample, across runs (saved)
    /// This process's samples only (not saved): robustness limits and the
    /// change test compare the loop with itself in this run, so a run that is
    /// uniformly slower than the one that saved the state (another input, a
    /// busier node) is neither clipped nor taken for a change.
    RunningStats session;
    bool retired = false;
    double prior = 0;  ///< mean before the last change, to order the next sweep
  };

  /// Relative spread pooled over the arms (every sample, or this run's).
  [[nodiscard]] double relative_spread(bool session_only = false) const;
  [[nodiscard]] Decision guarded(int arm, bool exploring) const;
  void reopen();
  /// Installs arm statistics from load_state() or seed(); false, with
  /// nothing changed, when they are not ones a run could have produced.
  bool resume(std::vector<ArmState> arms);

  std::vector<ArmState> arms_;
  AutoConfig config_;
  std::mt19937_64 rng_;
  std::vector<int> queue_;  ///< the sweep's order
  std::size_t queue_next_ = 0;
  int watched_ = -1;      ///< the arm the change test watches (best when it settled)
  double reference_ = 0;  ///< its settled mean
  double spread_ = 0;     ///< relative spread when it settled
  double excess_ = 0;     ///< Page-Hinkley statistic, in units of σ
  int changes_ = 0;
  bool resumed_ = false;          ///< state was loaded: the next choice is the stored best
  bool last_from_sweep_ = false;  ///< the last choice was a sweep trial
  bool recheck_first_ = true;     ///< the first sweep's first arm is tried again after it
  int warmup_left_ = 0;           ///< instances still to ignore (AutoConfig::warmup)
};

}  // namespace autosched
