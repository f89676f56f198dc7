#pragma once
/// @file
/// autosched's selector, `auto`, the default. Built to be cheaper to learn and
/// closer to the per-step optimum than the published selectors. For loops
/// (constructed with the portfolio's arms) it predicts before it tries:
///   0. Profile: the first instance in a process (which pays for thread
///      creation and page faults whatever runs, so no arm is judged on it)
///      runs the `profiling` technique, which measures where the loop's time
///      goes (a CostProfile).
///   1. Rank: every arm is simulated on that profile with the real
///      technique objects, on a team with one slow worker (`jitter`,
///      predict_arms_robust in select/arm_ranking.hpp); only arms predicted
///      within `margin` of the best are tried (at least two, at most
///      `max_trials`), best-predicted first (that first trial is not
///      exploration: it is the prediction). After them, the next-best
///      prediction is tried only if, corrected by the simulator's median
///      error on this loop less two spreads of it, it could beat the best
///      measured arm (at most two such). No arm runs blind, so an arm that
///      cannot be cut short (static-steal) only runs where it is predicted good.
///      When the process's first trial runs in less than `reprofile` × its
///      prediction, the first instance paid for a cold start unevenly: the
///      loop is profiled once more and ranked on the lower envelope of both
///      profiles (once per process).
///   2. Choose by Thompson sampling over the tried arms: each arm's mean cost
///      has a normal posterior whose width is the measured relative spread
///      (pooled over arms, with a floor) over √samples; the arm with the
///      lowest draw runs if its draw beats the best-measured arm's by more
///      than a tie, else the best-measured arm runs (`stick`; draws:
///      core/split_mix.hpp, no libm). Once nothing
///      else is pending, choose() and observe() work on the arms in play
///      alone (the settled path), with the full path's decisions. An arm whose mean is worse than the best by more
///      than two standard errors (and more than a tie) is retired. Trials and
///      other picks than the best are guarded: past guard × the best mean the
///      instance finishes on the best arm and the arm is retired.
///      Loop times are heavy-tailed, so a sample far above an arm's mean is
///      winsorized (at max(1.5, 1 + 3σ) × the mean, at most `clip` ×) and one
///      far below it (under 1/clip) replaces the arm's inflated samples.
///   3. Change detection: a Page-Hinkley test on the best arm's excess over
///      its settled mean in this process, in units of the spread, each sample
///      adding at most change_cap·σ (one outlier is not a change); an alarm
///      profiles the loop again. The same shape (the arms' predictions
///      relative to the best are those of the last ranking, the best still
///      within the margin) is the same loop in a slower process: every
///      sample is moved to the level the drifting samples show and nothing
///      is tried. Another shape forgets the samples and ranks again.
///   4. Warm start: save_state/load_state carry the arm statistics and the
///      predictions they were ranked by. The stored best runs first; if its
///      first `verify` instances match the stored mean the run exploits (no
///      trials). Otherwise the loop is profiled: if the stored best is still
///      predicted within the margin of the best and the arms' predictions
///      relative to it are those stored (the same shape of loop), it is the
///      stored loop in a slower or faster process: every stored sample is
///      moved to this process's level and the run exploits. Else (another
///      input or machine) the stored samples go and the new ranking's trials
///      run. States without predictions (auto3) forget on a mismatch.
/// Without a profile (tunable regions, which seed() it; scenarios without
/// one; loops too small to profile) it sweeps instead: every arm once,
/// guarded, then the first one again (its trial may have been cold), then
/// steps 2–4.

#include <autosched/core/running_stats.hpp>
#include <autosched/core/split_mix.hpp>
#include <autosched/select/arm.hpp>
#include <autosched/select/arm_corrections.hpp>
#include <autosched/select/auto_config.hpp>
#include <autosched/select/selector.hpp>

#include <algorithm>
#include <array>
#include <span>
#include <string>
#include <vector>

namespace autosched {

class AutoSelector final : public Selector {
 public:
  /// Arms known only by index (tunable regions): no prediction, a sweep.
  AutoSelector(int arms, AutoConfig config);
  /// Loop arms: profiled, simulated and ranked before any is tried.
  AutoSelector(Portfolio loop_arms, AutoConfig config);

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
  /// Predicted loop time (ns) of each arm from the last profile; empty before one.
  [[nodiscard]] const std::vector<double>& predicted() const noexcept { return predicted_; }
  /// Arms tried (or queued for a trial) on the last ranking, best-predicted first.
  [[nodiscard]] const std::vector<int>& shortlist() const noexcept { return shortlist_; }
  /// Corrects predictions by what other loops of this machine taught, and
  /// teaches it this loop's trials (nullptr: no prior). The engine passes
  /// its store-backed one.
  void use_prior(ArmCorrections* prior) noexcept { prior_ = prior; }
  /// The next choice takes the settled path (AutoConfig::settled_path):
  /// nothing is pending but the Thompson draw among at most max_candidates arms.
  [[nodiscard]] bool settled() const noexcept { return settled_; }
  /// Settled, the next choice is the Thompson draw alone, which ignores the
  /// context: the engine makes it right after observe(), while the
  /// candidates and this code are still in the caches, instead of paying
  /// for them a second time at the next instance (a step of the application
  /// in between empties the caches). A draw made ahead and never observed
  /// leaves nothing pending: the next choose() draws anew.
  [[nodiscard]] bool decides_ahead() const noexcept override { return settled_; }
  /// Settled, it draws a batch of decisions ahead and learns their outcomes
  /// together (Selector::ahead_batch): settled_batch of them, or as many as
  /// the instances run in a row on the settled path without exploring
  /// (steady_run()), up to settled_batch_max. Thompson draws with a few
  /// instances' delay, which changes what it picks by little and costs the
  /// cold selector once per batch; the engine ends a batch at its first
  /// draw that explores. Settled means no trial or
  /// profile is pending; a cut trial or a change alarm still acts within
  /// the batch's delay, and an outcome that was cut is learned at once.
  [[nodiscard]] int ahead_batch() const noexcept override {
    if (!settled_) return 1;
    return std::clamp(steady_run_, config_.settled_batch, std::max(config_.settled_batch, config_.settled_batch_max));
  }
  /// Instances in a row, learned on the settled path, that did not explore
  /// (the best arm or one of its equals); anything else (an exploring draw,
  /// a trial, a profile, a change alarm) starts it again at 0.
  [[nodiscard]] int steady_run() const noexcept { return steady_run_; }
  /// How long the last ranking took (simulating every arm), ns.
  [[nodiscard]] double last_ranking_ns() const noexcept { return ranking_ns_; }

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

  /// An arm in play once settled: what choose() draws from, and copies of
  /// its statistics, so that observe() can learn without the arm table.
  struct Candidate {
    int arm = 0;
    bool worse = false;         ///< picking it is exploration (see choose())
    double root = 1;            ///< √ all.count
    RunningStats all, session;  ///< as in arms_ (observe_settled() writes both)
    double predicted = 0;       ///< predicted_[arm]; NaN without a prediction
  };

  /// The instance's learning, on the whole arm table; observe() runs it
  /// unless observe_settled() could.
  void learn(const Decision& decision, const Outcome& outcome);
  /// Once no profile, trial, second look or verification is pending, the
  /// next choice is a Thompson draw over the arms in play, and an instance's
  /// learning touches only those arms. In an application the step between
  /// two instances empties the caches, and each entry of the arm table (24
  /// arms) is then a miss: the settled path works on the candidates_ below
  /// instead. This prepares it from the table (after learn()).
  void prepare_settled();
  /// The draw parameters of the candidates (exploration flags, the guard),
  /// given the best one and the pooled spread.
  void arm_draws(int best, double spread);
  /// choose() once settled: the draw over candidates_.
  Decision choose_settled();
  /// learn() for a settled instance that changes nothing but statistics (no
  /// arm retired, no change alarm, no clipped-away history): computes it on
  /// the candidates and writes the one arm back. False, with nothing changed,
  /// for anything else: learn() then runs.
  bool observe_settled(const Decision& decision, const Outcome& outcome);
  /// relative_spread() from the candidates, candidate `replaced` having
  /// statistics `with` (the arms outside the candidates do not change while
  /// settled: their part is kept in rest_*).
  [[nodiscard]] double candidate_spread(bool session_only, int replaced, const RunningStats& with) const;
  /// The draw's winner (`lowest`) does not beat the best arm's draw by more
  /// than a tie, so the best arm runs (AutoConfig::stick).
  [[nodiscard]] bool indifferent(double lowest, double best_draw) const noexcept;
  /// Both predictions finite and within a tie of each other.
  [[nodiscard]] bool tie_predicted(double x, double y) const;

  /// One arm's part of the pooled spread: (n−1)·relative variance, n−1.
  static void add_spread_term(const RunningStats& a, double& sum, long& dof);
  /// The pooled relative spread from those parts, with the noise floor.
  [[nodiscard]] double pooled_spread(double sum, long dof) const;
  /// A pick counts as exploration when its mean is worse than the best's by
  /// more than a tie, or, for arms the simulator calls equal, by more than
  /// two standard errors.
  [[nodiscard]] bool counts_as_exploration(const RunningStats& pick, const RunningStats& best, bool predicted_tie,
                                           double spread) const;
  /// Retired: worse than the best by more than two standard errors (and a tie).
  [[nodiscard]] bool measured_worse(const RunningStats& a, const RunningStats& best, double spread) const;
  /// Retired: predicted worse than the best (beyond a tie) and measured worse
  /// by more than a tie, two independent witnesses.
  [[nodiscard]] bool twice_worse(double predicted, double best_predicted, const RunningStats& a,
                                 const RunningStats& best) const;
  /// Relative spread pooled over the arms (every sample, or this run's).
  [[nodiscard]] double relative_spread(bool session_only = false) const;
  [[nodiscard]] Decision guarded(int arm, bool exploring) const;
  void reopen();
  /// Predicts every arm from `profile` and queues the shortlist's trials.
  void rank(const CostProfile& profile, int workers);
  /// After the first trial of the process's first ranking: profiles again
  /// when it ran well below its prediction (AutoConfig::reprofile).
  void check_first_trial(int arm, double time_ns);
  /// After the shortlist: the next untried arm when, corrected by the median
  /// measured/predicted ratio of the tried arms less two spreads, it would
  /// beat the best measured one (at most two such); else -1 (and the untried
  /// arms are dropped).
  int promising_untried();
  /// After those: a tried arm with one sample within twice the margin of the
  /// best, for its second sample (at most two per ranking); else -1.
  int second_look();
  /// `arm` is still owed that second sample (and is not retired meanwhile).
  [[nodiscard]] bool owed_second_look(int arm, int best) const;
  /// Retires arms clearly worse than the best (prediction mode).
  void eliminate();
  /// Both arms predicted, within a tie of each other.
  [[nodiscard]] bool predicted_equal(int x, int y) const;
  /// Warm start: compares the stored best's first instances with its stored mean.
  void verify();
  /// Loops of fewer than 2P iterations are not profiled.
  static bool profileable(const Context& context);
  /// After the profile that a level mismatch (warm start) or a change alarm
  /// asked for: is it the loop whose predictions were `stored` (verify_arm_
  /// is the best arm then)?
  [[nodiscard]] bool same_loop(const std::vector<double>& stored) const;
  /// Exploits the best arm at this process's level, or forgets the samples.
  void check_profile(const std::vector<double>& stored);
  /// The stored samples do not describe this loop: drops them.
  void forget_stored();
  /// Installs arm statistics from load_state() or seed(); false, with
  /// nothing changed, when they are not ones a run could have produced.
  bool resume(std::vector<ArmState> arms);

  /// The most arms in play a settled draw takes; with more (a loop whose
  /// arms the samples cannot tell apart yet), choose() takes the full path.
  static constexpr int max_candidates = 8;

  // The settled state's draw first, in the object (no heap block): with the
  // object's header, these are all a settled choice reads.
  bool settled_ = false;
  int settled_best_ = -1;
  int steady_run_ = 0;  ///< steady_run()
  int candidate_count_ = 0;
  double settled_budget_ = 0;  ///< guard × the best arm's mean
  double settled_spread_ = 0;  ///< relative_spread() when prepared
  // relative_spread()'s sums over the arms that are not candidates.
  double rest_all_ = 0, rest_session_ = 0;
  long rest_all_dof_ = 0, rest_session_dof_ = 0;
  SplitMix64 rng_;  ///< Thompson draws (sum_of_twelve_normal)
  std::array<Candidate, max_candidates> candidates_{};

  std::vector<ArmState> arms_;
  AutoConfig config_;
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

  // Prediction (loop arms only).
  Portfolio loop_arms_;                ///< empty: arms known only by index, no prediction
  bool need_profile_ = false;          ///< the next choice asks for a profiling instance
  int profile_workers_ = 1;            ///< P of the profiling instance
  bool first_trial_ = false;           ///< the next trial is the best prediction (not exploration)
  /// The process's first ranking: its profile, kept until the first trial
  /// says whether it was inflated (AutoConfig::reprofile); empty otherwise.
  CostProfile first_profile_;
  int first_trial_arm_ = -1;  ///< that trial's arm; -1: nothing to check
  bool reprofiled_ = false;   ///< the first profile was taken again (once per process)
  bool ranked_ = false;       ///< a ranking was made in this process
  std::vector<double> predicted_;      ///< corrected by the prior: what is ranked
  std::vector<double> raw_predicted_;  ///< the simulator's, what the prior learns from
  ArmCorrections* prior_ = nullptr;
  bool teach_prior_ = false;  ///< the trials of the last ranking are not yet taught
  std::vector<int> shortlist_;
  std::vector<int> untried_;   ///< ranked but not tried, best-predicted first
  int extra_trials_ = 0;       ///< untried arms tried after the shortlist
  int second_looks_left_ = 0;  ///< tried arms close to the best still owed a second sample
  double ranking_ns_ = 0;
  bool check_profile_ = false;    ///< the next profile is compared with the last ranking's predictions
  bool samples_counted_ = false;  ///< verify_samples_ are in the arm's statistics already (a change alarm)
  RunningStats drift_;            ///< the watched arm's samples since the change test's excess began to grow
  int verify_left_ = 0;           ///< warm start: instances of the stored best still to compare
  int verify_arm_ = -1;
  double verify_mean_ = 0;  ///< its stored mean
  RunningStats verify_samples_;
};

}  // namespace autosched
