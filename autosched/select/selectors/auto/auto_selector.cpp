#include <autosched/core/decision_path.hpp>
#include <autosched/select/selectors/auto/auto_selector.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace autosched {

using autoselect::ArmState;
using autoselect::RegimeBook;

namespace {
/// The arms of a selector that knows them only by index. At namespace
/// scope, not a function's static: loop_arms() runs at every decision and
/// needs no initialisation guard.
const Portfolio no_arms;
}  // namespace

autosched::detail::AutoSelector::AutoSelector(int arms, AutoConfig config)
    : rng_(config.seed),
      config_(config),
      book_(arms, config),
      plan_(arms, config),
      warmup_left_(std::max(0, config.warmup)) {}

autosched::detail::AutoSelector::AutoSelector(const Portfolio& loop_arms, AutoConfig config)
    : autosched::detail::AutoSelector(share_portfolio(loop_arms), config) {}

autosched::detail::AutoSelector::AutoSelector(std::shared_ptr<const SharedPortfolio> shared, AutoConfig config)
    : autosched::detail::AutoSelector(static_cast<int>(shared->arms.size()), config) {
  shared_arms_ = std::move(shared);
  if (!loop_arms().empty()) phase_ = Phase::profile;
  first_ = autoselect::FirstInstances(static_cast<int>(loop_arms().size()));
  first_pending_ = !loop_arms().empty() && config_.safe_first;
}

const Portfolio& autosched::detail::AutoSelector::loop_arms() const noexcept {
  return shared_arms_ != nullptr ? shared_arms_->arms : no_arms;
}

Decision autosched::detail::AutoSelector::guarded(int arm, bool exploring) const {
  Decision d{arm, 0, -1, exploring};
  const int best = book_.best();
  if (best >= 0 && best != arm) {
    d.budget_ns = config_.guard * book_[best].all.mean * trip_ratio(chosen_n_, reference_n_);  // at this N
    d.fallback = best;
  }
  return d;
}

AUTOSCHED_DECISION_PATH Decision autosched::detail::AutoSelector::choose(const Context& context) {
  last_was_trial_ = false;
  if (settled_.active()) {
    Decision d = settled_.choose(rng_, config_);
    if (d.budget_ns > 0) d.budget_ns *= trip_ratio(context.n, reference_n_);  // at this N
    return d;
  }
  chosen_n_ = context.n;
  switch (phase_) {
    case Phase::resume:
      // The first instance after a warm start exploits what the last run
      // learned. With loop arms its first instances tell whether this is
      // the loop the store knows (verify).
      phase_ = loop_arms().empty() ? Phase::trials : Phase::verify;
      if (const int best = book_.best(); best >= 0) {
        if (rescale_first_) {
          level_.begin(best, book_[best].all.mean, 1);  // learn() rescales with its instance
          phase_ = Phase::verify;
        } else if (!loop_arms().empty() && regimes_.unsteady()) {
          phase_ = Phase::trials;  // it keeps changing: no level to verify, the robust arms run on
        } else if (!loop_arms().empty() && (profile_first_ || regimes_.phased())) {
          // Which phase is this (or, from another size, is it the same
          // shape)? The stored best's level cannot tell; one profile can.
          profile_first_ = false;
          level_.begin(best, book_[best].all.mean, 0);
          level_.compare_profile = true;
          phase_ = Phase::profile;
          return choose(context);
        } else if (!loop_arms().empty()) {
          level_.begin(best, book_[best].all.mean, config_.verify);
        }
        return guarded(best, false);
      }
      phase_ = Phase::trials;
      rescale_first_ = false;
      [[fallthrough]];
    case Phase::verify:
      if (level_.pending() && level_.arm >= 0 && !book_[level_.arm].retired) return guarded(level_.arm, false);
      phase_ = Phase::trials;
      return choose(context);
    case Phase::profile:
      if (std::exchange(first_pending_, false)) {
        if (const auto pick = first_.pick(loop_arms(), config_.once_imbalance); pick.arm >= 0) {
          first_running_ = true;
          return Decision{pick.arm, 0, -1, pick.exploring};
        }
      }
      if (profileable(context)) {
        profile_workers_ = context.p;
        profile_n_ = context.n;
        Decision d{std::max(0, book_.best()), 0, -1, true};
        d.profile = true;
        return d;
      }
      phase_ = Phase::trials;  // too small to profile
      if (std::exchange(level_.compare_profile, false)) {
        forget_stored();  // nothing to compare the store with
        continue_trials_ = false;
      }
      if (!loop_arms().empty() && !plan_.ranked) {
        // Fewer iterations than two per worker: every arm hands each worker
        // at most a couple of iterations, and static does it without a
        // dispatch. Nothing to learn that is worth a sweep of the portfolio
        // (a blocked LU's last steps have one to three blocks).
        for (int a = 0; a < book_.size(); ++a) {
          const TechniqueSpec& spec = loop_arms()[static_cast<std::size_t>(a)];
          if (spec.technique == TechniqueId::static_ && spec.chunk == 0 && !spec.expert_chunk) {
            plan_.queue({a});
            break;
          }
        }
      }
      [[fallthrough]];
    case Phase::witness:
      if (level_.witness.arm >= 0 && !book_[level_.witness.arm].retired) return guarded(level_.witness.arm, true);
      phase_ = Phase::trials;  // no witness after all: the new ranking's trials
      [[fallthrough]];
    case Phase::trials:
      if (const int best = book_.best();
          best >= 0 && !plan_.due(resumed_instances_ + instances_) && !(book_[best].all.mean > profile_ns_)) {
        // The next trial is not due yet (AutoConfig::patience): the best
        // measured arm runs meanwhile, unless it ran slower than the profile
        // did. Then waiting repeats a bad arm (an affinity trial on uneven
        // sparse rows ran 1.6x the profile, four times over): the next
        // trial runs at once.
        return guarded(best, false);
      }
      if (const auto trial = plan_.next(book_); trial.arm >= 0) {
        last_was_trial_ = trial.from_queue;
        return guarded(trial.arm, trial.exploring);
      }
      phase_ = Phase::sample;
      [[fallthrough]];
    case Phase::sample:
      break;
  }
  if (book_.best() < 0) {  // every arm retired (the loop changed under us): start over
    reopen();
    return choose(context);
  }
  return draw();
}

Decision autosched::detail::AutoSelector::draw() {
  // Thompson sampling on the mean costs.
  const int best = book_.best();
  const double s = book_.spread();
  int pick = best;
  double lowest = std::numeric_limits<double>::infinity();
  double best_draw = lowest;
  for (int i = 0; i < book_.size(); ++i) {
    const ArmState& a = book_[i];
    if (a.retired || a.all.count == 0) continue;
    const double draw =
        a.all.mean * (1.0 + s * sum_of_twelve_normal(rng_) / std::sqrt(static_cast<double>(a.all.count)));
    if (i == best) best_draw = draw;
    if (draw < lowest) {
      lowest = draw;
      pick = i;
    }
  }
  // A draw that does not beat the best arm's by more than a tie is not
  // worth a switch (AutoConfig::stick).
  if (config_.stick && lowest > (1.0 - config_.tie) * best_draw) pick = best;
  // Reported as exploration only when the pick looks worse than the best by
  // more than a tie: rotating among equals costs nothing. With a prediction,
  // arms the simulator calls equal whose samples cannot tell them apart
  // (within two standard errors) are equals too.
  const bool worse =
      book_.counts_as_exploration(book_[pick].all, book_[best].all, plan_.predicted_equal(book_, pick, best), s);
  return guarded(pick, worse);
}

void autosched::detail::AutoSelector::prepare_settled() {
  settled_.deactivate();
  if (phase_ == Phase::verify && !level_.pending()) phase_ = Phase::trials;
  if (phase_ == Phase::trials && plan_.exhausted()) phase_ = Phase::sample;
  if (!config_.settled_path || phase_ != Phase::sample || teach_prior_) return;
  settled_.prepare(book_, plan_.predicted(), config_);
}

AUTOSCHED_DECISION_PATH void autosched::detail::AutoSelector::observe(const Decision& d, const Outcome& o) {
  if (o.n > 0 && o.n != reference_n_) {
    if (reference_n_ > 0) {
      Outcome scaled = o;
      scaled.time_ns *= trip_ratio(reference_n_, o.n);
      observe_at_reference(d, scaled);
      return;
    }
    reference_n_ = o.n;
  }
  observe_at_reference(d, o);
}

AUTOSCHED_DECISION_PATH void autosched::detail::AutoSelector::observe_at_reference(const Decision& d, const Outcome& o) {
  ++instances_;
  if (warmup_left_ == 0 && settled_.observe(d, o, book_, change_, !loop_arms().empty(),
                                            plan_.has_predictions(book_.size()), two_sided_changes(), config_)) {
    // Capped well below overflow; ahead_batch() clamps it anyway.
    steady_run_ = d.exploring ? 0 : std::min(steady_run_ + 1, 1 << 20);
    return;
  }
  steady_run_ = 0;
  learn(d, o);
  prepare_settled();
}

void autosched::detail::AutoSelector::learn(const Decision& d, const Outcome& o) {
  if (std::exchange(first_running_, false)) {
    // The process's first instance: a record across runs, no arm's sample
    // (it paid for the team's start and the first touches).
    first_.add(d.arm, o.time_ns, o.metrics.percent_imbalance);
    if (warmup_left_ > 0) --warmup_left_;
    return;
  }
  if (d.profile) {
    // The profiling technique ran, not arm d.arm: its time is nobody's sample.
    if (warmup_left_ > 0) --warmup_left_;
    learn_profile(o);
    return;
  }
  if (warmup_left_ > 0) {
    --warmup_left_;
    if (last_was_trial_) plan_.repeat_last();  // the trial said nothing about the arm: run it again
    return;
  }
  if (phase_ == Phase::witness && d.arm == level_.witness.arm) {
    // Its time is the verdict's, not a sample of the old level or the new
    // (cut short: it did not move with the checked arm).
    judge_witness(o.cut_short ? std::numeric_limits<double>::infinity() : o.time_ns);
    return;
  }
  if (o.cut_short) {
    book_[d.arm].retired = true;  // at least guard × slower than the best: not worth more samples
    if (change_.watched == d.arm) change_.watched = -1;
    return;
  }
  bool forgot = false;
  const double time = book_.clipped(d.arm, o.time_ns, forgot);
  if (forgot && change_.watched == d.arm) change_.watched = -1;
  if (rescale_first_ && level_.pending() && d.arm == level_.arm) {
    rescale_to(o.time_ns);
    return;
  }
  if (level_.pending() && d.arm == level_.arm) {
    // Kept apart until the verdict: they join the stored samples as they
    // are (the stored level), scaled to them (the same loop elsewhere), or
    // not at all (another loop).
    switch (level_.add(o.time_ns, book_.spread(), config_)) {
      case autoselect::LevelCheck::Verdict::pending:
        return;
      case autoselect::LevelCheck::Verdict::same_level: {  // the loop the store knows: exploit
        ArmState& best = book_[level_.arm];
        best.all.merge(level_.samples);
        best.session.merge(level_.samples);
        level_.arm = -1;
        phase_ = Phase::trials;
        return;
      }
      case autoselect::LevelCheck::Verdict::other_level:
        // With the stored predictions, the loop's profile tells whether it
        // is another loop (input, machine) or the same one in a slower or
        // faster process (on a shared node one process runs 10% above the
        // next); without them, the stored samples go.
        if (plan_.has_predictions(book_.size())) {
          level_.compare_profile = true;  // level_.arm and level_.samples are kept for it
        } else {
          forget_stored();
          plan_.drop();
        }
        phase_ = Phase::profile;
        return;
    }
  }
  learn_sample(d.arm, time);
}

void autosched::detail::AutoSelector::learn_profile(const Outcome& o) {
  phase_ = Phase::trials;
  const bool checking = std::exchange(level_.compare_profile, false);
  const CostProfile first = std::exchange(plan_.first_profile, CostProfile{});
  plan_.first_trial_arm = -1;
  if (o.profile != nullptr && !o.cut_short && !o.profile->empty()) {
    profile_ns_ = o.time_ns;
    std::vector<double> stored;
    if (checking) stored = plan_.predicted();
    CostProfile envelope;
    const CostProfile* ranked = o.profile;
    if (plan_.reprofiled && !first.empty()) {
      // The first profile was inflated somewhere: what both instances
      // agree the blocks cost at least.
      envelope = first.lower_envelope(*o.profile);
      ranked = &envelope;
      rank(envelope, profile_workers_);
    } else {
      const bool first_ranking = !plan_.ranked && !checking && config_.reprofile > 0;
      rank(*o.profile, profile_workers_);
      // The process's first ranking: its first trial tells whether the
      // profile paid for a cold start (TrialPlan::check_first_trial).
      if (first_ranking && !plan_.shortlist().empty()) plan_.first_profile = *o.profile;
    }
    if (checking) {
      compare_profile(stored, RegimeBook::shape_of(*ranked), at_reference(ranked->total_ns()));
    } else if (config_.phases) {
      regimes_.set_current(RegimeBook::shape_of(*ranked), at_reference(ranked->total_ns()));
    }
  } else if (checking) {
    alarm_profile_ = false;
    continue_trials_ = false;
    forget_stored();  // no profile after all: the stored samples do not describe this level
  } else if (plan_.reprofiled && !first.empty()) {
    rank(first, profile_workers_);  // the second profile failed: the first is all there is
    if (config_.phases) regimes_.set_current(RegimeBook::shape_of(first), at_reference(first.total_ns()));
  }
}

void autosched::detail::AutoSelector::learn_sample(int arm, double time) {
  ArmState& a = book_[arm];
  a.all.add(time);
  a.session.add(time);
  // The predictions are for the profile's trip count, the samples at the
  // reference one (a blocked LU runs its first trial at another N).
  const double per_profile_n = time * trip_ratio(profile_n_, reference_n_);
  if (arm == plan_.first_trial_arm && plan_.check_first_trial(arm, per_profile_n)) {
    phase_ = Phase::profile;
    teach_prior_ = false;  // that ranking's trials are abandoned: nothing to teach
  }
  if (!loop_arms().empty() && !plan_.queued()) {
    if (teach_prior_) {  // the shortlist's trials are in: what the simulator got wrong here
      teach_prior_ = false;
      // Read where the book keeps them: learning allocates nothing on the
      // program's threads (docs/dropin.md, "The heap").
      const auto& states = book_.states();
      prior_->learn_each(std::span<const std::string>(shared_arms_->labels), plan_.raw_predicted(), states.size(),
                         [&](std::size_t k) -> const RunningStats& { return states[k].all; });
    }
    eliminate();
  }
  // Change detection watches the best arm once it has settled in this run;
  // when another arm becomes the best, the watch moves to it.
  if (change_.observe(arm, book_.best(), a.session, time, config_, [&] { return book_.spread(true); },
                     two_sided_changes())) {
    reopen();
  }
}

void autosched::detail::AutoSelector::reopen() {
  ++changes_;
  if (regimes_.unsteady()) {
    // It keeps changing: the robust arms run on whatever the test says.
    change_.reset();
    change_.drift = {};
    return;
  }
  if (!loop_arms().empty() && plan_.has_predictions(book_.size()) && change_.watched >= 0 && change_.drift.count > 0) {
    // Did the loop change, or the process around it? On a shared node a
    // whole process runs 10-20% slower for seconds at a time, which the test
    // cannot tell from a change of the loop. One profile can: the same shape
    // keeps every sample, moved to the level the drifting samples show (no
    // trials); another shape forgets them and its ranking's trials run.
    level_.arm = change_.watched;
    level_.samples = change_.drift;
    level_.samples_counted = true;  // the drifting samples are in the arm's statistics already
    level_.compare_profile = true;
    level_.left = 0;
    phase_ = Phase::profile;
    alarm_profile_ = true;  // its verdict backs the test off or restores it
    change_.reset();
    change_.drift = {};
    plan_.drop_untried();
    return;
  }
  // The old samples describe the loop before the change: keep only their
  // order, so the sweep meets the likely-good arms first and its guards
  // tighten early.
  for (ArmState& a : book_.states()) {
    const double prior = a.all.count > 0 && !a.retired ? a.all.mean : std::numeric_limits<double>::infinity();
    a = ArmState{{}, {}, false, prior};
  }
  // Ties keep arm order. Not std::stable_sort: it takes a temporary buffer,
  // and a steady loop must not allocate when its change test fires.
  plan_.sweep(book_.size(), [&](int x, int y) {
    const double px = book_[x].prior, py = book_[y].prior;
    return px < py || (px == py && x < y);
  });
  change_.reset();
  // With loop arms the sweep above is only the fallback: the loop is profiled
  // again and the ranking replaces it.
  phase_ = loop_arms().empty() ? Phase::trials : Phase::profile;
  level_.left = 0;
}

void autosched::detail::AutoSelector::rank(const CostProfile& profile, int workers) {
  if (!plan_.rank(loop_arms(), profile, workers, prior_)) return;  // nothing predicted: the sweep stays
  plan_.ranked_at(resumed_instances_ + instances_);
  teach_prior_ = prior_ != nullptr;
  phase_ = Phase::trials;
}

void autosched::detail::AutoSelector::eliminate() {
  const int best = book_.best();
  if (best < 0) return;
  const RunningStats& b = book_[best].all;
  if (b.count < 1) return;
  const double s = book_.spread();
  for (int i = 0; i < book_.size(); ++i) {
    ArmState& a = book_[i];
    if (i != best && !a.retired && book_.measured_worse(a.all, b, s)) a.retired = true;
  }
  // Two independent witnesses: an arm the simulator predicted worse than the
  // best by more than a tie, and whose trial measured it worse too, is not
  // worth more samples.
  if (!plan_.has_predictions(book_.size())) return;
  const std::vector<double>& predicted = plan_.predicted();
  for (int i = 0; i < book_.size(); ++i) {
    ArmState& a = book_[i];
    if (i == best || a.retired || a.all.count < 1 || plan_.owed_second_look(book_, i, best)) continue;
    if (book_.twice_worse(predicted[static_cast<std::size_t>(i)], predicted[static_cast<std::size_t>(best)], a.all, b)) {
      a.retired = true;
    }
  }
}

bool autosched::detail::AutoSelector::profileable(const Context& context) {
  return context.p >= 1 && context.n >= 2 * static_cast<std::int64_t>(context.p);
}

std::string autosched::detail::AutoSelector::summary() const {
  if (phase_ == Phase::profile) return level_.compare_profile ? "profile (warm start)" : "profile";
  if (level_.pending()) return "verify " + std::to_string(level_.arm);
  if (plan_.queued() && !loop_arms().empty()) {  // a ranking's trials, or the ones a neighbour left
    return "trial " + std::to_string(plan_.queue_position()) + "/" + std::to_string(plan_.queue_size());
  }
  if (plan_.queued()) return "sweep " + std::to_string(plan_.queue_position()) + "/" + std::to_string(book_.size());
  return "best " + std::to_string(book_.best());
}

}  // namespace autosched
