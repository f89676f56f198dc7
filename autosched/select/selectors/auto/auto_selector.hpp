#pragma once
/// @file
/// autosched's selector, `auto`, the default. Built to be cheaper to learn and
/// closer to the per-step optimum than the published selectors. For loops
/// (constructed with the portfolio's arms) it predicts before it tries:
///   0. First instance: it may be the loop's only one in this process, so it
///      is not spent profiling: it runs the arm the loop's earlier first
///      instances (in the store) say is best, static while there are none,
///      and its time joins those records (AutoConfig::safe_first,
///      select/selectors/auto/first_instances.hpp). It pays for thread creation and
///      page faults whatever runs, so it is no arm's sample.
///      Profile: the second instance runs the `profiling` technique, which
///      measures where the loop's time goes (a CostProfile).
///   1. Rank: every arm is simulated on that profile with the real
///      technique objects, on a team with one slow worker (`jitter`,
///      predict_arms_robust in select/selectors/auto/arm_ranking.hpp); only arms predicted
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
///      is tried, and the test backs off (the next alarm needs twice the
///      evidence). Another shape forgets the samples and ranks again.
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

#include <autosched/select/grammar/arm.hpp>
#include <autosched/select/selectors/auto/arm_corrections.hpp>
#include <autosched/select/selectors/auto/arm_book.hpp>
#include <autosched/select/selectors/auto/change_test.hpp>
#include <autosched/select/selectors/auto/first_instances.hpp>
#include <autosched/select/selectors/auto/level_check.hpp>
#include <autosched/select/selectors/auto/regimes.hpp>
#include <autosched/select/selectors/auto/settled_draw.hpp>
#include <autosched/select/selectors/auto/trial_plan.hpp>
#include <autosched/select/grammar/auto_config.hpp>
#include <autosched/select/selectors/selector.hpp>

#include <algorithm>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace autosched {

namespace detail {

class AutoSelector final : public Selector {
 public:
  /// Arms known only by index (tunable regions): no prediction, a sweep.
  AutoSelector(int arms, AutoConfig config);
  /// Loop arms: profiled, simulated and ranked before any is tried.
  AutoSelector(const Portfolio& loop_arms, AutoConfig config);
  /// The same with a portfolio other points share (share_portfolio()).
  AutoSelector(std::shared_ptr<const SharedPortfolio> shared, AutoConfig config);

  [[nodiscard]] std::string_view name() const noexcept override { return "auto"; }
  Decision choose(const Context& context) override;
  void observe(const Decision& decision, const Outcome& outcome) override;
  [[nodiscard]] std::string save_state() const override;
  bool load_state(std::string_view state) override;
  /// A state learned at another size of this loop (DecisionEngine): resumed
  /// like a warm start, but only its order of the arms is trusted. From an
  /// earlier run the first instance profiles: the same shape keeps the arms'
  /// samples, moved to this size's level; another runs the new ranking's
  /// trials. From this process the best arm runs, and its first instance
  /// moves every sample to this size's level (no profile: a blocked LU meets
  /// a new size class every few steps, and its profiles there ran 30-60%
  /// slower than the arm they replaced); the trials the neighbour had left go on.
  bool adopt_state(std::string_view state, Neighbour from) override;
  [[nodiscard]] long resumed_instances() const noexcept override { return resumed_instances_; }
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
  [[nodiscard]] int best_arm() const { return book_.best(); }
  [[nodiscard]] bool sweeping() const noexcept { return plan_.queued(); }
  [[nodiscard]] bool retired(int arm) const noexcept { return book_[arm].retired; }
  [[nodiscard]] int changes_detected() const noexcept { return changes_; }
  /// Predicted loop time (ns) of each arm from the last profile; empty before one.
  [[nodiscard]] const std::vector<double>& predicted() const noexcept { return plan_.predicted(); }
  /// Arms tried (or queued for a trial) on the last ranking, best-predicted first.
  [[nodiscard]] const std::vector<int>& shortlist() const noexcept { return plan_.shortlist(); }
  /// Corrects predictions by what other loops of this machine taught, and
  /// teaches it this loop's trials (nullptr: no prior). The engine passes
  /// its store-backed one.
  void use_prior(ArmCorrections* prior) {
    prior_ = prior;
    if (prior_ != nullptr && shared_arms_ != nullptr) prior_->prepare(shared_arms_->labels);  // teaching it later allocates nothing
  }
  /// The next choice takes the settled path (AutoConfig::settled_path):
  /// nothing is pending but the Thompson draw among at most
  /// SettledDraw::max_candidates arms.
  [[nodiscard]] bool settled() const noexcept { return settled_.active(); }
  /// Settled, the next choice is the Thompson draw alone, which ignores the
  /// context: the engine makes it right after observe(), while the
  /// candidates and this code are still in the caches, instead of paying
  /// for them a second time at the next instance (a step of the application
  /// in between empties the caches). A draw made ahead and never observed
  /// leaves nothing pending: the next choose() draws anew.
  [[nodiscard]] bool decides_ahead() const noexcept override { return settled_.active(); }
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
    if (!settled_.active()) return 1;
    return std::clamp(steady_run_, config_.settled_batch, std::max(config_.settled_batch, config_.settled_batch_max));
  }
  /// Instances in a row, learned on the settled path, that did not explore
  /// (the best arm or one of its equals); anything else (an exploring draw,
  /// a trial, a profile, a change alarm) starts it again at 0.
  [[nodiscard]] int steady_run() const noexcept { return steady_run_; }
  /// How long the last ranking took (simulating every arm), ns.
  [[nodiscard]] double last_ranking_ns() const noexcept { return plan_.ranking_ns(); }
  /// The loop has phases: profiles of another shape were seen and archived.
  [[nodiscard]] bool phased() const noexcept { return regimes_.phased(); }
  /// The loop kept changing shape and settled on arms good over every shape seen.
  [[nodiscard]] bool unsteady() const noexcept { return regimes_.unsteady(); }

 private:
  /// What the selector does next, in the order a loop meets it. Each phase
  /// ends by handing over to the next; a profile, a level mismatch or a
  /// change alarm sends the loop back to `profile`.
  enum class Phase {
    resume,   ///< a state was loaded: the next choice runs the stored best
    verify,   ///< the stored best's first instances are compared with its stored mean
    profile,  ///< the next choice is a profiling instance
    witness,  ///< the runner-up runs once: the same loop at another level, or another phase?
    trials,   ///< the trial plan: shortlist (or sweep), extra trials, second looks
    sample,   ///< Thompson sampling over the arms in play
  };

  /// The instance's learning, on the whole arm table; observe() runs it
  /// unless the settled path could.
  void learn(const Decision& decision, const Outcome& outcome);
  /// observe() with the outcome's time at reference_n_.
  void observe_at_reference(const Decision& decision, const Outcome& outcome);
  /// A profile's total at the reference trip count (the profile is the
  /// profiling instance's own N).
  [[nodiscard]] double at_reference(double profile_total_ns) const noexcept {
    return profile_total_ns * trip_ratio(reference_n_, profile_n_);
  }
  /// What a time at trip count `from` is at trip count `to` (times grow
  /// with N): to / from, or 1 where either is not known (0).
  [[nodiscard]] static double trip_ratio(std::int64_t to, std::int64_t from) noexcept {
    return to > 0 && from > 0 ? static_cast<double>(to) / static_cast<double>(from) : 1.0;
  }
  /// What the profiling instance taught: a ranking, and the comparison a
  /// level mismatch or a change alarm asked for.
  void learn_profile(const Outcome& outcome);
  /// A learned sample of a trial or a draw: the arm book, the prior, the
  /// elimination and the change test.
  void learn_sample(int arm, double time);
  /// Settles when nothing is pending but the Thompson draw.
  void prepare_settled();
  /// The full path's Thompson draw over every arm in play.
  Decision draw();
  [[nodiscard]] Decision guarded(int arm, bool exploring) const;
  /// The change test raised an alarm (or every arm is retired): start over.
  void reopen();
  /// Predicts every arm from `profile` and queues the shortlist's trials.
  void rank(const CostProfile& profile, int workers);
  /// Retires arms clearly worse than the best (prediction mode).
  void eliminate();
  /// With phases and a profile to compare, the change test also watches
  /// for a loop that became faster: a swing down is as much a new phase as
  /// a swing up, and a loop whose time swings both ways (imbalance that
  /// grows and fades) otherwise widens the test's σ until it sees nothing.
  [[nodiscard]] bool two_sided_changes() const noexcept {
    return config_.phases && plan_.has_predictions(book_.size());
  }
  /// Loops of fewer than 2P iterations are not profiled.
  static bool profileable(const Context& context);
  /// After the profile a level check asked for: the same loop keeps its
  /// samples at this process's level (the best arm runs on, no trials);
  /// another phase or loop goes to another_phase(). `shape` and `level`
  /// are the new profile's (RegimeBook::shape_of, total body time).
  void compare_profile(const std::vector<double>& stored, std::vector<double> shape, double level);
  /// The loop is not the one the samples describe: the phase that ends is
  /// archived (with phases), an archived phase of this shape comes back,
  /// an unsteady loop settles on robust arms, and otherwise the ranking
  /// just made stands.
  void another_phase(const std::vector<double>& stored, std::vector<double> shape, double level);
  /// Brings an archived phase back, its samples moved to `level`.
  void restore(autoselect::Regime regime, double level);
  /// The same loop at another level: every sample moved to it, no trials.
  void same_loop_elsewhere(double level);
  /// The witness's instance is in: same_loop_elsewhere() or another_phase().
  void judge_witness(double time);
  /// The samples do not describe this loop: drops them.
  void forget_stored();
  /// The adopted best arm's first instance here took `time_ns`: every arm's
  /// samples move to this size's level by its ratio to the adopted mean.
  void rescale_to(double time_ns);
  /// save_state()'s optional sections: the first instances, the back-off.
  void write_tail(std::ostream& out) const;
  /// Installs arm statistics from load_state() or seed(); false, with
  /// nothing changed, when they are not ones a run could have produced.
  /// `trials_left`: the state still had trials to run, and no arm needs samples.
  bool resume(std::vector<autoselect::ArmState> arms, bool trials_left = false);

  // The settled draw first, in the object (no heap block): with the
  // object's header, it and the generator are all a settled choice reads.
  autoselect::SettledDraw settled_;
  int steady_run_ = 0;  ///< steady_run()
  SplitMix64 rng_;      ///< Thompson draws (sum_of_twelve_normal)

  AutoConfig config_;
  Phase phase_ = Phase::trials;
  autoselect::ArmBook book_;
  autoselect::TrialPlan plan_;
  autoselect::ChangeTest change_;
  autoselect::LevelCheck level_;
  autoselect::RegimeBook regimes_;
  std::int64_t instances_ = 0;  ///< instances observed in this process
  bool profile_first_ = false;  ///< the resumed state is another size's: profile before trusting it
  bool rescale_first_ = false;  ///< it is another size's of this process: its best's first instance rescales
  /// The adopted state was still trying its shortlist: where this size has
  /// the same shape, the trials go on with the arms not yet measured.
  bool continue_trials_ = false;
  int changes_ = 0;
  int warmup_left_ = 0;          ///< instances still to ignore (AutoConfig::warmup)
  bool last_was_trial_ = false;  ///< the last choice was a queued trial (a warm-up repeats it)
  long resumed_instances_ = 0;   ///< samples in the state load_state() restored

  // Prediction (loop arms only).
  std::shared_ptr<const SharedPortfolio> shared_arms_;  ///< null: arms known only by index, no prediction
  /// The loop's arms; empty when known only by index.
  [[nodiscard]] const Portfolio& loop_arms() const noexcept;
  int profile_workers_ = 1;  ///< P of the profiling instance
  std::int64_t profile_n_ = 0;  ///< its trip count: the predictions are for that N
  std::int64_t chosen_n_ = 0;   ///< the trip count of the last instance chosen off the settled path
  /// Every time is learned as at this trip count (the first instance's, or
  /// the state's it resumed): a loop whose N changes from instance to
  /// instance (a blocked LU shrinks its loops every step) compares its arms,
  /// its stored level and its change test per iteration. 0: not known yet.
  std::int64_t reference_n_ = 0;
  /// Time of the profiling instance behind the current ranking (infinite:
  /// none). An arm measured slower than the profile itself (a dynamic
  /// schedule timing every chunk) is no arm to wait on between trials.
  double profile_ns_ = std::numeric_limits<double>::infinity();
  ArmCorrections* prior_ = nullptr;
  bool teach_prior_ = false;  ///< the trials of the last ranking are not yet taught
  bool alarm_profile_ = false;  ///< the pending profile was asked for by a change alarm
  autoselect::FirstInstances first_;  ///< first instances across runs (AutoConfig::safe_first)
  bool first_pending_ = false;        ///< the next choice is this process's first (safe_first)
  bool first_running_ = false;        ///< the instance chosen last is that first one
};

}  // namespace detail

}  // namespace autosched
