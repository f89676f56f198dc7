// AutoSelector, when a profile asked for by a level mismatch or a change
// alarm is in: the same loop at another level, another phase (archived,
// brought back, or new), or a witness to tell the two apart
// (docs/design/0006-auto-on-real-codes.md). The selector's choose/observe
// are in select/selectors/auto/auto_selector.cpp; its state across runs in warm_start.cpp.
#include <autosched/select/selectors/auto/auto_selector.hpp>

#include <cmath>
#include <limits>
#include <utility>
#include <vector>

namespace autosched {

using autoselect::ArmState;
using autoselect::RegimeBook;

void autosched::detail::AutoSelector::compare_profile(const std::vector<double>& stored, std::vector<double> shape, double level) {
  const bool same_shape = !config_.phases || regimes_.current_shape().empty() ||
                          RegimeBook::distance(shape, regimes_.current_shape()) <= config_.shape;
  const bool same_predictions = level_.same_loop(plan_.predicted(), stored, config_);
  if (same_shape && same_predictions) {
    same_loop_elsewhere(level);
    return;
  }
  if (!same_shape && same_predictions && regimes_.find(shape, config_.shape) < 0) {
    // Another shape, yet the arms rank as before: a loop whose work moved
    // along its iterations (a zooming view) but whose best arm did not, or
    // a phase whose best arm differs by what the simulator does not see.
    // The runner-up tells: it moves with the checked arm only in the first.
    int runner = -1;
    for (int a = 0; a < book_.size(); ++a) {
      const ArmState& arm = book_[a];
      if (a == level_.arm || arm.retired || arm.all.count == 0) continue;
      if (runner < 0 || arm.all.mean < book_[runner].all.mean) runner = a;
    }
    if (runner >= 0) {
      level_.witness = {runner, book_[runner].all.mean, stored, std::move(shape), level};
      phase_ = Phase::witness;
      return;
    }
  }
  another_phase(stored, std::move(shape), level);
}

void autosched::detail::AutoSelector::judge_witness(double time) {
  autoselect::LevelCheck::Witness w = std::move(level_.witness);
  level_.witness.arm = -1;
  phase_ = Phase::trials;
  const ArmState& best = book_[level_.arm];
  const double ratio = level_.samples.count > 0 ? level_.samples.mean / best.all.mean
                       : regimes_.current_level() > 0 ? w.level / regimes_.current_level()
                                                      : 1.0;
  if (level_.witness_agrees(time, ratio, config_) || !config_.phases) {
    same_loop_elsewhere(w.level);
    if (config_.phases) regimes_.set_current(std::move(w.shape), w.level);  // this shape is the loop's now
    return;
  }
  another_phase(w.predicted, std::move(w.shape), w.level);
}

void autosched::detail::AutoSelector::same_loop_elsewhere(double level) {
  // The same loop, in a process at another level: no trials. Every sample
  // is scaled by what the checked arm measures now (the warm start's verify
  // instances, or the instances that raised the change test) over its mean,
  // or, with none (a profile first), by the profiles' levels, so that new
  // samples and the old ones compare on one level, and the best arm runs on.
  // A neighbour's state adopted mid-trials: this size's shortlist, less
  // the arms the neighbour measured (their samples, scaled below, stand).
  std::vector<int> untried;
  if (std::exchange(continue_trials_, false)) {
    for (const int a : plan_.shortlist()) {
      if (book_[a].all.count == 0 && !book_[a].retired) untried.push_back(a);
    }
  }
  plan_.abandon();
  teach_prior_ = false;
  if (!untried.empty()) plan_.queue(std::move(untried));
  // A change alarm that found the loop it had (a steady drift, a slower
  // process): the next alarm needs twice the evidence.
  if (std::exchange(alarm_profile_, false)) change_.back_off();
  ArmState& best = book_[level_.arm];
  const double previous = regimes_.current_level();
  if (level_.samples.count > 0) {
    book_.scale(level_.samples.mean / best.all.mean);
  } else if (previous > 0 && level > 0) {
    book_.scale(level / previous);
  }
  if (!std::exchange(level_.samples_counted, false)) {
    best.all.merge(level_.samples);
    best.session.merge(level_.samples);
  }
  level_.arm = -1;
  // The regime keeps the shape it began with (a slow drift adds up to
  // another phase) and takes the level its samples now have.
  if (config_.phases) regimes_.set_current(regimes_.current_shape(), level);
}

void autosched::detail::AutoSelector::another_phase(const std::vector<double>& stored, std::vector<double> shape, double level) {
  continue_trials_ = false;  // another shape: the new ranking's trials run whole
  const bool after_alarm = std::exchange(alarm_profile_, false);
  const int best_before = book_.best();
  if (!config_.phases) {
    change_.restore_threshold();
    forget_stored();  // another input or machine: the ranking just made stands
    return;
  }
  if (best_before >= 0) regimes_.archive(stored, book_);  // what the phase that ends learned
  forget_stored();
  regimes_.set_current(std::move(shape), level);
  if (const int r = regimes_.find(regimes_.current_shape(), config_.shape); r >= 0) {
    restore(regimes_.take(r), level);  // a phase seen before: what it learned, no trials
    // A loop that cycles through shapes it has seen (a zooming image) and
    // keeps its best arm through them: the alarm changed nothing that runs,
    // and the next one needs twice the evidence. A phase that brings
    // another arm back makes alarms worth believing again.
    if (after_alarm && best_before >= 0 && book_.best() == best_before) {
      change_.back_off();
    } else {
      change_.restore_threshold();
    }
    return;
  }
  change_.restore_threshold();  // a new phase: alarms are believed again
  if (regimes_.changed_at(instances_)) {
    // A new shape again, soon after the last: the loop changes faster than
    // trials can follow it. The arms good over every shape seen are tried
    // once each, then sampled, and the change test no longer re-profiles.
    if (plan_.rank_robust(loop_arms(), regimes_.robust_scores(plan_.predicted()))) teach_prior_ = false;
  }
  // Otherwise a new phase: the ranking just made stands, its trials run.
}

void autosched::detail::AutoSelector::rescale_to(double time_ns) {
  rescale_first_ = false;
  ArmState& best = book_[level_.arm];
  const double factor = time_ns / best.all.mean;
  level_.clear();
  if (std::isfinite(factor) && factor > 0) {
    book_.scale(factor);
    if (config_.phases && regimes_.current_level() > 0) {
      regimes_.set_current(regimes_.current_shape(), factor * regimes_.current_level());
    }
  }
  best.all.add(time_ns);
  best.session.add(time_ns);
  phase_ = Phase::trials;  // the neighbour's pending trials, if any, then sampling
}

void autosched::detail::AutoSelector::restore(autoselect::Regime regime, double level) {
  book_.states() = std::move(regime.arms);
  if (regime.profile_ns > 0 && level > 0) book_.scale(level / regime.profile_ns);
  plan_.abandon();
  teach_prior_ = false;
}

void autosched::detail::AutoSelector::forget_stored() {
  level_.clear();
  book_.clear();
  change_.reset();
}

}  // namespace autosched
