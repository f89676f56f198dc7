#include <autosched/select/selectors/auto/arm_ranking.hpp>
#include <autosched/select/selectors/auto/trial_plan.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>

namespace autosched::autoselect {

TrialPlan::TrialPlan(int arms, const AutoConfig& config)
    : margin_(config.margin),
      tie_(config.tie),
      reprofile_(config.reprofile),
      jitter_(config.jitter),
      max_trials_(config.max_trials),
      patience_(std::max(0, config.patience)),
      affinity_ns_(config.affinity_ns) {
  std::vector<int> order(static_cast<std::size_t>(std::max(1, arms)));
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
  queue_ = std::move(order);
  logs_.reserve(queue_.size());
}

bool TrialPlan::rank(const Portfolio& portfolio, const CostProfile& profile, int workers,
                     const ArmCorrections* prior) {
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<std::int64_t> dispatches;
  raw_predicted_ = predict_arms_robust(portfolio, profile, workers, jitter_, &dispatches);
  predicted_ = raw_predicted_;
  if (prior != nullptr) {
    for (std::size_t a = 0; a < predicted_.size(); ++a) predicted_[a] *= prior->factor(portfolio[a]);
  }
  if (!shortlist_by(portfolio, predicted_, dispatches, std::max(2, max_trials_))) return false;  // nothing predicted: the sweep stays
  // Once per process: after the affine arms were measured, later rankings
  // (a change of phase) rank on the predictions and what was measured.
  const bool memory_bound = profile.total_ns() < affinity_ns_ * static_cast<double>(profile.n());
  if (memory_bound && !affinity_tried_) keep_affinity_trials(portfolio, dispatches);
  ranked = true;
  ranking_ns_ = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count();
  return true;
}

bool TrialPlan::rank_robust(const Portfolio& portfolio, const std::vector<double>& scores) {
  // One arm: trials of others, each at another point of the loop's swings,
  // would compare moments rather than arms.
  if (!shortlist_by(portfolio, scores, {}, 1)) return false;
  untried_.clear();
  second_looks_left_ = 0;
  return true;
}

bool TrialPlan::shortlist_by(const Portfolio& portfolio, const std::vector<double>& score,
                             const std::vector<std::int64_t>& dispatches, int trials) {
  const std::vector<int> order = rank_by(score, dispatches);
  const double best = score[static_cast<std::size_t>(order.front())];
  shortlist_.clear();
  untried_.clear();
  for (const int a : order) {
    const double t = score[static_cast<std::size_t>(a)];
    if (!std::isfinite(t)) continue;
    // At least two trials: the second measures the simulator's error. One
    // arm per technique: the chunk variants of a technique run the same code
    // and share the simulator's blind spots (per-request AWF at 200 ranks is
    // predicted 19% fast in every variant), so trials of different techniques
    // say more; the other variants stay candidates for promising_untried().
    const TechniqueId technique = portfolio[static_cast<std::size_t>(a)].technique;
    const bool listed = std::any_of(shortlist_.begin(), shortlist_.end(), [&](int b) {
      return portfolio[static_cast<std::size_t>(b)].technique == technique;
    });
    const bool close = t <= (1.0 + margin_) * best || static_cast<int>(shortlist_.size()) < std::min(2, trials);
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
    if (score[static_cast<std::size_t>(*u)] <= (1.0 + margin_) * best) {
      shortlist_.push_back(*u);
      u = untried_.erase(u);
    } else {
      ++u;
    }
  }
  // Trials in the ranking's order, best-predicted first.
  std::vector<int> position(score.size());
  for (std::size_t k = 0; k < order.size(); ++k) position[static_cast<std::size_t>(order[k])] = static_cast<int>(k);
  std::sort(shortlist_.begin(), shortlist_.end(),
            [&](int x, int y) { return position[static_cast<std::size_t>(x)] < position[static_cast<std::size_t>(y)]; });
  if (shortlist_.empty()) return false;
  queue_ = shortlist_;
  queue_next_ = 0;
  spaced_ = true;
  served_ = 0;
  extra_trials_ = 0;
  second_looks_left_ = 2;
  first_trial_ = true;
  recheck_first_ = false;  // the profiling instance took the cold start
  return true;
}

void TrialPlan::keep_affinity_trials(const Portfolio& portfolio, const std::vector<std::int64_t>& dispatches) {
  // Static and static-steal hand each thread the same iterations every
  // instance (static-steal until it steals), so a loop that touches the same
  // data every instance finds it in that thread's cache. The simulator sees
  // body time, not caches: on a memory-bound loop it may rank first a
  // dynamic arm that runs 50% slower than static. So where they are
  // predicted within the margin and two jitters of the best (what a
  // balanced loop costs them on a perturbed team), they are the trials,
  // first, with the best-predicted other arm after them as the one
  // alternative (AutoConfig::affinity_ns). The dynamic arms the simulator
  // ties with them differ only by what it does not see; one of them
  // measures that, and the rest stay candidates for extra trials. On a loop
  // that runs a few dozen steps, each trial of a dynamic arm on a
  // memory-bound loop can cost a third of an instance.
  const std::vector<int> order = rank_by(predicted_, dispatches);
  const double reach = (1.0 + margin_ + 2.0 * jitter_) * predicted_[static_cast<std::size_t>(order.front())];
  const auto affine = [&](int a) {
    const TechniqueSpec& arm = portfolio[static_cast<std::size_t>(a)];
    return (arm.technique == TechniqueId::static_ || arm.technique == TechniqueId::static_steal) && arm.chunk == 0 &&
           !arm.expert_chunk;
  };
  affine_.clear();
  for (const int a : order) {
    if (affine(a) && predicted_[static_cast<std::size_t>(a)] <= reach) affine_.push_back(a);
  }
  if (affine_.empty()) return;
  std::vector<int> trials = affine_;
  for (const int a : shortlist_) {
    if (!affine(a)) {
      trials.push_back(a);  // the best-predicted other arm: shortlist_ is in ranking order
      break;
    }
  }
  for (const int a : shortlist_) {
    if (std::find(trials.begin(), trials.end(), a) == trials.end()) untried_.push_back(a);
  }
  for (const int a : trials) untried_.erase(std::remove(untried_.begin(), untried_.end(), a), untried_.end());
  std::vector<int> position(predicted_.size());
  for (std::size_t k = 0; k < order.size(); ++k) position[static_cast<std::size_t>(order[k])] = static_cast<int>(k);
  std::sort(untried_.begin(), untried_.end(), [&](int x, int y) {
    return position[static_cast<std::size_t>(x)] < position[static_cast<std::size_t>(y)];
  });
  shortlist_ = std::move(trials);
  queue_ = shortlist_;
}

std::vector<int> TrialPlan::pending() const {
  return {queue_.begin() + static_cast<std::ptrdiff_t>(std::min(queue_next_, queue_.size())), queue_.end()};
}


TrialPlan::Trial TrialPlan::next(const ArmBook& book) {
  while (queue_next_ < queue_.size() && book[queue_[queue_next_]].retired) ++queue_next_;
  if (queue_next_ < queue_.size()) {
    // The first trial after a ranking runs the predicted best: exploitation
    // of the prediction, not exploration. So is any trial of an arm
    // predicted as good as the best (within a tie).
    const int arm = queue_[queue_next_++];
    if (first_trial_ && !first_profile.empty()) first_trial_arm = arm;
    if (std::find(affine_.begin(), affine_.end(), arm) != affine_.end()) affinity_tried_ = true;
    const bool predicted_best =
        first_trial_ || (!predicted_.empty() && predicted_[static_cast<std::size_t>(arm)] <=
                                                    (1.0 + tie_) * predicted_[static_cast<std::size_t>(queue_.front())]);
    first_trial_ = false;
    ++served_;
    return {arm, !predicted_best, true};
  }
  if (!untried_.empty()) {
    if (const int arm = promising_untried(book); arm >= 0) {
      ++served_;
      return {arm};
    }
  }
  if (second_looks_left_ > 0) {
    if (const int arm = second_look(book); arm >= 0) {
      ++served_;
      return {arm};
    }
  }
  if (recheck_first_) {
    // The sweep's first trial ran right after the warm-up, often still cold
    // (page faults, caches, frequency ramp): try that arm once more, so that
    // a cold sample cannot bury it.
    recheck_first_ = false;
    const int first = queue_.front();
    if (book.size() > 1 && !book[first].retired) return {first};
  }
  return {};
}

bool TrialPlan::exhausted() const noexcept {
  return queue_next_ >= queue_.size() && untried_.empty() && second_looks_left_ == 0 && !recheck_first_;
}

void TrialPlan::queue(std::vector<int> arms) {
  queue_ = std::move(arms);
  queue_next_ = 0;
  served_ = 0;
  ranked_at_ = 0;  // a queue resumed from the store: due as soon as the loop's history allows
}

void TrialPlan::abandon() {
  drop();
  shortlist_.clear();
  first_trial_ = false;
}

void TrialPlan::drop() {
  queue_.clear();
  queue_next_ = 0;
  untried_.clear();
  second_looks_left_ = 0;
}

bool TrialPlan::predicted_equal(const ArmBook& book, int x, int y) const {
  if (!has_predictions(book.size())) return false;
  return book.tie_predicted(predicted_[static_cast<std::size_t>(x)], predicted_[static_cast<std::size_t>(y)]);
}

bool TrialPlan::check_first_trial(int arm, double time_ns) {
  first_trial_arm = -1;
  const double predicted = arm < static_cast<int>(predicted_.size()) ? predicted_[static_cast<std::size_t>(arm)] : 0.0;
  if (first_profile.empty() || !(predicted > 0) || !std::isfinite(predicted) || time_ns >= reprofile_ * predicted) {
    first_profile = {};  // the profile held: the ranking stands
    return false;
  }
  // The trial ran far below what the profile predicts: the profiling
  // instance (the process's first or second) paid for a cold start. Unevenly, it misranked the arms; evenly, the
  // ranking was right and one profiling instance is spent for nothing. The
  // check cannot tell the two apart. Profile again; the trial's sample stays.
  reprofiled = true;
  drop();
  return true;
}

int TrialPlan::promising_untried(const ArmBook& book) {
  const int best = book.best();
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
  std::vector<double>& logs = logs_;  // kept from the start: learning allocates nothing on the program's threads
  logs.clear();
  for (int a = 0; a < book.size() && a < static_cast<int>(predicted_.size()); ++a) {
    const double p = predicted_[static_cast<std::size_t>(a)];
    if (book[a].all.count > 0 && std::isfinite(p) && p > 0) logs.push_back(std::log(book[a].all.mean / p));
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
    if (hope < (1.0 - tie_) * book[best].all.mean) {
      untried_.erase(untried_.begin());
      ++extra_trials_;
      return next;
    }
  }
  untried_.clear();
  return -1;
}

bool TrialPlan::owed_second_look(const ArmBook& book, int arm, int best) const {
  const ArmState& a = book[arm];
  return second_looks_left_ > 0 && arm != best && !a.retired && a.all.count == 1 &&
         a.all.mean <= (1.0 + 2.0 * margin_) * book[best].all.mean;
}

int TrialPlan::second_look(const ArmBook& book) {
  // One sample cannot tell a noisy arm's unlucky instance from its level
  // (adaptive techniques across ranks swing by 20% from one instance to the
  // next), and Thompson sampling on a single sample rarely returns to an arm
  // that measured a few percent worse than a steady one. So the tried arms
  // whose one sample lies within twice the trial margin of the best get a
  // second sample, the closest first, at most two per ranking.
  const int best = book.best();
  int pick = -1;
  for (int i = 0; best >= 0 && i < book.size(); ++i) {
    if (owed_second_look(book, i, best) && (pick < 0 || book[i].all.mean < book[pick].all.mean)) pick = i;
  }
  if (pick < 0) {
    second_looks_left_ = 0;
  } else {
    --second_looks_left_;
  }
  return pick;
}

}  // namespace autosched::autoselect
