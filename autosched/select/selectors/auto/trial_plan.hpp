#pragma once
/// @file
/// auto's trial plan: from a ranking (every arm simulated on the loop's cost
/// profile) to the arms worth running, and in which order. The plan serves,
/// one per instance:
///   1. the queue: the shortlist (arms predicted within the margin of the
///      best, one per technique, best-predicted first), or, without a
///      prediction, the sweep of every arm;
///   2. extra trials: the next untried prediction, when the simulator's
///      error on the tried arms says it could still win (at most two);
///   3. second looks: tried arms whose one sample lies close to the best;
///   4. the recheck: the sweep's first arm once more (its trial was cold).
/// It also keeps the process's first ranking's profile until the first
/// trial says whether it was inflated by a cold start (AutoConfig::reprofile).
/// The arm book (what was measured) is the selector's; the plan reads it.

#include <autosched/select/grammar/arm.hpp>
#include <autosched/select/selectors/auto/arm_corrections.hpp>
#include <autosched/select/selectors/auto/arm_book.hpp>
#include <autosched/select/grammar/auto_config.hpp>
#include <autosched/techniques/cost_profile.hpp>

#include <algorithm>
#include <cstddef>
#include <vector>

namespace autosched::autoselect {

class TrialPlan {
 public:
  TrialPlan(int arms, const AutoConfig& config);

  /// Predicts every arm of `portfolio` from `profile` at `workers` (each
  /// prediction corrected by `prior`, when given), and replaces the queue
  /// with the shortlist. False, with the queue unchanged, when nothing could
  /// be predicted.
  bool rank(const Portfolio& portfolio, const CostProfile& profile, int workers, const ArmCorrections* prior);
  /// The queue becomes the best arm by `scores` instead (lower is better:
  /// an unsteady loop's arms by how they do over every regime seen); the
  /// predictions stay. False, with the queue unchanged, when no score is finite.
  bool rank_robust(const Portfolio& portfolio, const std::vector<double>& scores);
  /// The queued trials not yet run (a warm start continues them).
  [[nodiscard]] std::vector<int> pending() const;

  struct Trial {
    int arm = -1;            ///< -1: nothing left to try (every step above served)
    bool exploring = true;   ///< running it counts as exploration
    bool from_queue = false; ///< a queued trial (repeat_last() can run it again)
  };
  /// The next arm to try.
  Trial next(const ArmBook& book);
  /// Whether the next trial may run now, `now` being the loop's instance
  /// count (across runs): the first trial after a ranking at once, the k-th
  /// once the loop has run `patience` × k instances since the ranking
  /// (AutoConfig::patience). Until then the best measured arm runs.
  [[nodiscard]] bool due(std::int64_t now) const noexcept {
    return !spaced_ || served_ == 0 || now - ranked_at_ >= static_cast<std::int64_t>(patience_) * served_;
  }
  /// The ranking just made happened at instance `now` (see due()).
  void ranked_at(std::int64_t now) noexcept { ranked_at_ = now; }
  /// Nothing left to try: no queue, extra trial, second look or recheck.
  [[nodiscard]] bool exhausted() const noexcept;
  /// The last trial taught nothing (a warm-up instance): it runs again.
  void repeat_last() noexcept {
    --queue_next_;
    if (served_ > 0) --served_;
  }

  /// The queue is a sweep of `arms` arms ordered by `less` (no prediction).
  /// Sorts in place, without allocating: a steady loop must not allocate
  /// when its change test fires.
  template <class Less>
  void sweep(int arms, Less less) {
    queue_.resize(static_cast<std::size_t>(arms));
    for (std::size_t i = 0; i < queue_.size(); ++i) queue_[i] = static_cast<int>(i);
    std::sort(queue_.begin(), queue_.end(), less);
    queue_next_ = 0;
    untried_.clear();
    spaced_ = false;
  }
  /// The queue is `arms`, in that order (a warm start's unsampled arms).
  void queue(std::vector<int> arms);
  /// Drops every pending trial (the queue, extra trials and second looks).
  void drop();
  /// Drops the plan and the shortlist: the loop is the one already ranked
  /// and measured, nothing is to be tried.
  void abandon();
  /// Drops the extra trials (a change alarm: the ranking is out of date).
  void drop_untried() noexcept { untried_.clear(); }
  /// The recheck of the sweep's first arm is not wanted (a profile took the
  /// cold start, or a warm start has samples for it).
  void skip_recheck() noexcept { recheck_first_ = false; }

  /// Predicted loop time (ns) of each arm, corrected by the prior: what is
  /// ranked; empty before a ranking.
  [[nodiscard]] const std::vector<double>& predicted() const noexcept { return predicted_; }
  [[nodiscard]] std::vector<double>& predicted() noexcept { return predicted_; }
  /// The simulator's own predictions, what the prior learns from.
  [[nodiscard]] const std::vector<double>& raw_predicted() const noexcept { return raw_predicted_; }
  [[nodiscard]] bool has_predictions(int arms) const noexcept {
    return predicted_.size() == static_cast<std::size_t>(arms);
  }
  /// Both arms predicted, within a tie of each other.
  [[nodiscard]] bool predicted_equal(const ArmBook& book, int x, int y) const;
  /// Arms tried (or queued for a trial) on the last ranking, best-predicted first.
  [[nodiscard]] const std::vector<int>& shortlist() const noexcept { return shortlist_; }
  [[nodiscard]] std::size_t queue_position() const noexcept { return queue_next_; }
  [[nodiscard]] std::size_t queue_size() const noexcept { return queue_.size(); }
  [[nodiscard]] bool queued() const noexcept { return queue_next_ < queue_.size(); }
  [[nodiscard]] double ranking_ns() const noexcept { return ranking_ns_; }

  /// `arm` is still owed a second sample, so elimination spares it.
  [[nodiscard]] bool owed_second_look(const ArmBook& book, int arm, int best) const;

  /// The process's first ranking: kept until its first trial (check_first_trial).
  CostProfile first_profile;
  int first_trial_arm = -1;  ///< that trial's arm; -1: nothing to check
  bool reprofiled = false;   ///< the first profile was taken again (once per process)
  bool ranked = false;       ///< a ranking was made in this process
  /// After the first trial of the process's first ranking: true when it ran
  /// well below its prediction, so the loop must be profiled again
  /// (AutoConfig::reprofile); the plan is then dropped.
  bool check_first_trial(int arm, double time_ns);

 private:
  /// After the shortlist: the next untried arm when, corrected by the median
  /// measured/predicted ratio of the tried arms less two spreads, it would
  /// beat the best measured one (at most two such); else -1 (and the untried
  /// arms are dropped).
  int promising_untried(const ArmBook& book);
  /// After those: a tried arm with one sample within twice the margin of the
  /// best, for its second sample (at most two per ranking); else -1.
  int second_look(const ArmBook& book);

  /// The shortlist of `score` (lower is better; `dispatches` break exact
  /// ties where given), at most `trials` arms, becomes the queue; false
  /// when no score is finite.
  bool shortlist_by(const Portfolio& portfolio, const std::vector<double>& score,
                    const std::vector<std::int64_t>& dispatches, int trials);

  /// Static and static-steal (the arms that keep each thread's iterations)
  /// join the shortlist where predicted close to the best (AutoConfig::affinity_ns).
  void keep_affinity_trials(const Portfolio& portfolio, const std::vector<std::int64_t>& dispatches);

  double margin_, tie_, reprofile_, jitter_;
  int max_trials_;
  int patience_;
  bool spaced_ = false;          ///< the queue is a ranking's (a sweep runs back to back)
  int served_ = 0;               ///< trials handed out since the ranking
  std::int64_t ranked_at_ = 0;   ///< the loop's instance count at the ranking
  double affinity_ns_;
  std::vector<int> affine_;      ///< the affine arms the last ranking kept a trial for
  bool affinity_tried_ = false;  ///< one of them ran in this process
  std::vector<int> queue_;  ///< the shortlist's trials or the sweep's order
  std::size_t queue_next_ = 0;
  bool first_trial_ = false;   ///< the next trial is the best prediction (not exploration)
  bool recheck_first_ = true;  ///< the first sweep's first arm is tried again after it
  std::vector<double> predicted_;
  std::vector<double> raw_predicted_;
  std::vector<int> shortlist_;
  std::vector<int> untried_;  ///< ranked but not tried, best-predicted first
  int extra_trials_ = 0;      ///< untried arms tried after the shortlist
  std::vector<double> logs_;  ///< promising_untried()'s scratch
  int second_looks_left_ = 0;
  double ranking_ns_ = 0;
};

}  // namespace autosched::autoselect
