#include <autosched/core/decision_path.hpp>
#include <autosched/select/arm_ranking.hpp>
#include <autosched/select/auto_selector.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <numeric>
#include <sstream>
#include <utility>

namespace autosched {

AutoSelector::AutoSelector(int arms, AutoConfig config)
    : rng_(config.seed),
      arms_(static_cast<std::size_t>(std::max(1, arms))),
      config_(config),
      warmup_left_(std::max(0, config.warmup)) {
  queue_.resize(arms_.size());
  std::iota(queue_.begin(), queue_.end(), 0);
}

AutoSelector::AutoSelector(Portfolio loop_arms, AutoConfig config)
    : AutoSelector(static_cast<int>(loop_arms.size()), config) {
  loop_arms_ = std::move(loop_arms);
  need_profile_ = !loop_arms_.empty();
}

int AutoSelector::best_arm() const {
  int best = -1;
  for (int i = 0; i < static_cast<int>(arms_.size()); ++i) {
    const ArmState& a = arms_[static_cast<std::size_t>(i)];
    if (a.retired || a.all.count == 0) continue;
    if (best < 0 || a.all.mean < arms_[static_cast<std::size_t>(best)].all.mean) best = i;
  }
  return best;
}

AUTOSCHED_DECISION_PATH void AutoSelector::add_spread_term(const RunningStats& a, double& sum, long& dof) {
  if (a.count >= 2 && a.mean > 0) {
    sum += a.m2 / (a.mean * a.mean);  // (n−1) · relative variance
    dof += a.count - 1;
  }
}

AUTOSCHED_DECISION_PATH double AutoSelector::pooled_spread(double sum, long dof) const {
  const double measured = dof > 0 ? std::sqrt(sum / static_cast<double>(dof)) : 0.0;
  return std::max(measured, config_.noise_floor);
}

double AutoSelector::relative_spread(bool session_only) const {
  double sum = 0;
  long dof = 0;
  for (const ArmState& arm : arms_) add_spread_term(session_only ? arm.session : arm.all, sum, dof);
  return pooled_spread(sum, dof);
}

AUTOSCHED_DECISION_PATH bool AutoSelector::counts_as_exploration(const RunningStats& pick, const RunningStats& best, bool predicted_tie,
                                         double spread) const {
  if (pick.mean <= (1.0 + config_.tie) * best.mean) return false;
  if (!predicted_tie) return true;
  const double se = spread * std::sqrt(1.0 / static_cast<double>(pick.count) + 1.0 / static_cast<double>(best.count));
  return pick.mean > (1.0 + 2.0 * se) * best.mean;
}

AUTOSCHED_DECISION_PATH bool AutoSelector::measured_worse(const RunningStats& a, const RunningStats& best, double spread) const {
  if (a.count < 2 || best.count < 2) return false;
  const double se = spread * std::sqrt(1.0 / static_cast<double>(a.count) + 1.0 / static_cast<double>(best.count));
  return a.mean / best.mean - 1.0 > std::max(2.0 * se, config_.tie);
}

AUTOSCHED_DECISION_PATH bool AutoSelector::twice_worse(double predicted, double best_predicted, const RunningStats& a,
                               const RunningStats& best) const {
  return !tie_predicted(predicted, best_predicted) && predicted > best_predicted &&
         a.mean > (1.0 + config_.tie) * best.mean;
}

Decision AutoSelector::guarded(int arm, bool exploring) const {
  Decision d{arm, 0, -1, exploring};
  const int best = best_arm();
  if (best >= 0 && best != arm) {
    d.budget_ns = config_.guard * arms_[static_cast<std::size_t>(best)].all.mean;
    d.fallback = best;
  }
  return d;
}

AUTOSCHED_DECISION_PATH Decision AutoSelector::choose(const Context& context) {
  if (settled_) return choose_settled();
  if (resumed_) {
    // The first instance after a warm start exploits what the last run
    // learned; sampling (or the rest of an unfinished sweep) follows.
    resumed_ = false;
    last_from_sweep_ = false;
    if (const int best = best_arm(); best >= 0) {
      if (!loop_arms_.empty()) {  // is it the loop the store knows? its first instances tell
        verify_left_ = std::max(0, config_.verify);
        verify_arm_ = best;
        verify_mean_ = arms_[static_cast<std::size_t>(best)].all.mean;
        verify_samples_ = {};
      }
      return guarded(best, false);
    }
  }
  if (verify_left_ > 0 && verify_arm_ >= 0 && !arms_[static_cast<std::size_t>(verify_arm_)].retired) {
    last_from_sweep_ = false;
    return guarded(verify_arm_, false);
  }
  if (need_profile_) {
    if (profileable(context)) {
      profile_workers_ = context.p;
      last_from_sweep_ = false;
      Decision d{std::max(0, best_arm()), 0, -1, true};
      d.profile = true;
      return d;
    }
    need_profile_ = false;                                      // too small to profile: sweep
    if (std::exchange(check_profile_, false)) forget_stored();  // nothing to compare the store with
  }
  while (queue_next_ < queue_.size() && arms_[static_cast<std::size_t>(queue_[queue_next_])].retired) ++queue_next_;
  last_from_sweep_ = queue_next_ < queue_.size();
  if (last_from_sweep_) {
    // The first trial after a ranking runs the predicted best: exploitation
    // of the prediction, not exploration.
    // So is any trial of an arm predicted as good as the best (within a tie).
    const int arm = queue_[queue_next_++];
    if (first_trial_ && !first_profile_.empty()) first_trial_arm_ = arm;
    const bool predicted_best =
        first_trial_ ||
        (!predicted_.empty() && predicted_[static_cast<std::size_t>(arm)] <=
                                    (1.0 + config_.tie) * predicted_[static_cast<std::size_t>(queue_.front())]);
    first_trial_ = false;
    return guarded(arm, !predicted_best);
  }
  if (!untried_.empty()) {
    if (const int arm = promising_untried(); arm >= 0) return guarded(arm, true);
  }
  if (second_looks_left_ > 0) {
    if (const int arm = second_look(); arm >= 0) return guarded(arm, true);
  }
  if (recheck_first_) {
    // The sweep's first trial ran right after the warm-up, often still cold
    // (page faults, caches, frequency ramp): try that arm once more, so that
    // a cold sample cannot bury it.
    recheck_first_ = false;
    const int first = queue_.front();
    if (arms_.size() > 1 && !arms_[static_cast<std::size_t>(first)].retired) return guarded(first, true);
  }

  const int best = best_arm();
  if (best < 0) {  // every arm retired (the loop changed under us): start over
    reopen();
    return choose(context);
  }
  // Thompson sampling on the mean costs.
  const double s = relative_spread();
  int pick = best;
  double lowest = std::numeric_limits<double>::infinity();
  double best_draw = lowest;
  for (int i = 0; i < static_cast<int>(arms_.size()); ++i) {
    const ArmState& a = arms_[static_cast<std::size_t>(i)];
    if (a.retired || a.all.count == 0) continue;
    const double draw =
        a.all.mean * (1.0 + s * sum_of_twelve_normal(rng_) / std::sqrt(static_cast<double>(a.all.count)));
    if (i == best) best_draw = draw;
    if (draw < lowest) {
      lowest = draw;
      pick = i;
    }
  }
  pick = indifferent(lowest, best_draw) ? best : pick;
  // Reported as exploration only when the pick looks worse than the best by
  // more than a tie: rotating among equals costs nothing. With a prediction,
  // arms the simulator calls equal whose samples cannot tell them apart
  // (within two standard errors) are equals too.
  const bool worse = counts_as_exploration(arms_[static_cast<std::size_t>(pick)].all,
                                           arms_[static_cast<std::size_t>(best)].all, predicted_equal(pick, best), s);
  return guarded(pick, worse);
}

AUTOSCHED_DECISION_PATH Decision AutoSelector::choose_settled() {
  // The same draw as at the end of choose(), in the same order and with the
  // same arithmetic, so that the random stream and the picks are those the
  // full path would make.
  last_from_sweep_ = false;
  const double s = settled_spread_;
  int pick = settled_best_;
  bool worse = false;
  double lowest = std::numeric_limits<double>::infinity();
  double best_draw = lowest;
  for (int k = 0; k < candidate_count_; ++k) {
    const Candidate& c = candidates_[static_cast<std::size_t>(k)];
    const double draw = c.all.mean * (1.0 + s * sum_of_twelve_normal(rng_) / c.root);
    if (c.arm == settled_best_) best_draw = draw;
    if (draw < lowest) {
      lowest = draw;
      pick = c.arm;
      worse = c.worse;
    }
  }
  if (indifferent(lowest, best_draw)) {
    pick = settled_best_;
    worse = false;
  }
  Decision d{pick, 0, -1, worse};
  if (pick != settled_best_) {
    d.budget_ns = settled_budget_;
    d.fallback = settled_best_;
  }
  return d;
}

void AutoSelector::prepare_settled() {
  settled_ = false;
  // Whatever choose() would do before its draw must be done first.
  if (!config_.settled_path || resumed_ || verify_left_ > 0 || need_profile_ || queue_next_ < queue_.size() ||
      !untried_.empty() || second_looks_left_ > 0 || recheck_first_ || teach_prior_) {
    return;
  }
  const int best = best_arm();
  if (best < 0) return;
  const bool predicted = predicted_.size() == arms_.size();
  int count = 0, best_candidate = 0;
  rest_all_ = rest_session_ = 0;
  rest_all_dof_ = rest_session_dof_ = 0;
  for (int i = 0; i < static_cast<int>(arms_.size()); ++i) {
    const ArmState& a = arms_[static_cast<std::size_t>(i)];
    if (a.retired || a.all.count == 0) {
      add_spread_term(a.all, rest_all_, rest_all_dof_);
      add_spread_term(a.session, rest_session_, rest_session_dof_);
      continue;
    }
    if (count == max_candidates) return;  // the full path draws
    if (i == best) best_candidate = count;
    Candidate& c = candidates_[static_cast<std::size_t>(count++)];
    c.arm = i;
    c.all = a.all;
    c.session = a.session;
    c.predicted = predicted ? predicted_[static_cast<std::size_t>(i)] : std::numeric_limits<double>::quiet_NaN();
  }
  candidate_count_ = count;
  arm_draws(best_candidate, relative_spread());
  settled_ = true;
}

AUTOSCHED_DECISION_PATH void AutoSelector::arm_draws(int best, double spread) {
  const Candidate& b = candidates_[static_cast<std::size_t>(best)];
  for (int k = 0; k < candidate_count_; ++k) {
    Candidate& c = candidates_[static_cast<std::size_t>(k)];
    c.worse = counts_as_exploration(c.all, b.all, tie_predicted(c.predicted, b.predicted), spread);
    c.root = std::sqrt(static_cast<double>(c.all.count));
  }
  settled_best_ = b.arm;
  settled_budget_ = config_.guard * b.all.mean;
  settled_spread_ = spread;
}

AUTOSCHED_DECISION_PATH double AutoSelector::candidate_spread(bool session_only, int replaced, const RunningStats& with) const {
  double sum = session_only ? rest_session_ : rest_all_;
  long dof = session_only ? rest_session_dof_ : rest_all_dof_;
  for (int k = 0; k < candidate_count_; ++k) {
    const Candidate& c = candidates_[static_cast<std::size_t>(k)];
    add_spread_term(k == replaced ? with : session_only ? c.session : c.all, sum, dof);
  }
  return pooled_spread(sum, dof);
}

AUTOSCHED_DECISION_PATH bool AutoSelector::observe_settled(const Decision& d, const Outcome& o) {
  // learn(), step for step, for the one case that keeps the state settled.
  if (!settled_ || d.profile || o.cut_short || warmup_left_ > 0) return false;
  int k = 0;
  while (k < candidate_count_ && candidates_[static_cast<std::size_t>(k)].arm != d.arm) ++k;
  if (k == candidate_count_) return false;
  Candidate& c = candidates_[static_cast<std::size_t>(k)];
  double time = o.time_ns;
  if (config_.clip > 0 && time * config_.clip < c.all.mean) return false;  // learn() forgets the arm's samples
  if (c.session.count >= 2 && config_.clip > 0) {
    const double limit = std::min(config_.clip, std::max(1.5, 1.0 + 3.0 * candidate_spread(true, -1, {})));
    time = std::min(time, limit * c.session.mean);
  }
  RunningStats all = c.all, session = c.session;
  all.add(time);
  session.add(time);
  const auto stats = [&](int j) -> const RunningStats& {
    return j == k ? all : candidates_[static_cast<std::size_t>(j)].all;
  };
  int best = 0;
  for (int j = 1; j < candidate_count_; ++j) {
    if (stats(j).mean < stats(best).mean) best = j;
  }
  const double spread = candidate_spread(false, k, all);
  if (!loop_arms_.empty()) {
    // eliminate(): an arm it would retire leaves the settled state.
    const RunningStats& b = stats(best);
    const double best_predicted = candidates_[static_cast<std::size_t>(best)].predicted;
    for (int j = 0; j < candidate_count_; ++j) {
      if (j == best) continue;
      if (measured_worse(stats(j), b, spread)) return false;
      if (predicted_.size() == arms_.size() &&
          twice_worse(candidates_[static_cast<std::size_t>(j)].predicted, best_predicted, stats(j), b)) {
        return false;
      }
    }
  }
  // The change test, as learn() runs it; an alarm leaves the settled state.
  const int best_arm = candidates_[static_cast<std::size_t>(best)].arm;
  int watched = watched_ == best_arm ? watched_ : -1;
  double reference = reference_, change_spread = spread_, excess = excess_;
  RunningStats drift = drift_;
  if (watched < 0 && d.arm == best_arm && session.count >= config_.settle) {
    watched = d.arm;
    reference = session.mean;
    change_spread = candidate_spread(true, k, session);
    excess = 0;
    drift = {};
  }
  if (d.arm == watched) {
    const double z = std::min((time / reference - 1.0) / change_spread, config_.change_cap);
    excess = std::max(0.0, excess + z - config_.change_slack);
    if (excess > config_.change_threshold) return false;
    if (excess > 0) {
      drift.add(time);
    } else {
      drift = {};
    }
  }
  ArmState& a = arms_[static_cast<std::size_t>(d.arm)];
  a.all = c.all = all;
  a.session = c.session = session;
  watched_ = watched;
  reference_ = reference;
  spread_ = change_spread;
  excess_ = excess;
  drift_ = drift;
  arm_draws(best, spread);
  return true;
}

AUTOSCHED_DECISION_PATH bool AutoSelector::indifferent(double lowest, double best_draw) const noexcept {
  return config_.stick && lowest > (1.0 - config_.tie) * best_draw;
}

AUTOSCHED_DECISION_PATH bool AutoSelector::tie_predicted(double x, double y) const {
  return std::isfinite(x) && std::isfinite(y) && std::max(x, y) <= (1.0 + config_.tie) * std::min(x, y);
}

void AutoSelector::reopen() {
  ++changes_;
  if (!loop_arms_.empty() && predicted_.size() == arms_.size() && watched_ >= 0 && drift_.count > 0) {
    // Did the loop change, or the process around it? On a shared node a
    // whole process runs 10-20% slower for seconds at a time, which the test
    // cannot tell from a change of the loop. One profile can: the same shape
    // keeps every sample, moved to the level the drifting samples show (no
    // trials); another shape forgets them and its ranking's trials run.
    verify_arm_ = watched_;
    verify_samples_ = drift_;
    samples_counted_ = true;  // the drifting samples are in the arm's statistics already
    check_profile_ = true;
    need_profile_ = true;
    watched_ = -1;
    excess_ = 0;
    drift_ = {};
    untried_.clear();
    verify_left_ = 0;
    return;
  }
  // The old samples describe the loop before the change: keep only their
  // order, so the sweep meets the likely-good arms first and its guards
  // tighten early.
  for (ArmState& a : arms_) {
    const double prior = a.all.count > 0 && !a.retired ? a.all.mean : std::numeric_limits<double>::infinity();
    a = ArmState{{}, {}, false, prior};
  }
  queue_.resize(arms_.size());
  std::iota(queue_.begin(), queue_.end(), 0);
  // Ties keep arm order. Not std::stable_sort: it takes a temporary buffer,
  // and a steady loop must not allocate when its change test fires.
  std::sort(queue_.begin(), queue_.end(), [&](int x, int y) {
    const double px = arms_[static_cast<std::size_t>(x)].prior, py = arms_[static_cast<std::size_t>(y)].prior;
    return px < py || (px == py && x < y);
  });
  queue_next_ = 0;
  watched_ = -1;
  excess_ = 0;
  // With loop arms the sweep above is only the fallback: the loop is profiled
  // again and the ranking replaces it.
  need_profile_ = !loop_arms_.empty();
  untried_.clear();
  verify_left_ = 0;
}

void AutoSelector::rank(const CostProfile& profile, int workers) {
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<std::int64_t> dispatches;
  raw_predicted_ = predict_arms_robust(loop_arms_, profile, workers, config_.jitter, &dispatches);
  predicted_ = raw_predicted_;
  if (prior_ != nullptr) {
    for (std::size_t a = 0; a < predicted_.size(); ++a) predicted_[a] *= prior_->factor(loop_arms_[a]);
  }
  const std::vector<int> order = rank_by(predicted_, dispatches);
  const double best = predicted_[static_cast<std::size_t>(order.front())];
  shortlist_.clear();
  untried_.clear();
  const int trials = std::max(2, config_.max_trials);
  for (const int a : order) {
    const double t = predicted_[static_cast<std::size_t>(a)];
    if (!std::isfinite(t)) continue;
    // At least two trials: the second measures the simulator's error. One
    // arm per technique: the chunk variants of a technique run the same code
    // and share the simulator's blind spots (per-request AWF at 200 ranks is
    // predicted 19% fast in every variant), so trials of different techniques
    // say more; the other variants stay candidates for promising_untried().
    const TechniqueId technique = loop_arms_[static_cast<std::size_t>(a)].technique;
    const bool listed = std::any_of(shortlist_.begin(), shortlist_.end(), [&](int b) {
      return loop_arms_[static_cast<std::size_t>(b)].technique == technique;
    });
    const bool close = t <= (1.0 + config_.margin) * best || shortlist_.size() < 2;
    if (close && !listed && static_cast<int>(shortlist_.size()) < trials) {
      shortlist_.push_back(a);
    } else {
      untried_.push_back(a);
    }
  }
  // Fewer techniques than trials within the margin: the trials left go to
  // the best-predicted other variants within it. The simulator cannot tell
  // the variants of one technique apart where they differ in what it does
  // not model: on triangle-count only ss, static-steal and static come
  // within the margin, it calls static-steal and static-steal,chunk=expert
  // equal, and in the 2026-11-29 campaign the first was the best arm (0.4%
  // from the Oracle) and the second 2.8%.
  for (auto u = untried_.begin(); u != untried_.end() && static_cast<int>(shortlist_.size()) < trials;) {
    if (predicted_[static_cast<std::size_t>(*u)] <= (1.0 + config_.margin) * best) {
      shortlist_.push_back(*u);
      u = untried_.erase(u);
    } else {
      ++u;
    }
  }
  // Trials in the ranking's order, best-predicted first.
  std::vector<int> position(predicted_.size());
  for (std::size_t k = 0; k < order.size(); ++k) position[static_cast<std::size_t>(order[k])] = static_cast<int>(k);
  std::sort(shortlist_.begin(), shortlist_.end(),
            [&](int x, int y) { return position[static_cast<std::size_t>(x)] < position[static_cast<std::size_t>(y)]; });
  if (shortlist_.empty()) return;  // nothing predicted: the sweep stays
  queue_ = shortlist_;
  queue_next_ = 0;
  extra_trials_ = 0;
  second_looks_left_ = 2;
  first_trial_ = true;
  teach_prior_ = prior_ != nullptr;
  recheck_first_ = false;  // the profiling instance took the cold start
  ranked_ = true;
  ranking_ns_ = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count();
}

void AutoSelector::check_first_trial(int arm, double time_ns) {
  first_trial_arm_ = -1;
  const double predicted = predicted_.size() == arms_.size() ? predicted_[static_cast<std::size_t>(arm)] : 0.0;
  if (first_profile_.empty() || !(predicted > 0) || !std::isfinite(predicted) ||
      time_ns >= config_.reprofile * predicted) {
    first_profile_ = {};  // the profile held: the ranking stands
    return;
  }
  // The trial ran far below what the profile predicts: the first instance
  // paid for a cold start. Unevenly, it misranked the arms; evenly, the
  // ranking was right and one profiling instance is spent for nothing. The
  // check cannot tell the two apart. Profile again; the trial's sample stays.
  reprofiled_ = true;
  need_profile_ = true;
  queue_.clear();
  queue_next_ = 0;
  untried_.clear();
  second_looks_left_ = 0;
  teach_prior_ = false;  // that ranking's trials are abandoned: nothing to teach
}

int AutoSelector::promising_untried() {
  const int best = best_arm();
  if (best < 0 || extra_trials_ >= 2) {
    untried_.clear();
    return -1;
  }
  // The simulator's error on this loop: the log measured/predicted ratios of
  // the tried arms, their median and spread. An untried arm (predicted worse
  // than every tried one) is tried if, corrected by the median and given the
  // benefit of two spreads, it would beat the best measured arm: the more
  // the simulator's errors differ between arms here, the further down the
  // ranking that reaches. At most two such trials.
  std::vector<double> logs;
  for (std::size_t a = 0; a < arms_.size() && a < predicted_.size(); ++a) {
    if (arms_[a].all.count > 0 && std::isfinite(predicted_[a]) && predicted_[a] > 0) {
      logs.push_back(std::log(arms_[a].all.mean / predicted_[a]));
    }
  }
  if (logs.size() >= 2) {
    std::sort(logs.begin(), logs.end());
    const std::size_t m = logs.size();
    const double median = m % 2 ? logs[m / 2] : (logs[m / 2 - 1] + logs[m / 2]) / 2;
    double ss = 0;
    for (const double l : logs) ss += (l - median) * (l - median);
    const double spread = std::sqrt(ss / static_cast<double>(m - 1));
    const int next = untried_.front();
    const double hope = predicted_[static_cast<std::size_t>(next)] * std::exp(median - 2.0 * spread);
    if (hope < (1.0 - config_.tie) * arms_[static_cast<std::size_t>(best)].all.mean) {
      untried_.erase(untried_.begin());
      ++extra_trials_;
      return next;
    }
  }
  untried_.clear();
  return -1;
}

bool AutoSelector::owed_second_look(int arm, int best) const {
  const ArmState& a = arms_[static_cast<std::size_t>(arm)];
  return second_looks_left_ > 0 && arm != best && !a.retired && a.all.count == 1 &&
         a.all.mean <= (1.0 + 2.0 * config_.margin) * arms_[static_cast<std::size_t>(best)].all.mean;
}

int AutoSelector::second_look() {
  // One sample cannot tell a noisy arm's unlucky instance from its level
  // (adaptive techniques across ranks swing by 20% from one instance to the
  // next), and Thompson sampling on a single sample rarely returns to an arm
  // that measured a few percent worse than a steady one. So the tried arms
  // whose one sample lies within twice the trial margin of the best get a
  // second sample, the closest first, at most two per ranking.
  const int best = best_arm();
  int pick = -1;
  for (int i = 0; best >= 0 && i < static_cast<int>(arms_.size()); ++i) {
    if (owed_second_look(i, best) &&
        (pick < 0 || arms_[static_cast<std::size_t>(i)].all.mean < arms_[static_cast<std::size_t>(pick)].all.mean)) {
      pick = i;
    }
  }
  if (pick < 0) {
    second_looks_left_ = 0;
  } else {
    --second_looks_left_;
  }
  return pick;
}

void AutoSelector::eliminate() {
  const int best = best_arm();
  if (best < 0) return;
  const RunningStats& b = arms_[static_cast<std::size_t>(best)].all;
  if (b.count < 1) return;
  const double s = relative_spread();
  for (int i = 0; i < static_cast<int>(arms_.size()); ++i) {
    ArmState& a = arms_[static_cast<std::size_t>(i)];
    if (i != best && !a.retired && measured_worse(a.all, b, s)) a.retired = true;
  }
  // Two independent witnesses: an arm the simulator predicted worse than the
  // best by more than a tie, and whose trial measured it worse too, is not
  // worth more samples.
  if (predicted_.size() != arms_.size()) return;
  for (int i = 0; i < static_cast<int>(arms_.size()); ++i) {
    ArmState& a = arms_[static_cast<std::size_t>(i)];
    if (i == best || a.retired || a.all.count < 1 || owed_second_look(i, best)) continue;
    if (twice_worse(predicted_[static_cast<std::size_t>(i)], predicted_[static_cast<std::size_t>(best)], a.all, b)) {
      a.retired = true;
    }
  }
}

bool AutoSelector::predicted_equal(int x, int y) const {
  if (predicted_.size() != arms_.size()) return false;
  return tie_predicted(predicted_[static_cast<std::size_t>(x)], predicted_[static_cast<std::size_t>(y)]);
}

bool AutoSelector::profileable(const Context& context) {
  return context.p >= 1 && context.n >= 2 * static_cast<std::int64_t>(context.p);
}

bool AutoSelector::same_loop(const std::vector<double>& stored) const {
  // The stored best must still be one a fresh ranking would try (within the
  // margin of the best prediction), and the arms' predictions relative to it
  // must be those the stored profile gave (median log difference within
  // `match`): the same shape of loop, at whatever level this process runs.
  const int best = verify_arm_;
  if (best < 0 || stored.size() != predicted_.size()) return false;
  const auto at = [](const std::vector<double>& v, int a) { return v[static_cast<std::size_t>(a)]; };
  const double now_best = at(predicted_, best), then_best = at(stored, best);
  if (!(std::isfinite(now_best) && now_best > 0 && std::isfinite(then_best) && then_best > 0)) return false;
  double lowest = std::numeric_limits<double>::infinity();
  for (const double t : predicted_) {
    if (std::isfinite(t) && t > 0) lowest = std::min(lowest, t);
  }
  if (now_best > (1.0 + config_.margin) * lowest) return false;
  std::vector<double> differences;
  for (int a = 0; a < static_cast<int>(stored.size()); ++a) {
    const double now = at(predicted_, a), then = at(stored, a);
    if (std::isfinite(now) && now > 0 && std::isfinite(then) && then > 0) {
      differences.push_back(std::abs(std::log(now / now_best) - std::log(then / then_best)));
    }
  }
  if (differences.empty()) return false;
  const auto middle = differences.begin() + static_cast<std::ptrdiff_t>(differences.size() / 2);
  std::nth_element(differences.begin(), middle, differences.end());
  return *middle <= config_.match;
}

void AutoSelector::check_profile(const std::vector<double>& stored) {
  if (!same_loop(stored)) {
    forget_stored();  // another input or machine: the ranking just made stands
    return;
  }
  // The same loop, in a process at another level: no trials. Every sample
  // is scaled by what the best arm measures now (verify_samples_: the warm
  // start's verify instances, or the instances that raised the change test)
  // over its mean, so that new samples and the old ones compare on one
  // level, and the best arm runs on.
  queue_.clear();
  queue_next_ = 0;
  untried_.clear();
  shortlist_.clear();
  second_looks_left_ = 0;
  first_trial_ = false;
  teach_prior_ = false;
  ArmState& best = arms_[static_cast<std::size_t>(verify_arm_)];
  const double factor = verify_samples_.mean / best.all.mean;
  if (std::isfinite(factor) && factor > 0) {
    for (ArmState& a : arms_) {
      for (RunningStats* r : {&a.all, &a.session}) {
        r->mean *= factor;
        r->m2 *= factor * factor;
      }
    }
  }
  if (!std::exchange(samples_counted_, false)) {
    best.all.merge(verify_samples_);
    best.session.merge(verify_samples_);
  }
  verify_arm_ = -1;
}

void AutoSelector::forget_stored() {
  samples_counted_ = false;
  verify_left_ = 0;
  verify_arm_ = -1;
  for (ArmState& a : arms_) a = ArmState{};
  watched_ = -1;
  excess_ = 0;
}

void AutoSelector::verify() {
  if (--verify_left_ > 0) return;
  const double s = relative_spread();
  const double tolerance =
      std::max(config_.match, 3.0 * s / std::sqrt(static_cast<double>(std::max(1, config_.verify))));
  const double relative = verify_samples_.mean / verify_mean_ - 1.0;
  if (std::abs(relative) <= tolerance) {  // the loop the store knows: exploit
    ArmState& best = arms_[static_cast<std::size_t>(verify_arm_)];
    best.all.merge(verify_samples_);
    best.session.merge(verify_samples_);
    verify_arm_ = -1;
    return;
  }
  // Another level than the stored one. With the stored predictions, the
  // loop's profile tells whether it is another loop (input, machine) or the
  // same one in a slower or faster process (on a shared node one process
  // runs 10% above the next); without them, the stored samples go.
  if (predicted_.size() == arms_.size()) {
    check_profile_ = true;  // verify_arm_ and verify_samples_ are kept for it
  } else {
    forget_stored();
    queue_.clear();
    queue_next_ = 0;
  }
  need_profile_ = true;
}

AUTOSCHED_DECISION_PATH void AutoSelector::observe(const Decision& d, const Outcome& o) {
  if (observe_settled(d, o)) {
    // Capped well below overflow; ahead_batch() clamps it anyway.
    steady_run_ = d.exploring ? 0 : std::min(steady_run_ + 1, 1 << 20);
    return;
  }
  steady_run_ = 0;
  learn(d, o);
  prepare_settled();
}

void AutoSelector::learn(const Decision& d, const Outcome& o) {
  ArmState& a = arms_[static_cast<std::size_t>(d.arm)];
  if (d.profile) {
    // The profiling technique ran, not arm d.arm: its time is nobody's sample.
    if (warmup_left_ > 0) --warmup_left_;
    need_profile_ = false;
    const bool checking = std::exchange(check_profile_, false);
    const CostProfile first = std::exchange(first_profile_, CostProfile{});
    first_trial_arm_ = -1;
    if (o.profile != nullptr && !o.cut_short && !o.profile->empty()) {
      std::vector<double> stored;
      if (checking) stored = predicted_;
      if (reprofiled_ && !first.empty()) {
        // The first profile was inflated somewhere: what both instances
        // agree the blocks cost at least.
        rank(first.lower_envelope(*o.profile), profile_workers_);
      } else {
        const bool first_ranking = !ranked_ && !checking && config_.reprofile > 0;
        rank(*o.profile, profile_workers_);
        // The process's first ranking: its first trial tells whether the
        // profile paid for a cold start (check_first_trial).
        if (first_ranking && !shortlist_.empty()) first_profile_ = *o.profile;
      }
      if (checking) check_profile(stored);
    } else if (checking) {
      forget_stored();  // no profile after all: the stored samples do not describe this level
    } else if (reprofiled_ && !first.empty()) {
      rank(first, profile_workers_);  // the second profile failed: the first is all there is
    }
    return;
  }
  if (warmup_left_ > 0) {
    --warmup_left_;
    if (last_from_sweep_) --queue_next_;  // the trial said nothing about the arm: run it again
    return;
  }
  if (o.cut_short) {
    a.retired = true;  // at least guard × slower than the best: not worth more samples
    if (watched_ == d.arm) watched_ = -1;
    return;
  }
  double time = o.time_ns;
  if (a.all.count >= 1 && config_.clip > 0 && time * config_.clip < a.all.mean) {
    // Far below everything seen: the earlier samples were inflated (a cold
    // start, a preempted run) or the loop became much faster; either way they
    // no longer describe the arm.
    a.all = a.session = RunningStats{};
    if (watched_ == d.arm) watched_ = -1;
  }
  if (a.session.count >= 2 && config_.clip > 0) {
    const double limit = std::min(config_.clip, std::max(1.5, 1.0 + 3.0 * relative_spread(true)));
    time = std::min(time, limit * a.session.mean);
  }
  if (verify_left_ > 0 && d.arm == verify_arm_) {
    // Kept apart until the verdict: they join the stored samples as they
    // are (the stored level), scaled to them (the same loop elsewhere), or
    // not at all (another loop).
    verify_samples_.add(o.time_ns);
    verify();
    return;
  }
  a.all.add(time);
  a.session.add(time);
  if (d.arm == first_trial_arm_) check_first_trial(d.arm, time);
  if (!loop_arms_.empty() && queue_next_ >= queue_.size()) {
    if (teach_prior_) {  // the shortlist's trials are in: what the simulator got wrong here
      teach_prior_ = false;
      std::vector<RunningStats> measured;
      for (const ArmState& arm : arms_) measured.push_back(arm.all);
      prior_->learn(loop_arms_, raw_predicted_, measured);
    }
    eliminate();
  }

  // Change detection watches the best arm once it has settled in this run;
  // when another arm becomes the best, the watch moves to it.
  const int best = best_arm();
  if (watched_ >= 0 && watched_ != best) watched_ = -1;
  if (watched_ < 0 && d.arm == best && a.session.count >= config_.settle) {
    watched_ = d.arm;
    reference_ = a.session.mean;
    spread_ = relative_spread(true);
    excess_ = 0;
    drift_ = {};
  }
  if (d.arm != watched_) return;
  const double z = std::min((time / reference_ - 1.0) / spread_, config_.change_cap);
  excess_ = std::max(0.0, excess_ + z - config_.change_slack);
  // The samples since the excess began to build up: the new level, if it is one.
  if (excess_ > 0) {
    drift_.add(time);
  } else {
    drift_ = {};
  }
  if (excess_ > config_.change_threshold) reopen();
}

std::string AutoSelector::save_state() const {
  // Arms without samples (a sweep cut off by the end of the run) are swept
  // by the run that loads this.
  if (best_arm() < 0) return {};
  std::ostringstream out;
  out.precision(17);
  // auto4 adds each arm's predicted time (0: none), so that a warm start
  // knows which arms the simulator calls equal without profiling again.
  const bool predicted = predicted_.size() == arms_.size();
  out << (predicted ? "auto4 " : "auto3 ") << arms_.size();
  for (std::size_t i = 0; i < arms_.size(); ++i) {
    const ArmState& a = arms_[i];
    out << ' ' << a.all.count << ' ' << a.all.mean << ' ' << a.all.m2 << ' ' << a.retired;
    if (predicted) out << ' ' << (std::isfinite(predicted_[i]) ? predicted_[i] : 0.0);
  }
  return out.str();
}

bool AutoSelector::load_state(std::string_view state) {
  std::istringstream in{std::string(state)};
  std::string tag;
  std::size_t arms = 0;
  if (!(in >> tag >> arms) || (tag != "auto3" && tag != "auto4") || arms != arms_.size()) return false;
  const bool with_predictions = tag == "auto4";
  std::vector<ArmState> loaded(arms);
  std::vector<double> predicted(with_predictions ? arms : 0);
  for (std::size_t i = 0; i < arms; ++i) {
    ArmState& a = loaded[i];
    if (!(in >> a.all.count >> a.all.mean >> a.all.m2 >> a.retired)) return false;
    if (with_predictions) {
      if (!(in >> predicted[i]) || !std::isfinite(predicted[i]) || predicted[i] < 0) return false;
      if (predicted[i] == 0) predicted[i] = std::numeric_limits<double>::infinity();
    }
  }
  std::string rest;
  if (in >> rest) return false;
  if (!resume(std::move(loaded))) return false;
  if (!loop_arms_.empty()) predicted_ = std::move(predicted);
  return true;
}

bool AutoSelector::seed(std::span<const RunningStats> samples) {
  if (samples.size() != arms_.size()) return false;
  std::vector<ArmState> seeded(arms_.size());
  for (std::size_t i = 0; i < seeded.size(); ++i) seeded[i].all = samples[i];
  return resume(std::move(seeded));
}

bool AutoSelector::resume(std::vector<ArmState> arms) {
  bool any = false;
  for (const ArmState& a : arms) {
    // Only statistics a run could have produced: anything else (a damaged
    // or hand-edited store) would turn every draw into NaN.
    const bool valid = a.all.count == 0 ? a.all.mean == 0 && a.all.m2 == 0
                                        : a.all.count > 0 && a.all.count <= RunningStats::max_loaded_count &&
                                              std::isfinite(a.all.mean) && a.all.mean > 0 && std::isfinite(a.all.m2) &&
                                              a.all.m2 >= 0;
    if (!valid) return false;
    any = any || (a.all.count > 0 && !a.retired);
  }
  if (!any) return false;
  arms_ = std::move(arms);
  settled_ = false;  // the next choice runs the stored best
  // No sweep: the stored samples stand in for it, except for arms the last
  // run did not reach.
  queue_.clear();
  for (int i = 0; i < static_cast<int>(arms_.size()); ++i) {
    if (arms_[static_cast<std::size_t>(i)].all.count == 0 && !arms_[static_cast<std::size_t>(i)].retired) {
      queue_.push_back(i);
    }
  }
  // Prediction mode runs no arm blind: arms the last run never tried stay
  // untried unless this run's profile and ranking call for them.
  if (!loop_arms_.empty()) queue_.clear();
  queue_next_ = 0;
  watched_ = -1;
  resumed_ = true;
  recheck_first_ = false;
  need_profile_ = false;
  return true;
}

std::string AutoSelector::summary() const {
  if (need_profile_) return check_profile_ ? "profile (warm start)" : "profile";
  if (verify_left_ > 0) return "verify " + std::to_string(verify_arm_);
  if (sweeping() && !loop_arms_.empty() && !shortlist_.empty()) {
    return "trial " + std::to_string(queue_next_) + "/" + std::to_string(queue_.size());
  }
  if (sweeping()) return "sweep " + std::to_string(queue_next_) + "/" + std::to_string(arms_.size());
  return "best " + std::to_string(best_arm());
}

}  // namespace autosched
