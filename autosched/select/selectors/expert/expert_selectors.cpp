// RandomSel, ExhaustiveSel, BinarySel and ExpertSel: Auto4OMP's expert methods.
#include <autosched/select/selectors/expert/binary_selector.hpp>
#include <autosched/select/selectors/expert/exhaustive_selector.hpp>
#include <autosched/select/selectors/expert/expert_selector.hpp>
#include <autosched/select/selectors/expert/fuzzy_rules.hpp>
#include <autosched/select/selectors/expert/random_selector.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace autosched {

// ------------------------------------------------------------------ RandomSel

Decision RandomSelector::choose(const Context&) {
  std::uniform_real_distribution<double> u(0.0, 1.0);
  const double jump_probability = last_lib_ / 10.0;  // LIB in % → LIB/10
  const bool jump = !started_ || jump_probability > u(rng_);
  if (jump) current_ = static_cast<int>(std::uniform_int_distribution<int>(0, arms_ - 1)(rng_));
  started_ = true;
  return {current_, 0, -1, jump};
}

void RandomSelector::observe(const Decision&, const Outcome& outcome) { last_lib_ = outcome.metrics.lib; }

std::string RandomSelector::summary() const { return "arm " + std::to_string(current_); }

// -------------------------------------------------------------- ExhaustiveSel

Decision ExhaustiveSelector::choose(const Context&) {
  if (next_trial_ < arms_) return {next_trial_++, 0, -1, true};
  return {best_, 0, -1, false};
}

void ExhaustiveSelector::observe(const Decision& decision, const Outcome& outcome) {
  if (decision.exploring) {
    if (best_ < 0 || outcome.time_ns < best_time_) {
      best_ = decision.arm;
      best_time_ = outcome.time_ns;
      best_lib_ = outcome.metrics.lib;
    }
    return;
  }
  const bool imbalance_rose = outcome.metrics.lib > best_lib_ + lib_rise_;
  const bool time_drifted = std::abs(outcome.time_ns - best_time_) > drift_ * best_time_;
  if (imbalance_rose || time_drifted) {
    next_trial_ = 0;
    best_ = -1;  // a re-search starts from nothing: the old best's time is stale
    ++searches_;
  }
}

std::string ExhaustiveSelector::save_state() const {
  if (next_trial_ < arms_) return {};  // mid-search: nothing settled to keep
  char buf[160];
  std::snprintf(buf, sizeof buf, "exhaustive1 %d %d %.17g %.17g", arms_, best_, best_time_, best_lib_);
  return buf;
}

bool ExhaustiveSelector::load_state(std::string_view state) {
  std::istringstream in{std::string(state)};
  std::string tag;
  int arms = 0, best = -1;
  double time = 0, lib = 0;
  if (!(in >> tag >> arms >> best >> time >> lib) || tag != "exhaustive1" || arms != arms_ || best < 0 ||
      best >= arms_) {
    return false;
  }
  best_ = best;
  best_time_ = time;
  best_lib_ = lib;
  next_trial_ = arms_;
  return true;
}

std::string ExhaustiveSelector::summary() const {
  return next_trial_ < arms_ ? "search " + std::to_string(next_trial_) : "exploit " + std::to_string(best_);
}

// ----------------------------------------------------------------- BinarySel

Decision BinarySelector::choose(const Context&) {
  if (stopped_) return {current_, 0, -1, false};
  const int step = (2 * arms_) >> std::min(trials_, 30);
  if (step == 0) {
    stopped_ = true;
    return {std::max(current_, 0), 0, -1, false};
  }
  const bool up = trials_ == 0 || last_lib_ > previous_lib_;
  current_ = std::clamp(current_ + (up ? step : -step), 0, arms_ - 1);
  previous_lib_ = last_lib_;
  ++trials_;
  return {current_, 0, -1, true};
}

void BinarySelector::observe(const Decision&, const Outcome& outcome) { last_lib_ = outcome.metrics.lib; }

std::string BinarySelector::summary() const { return (stopped_ ? "kept " : "step ") + std::to_string(current_); }

// ----------------------------------------------------------------- ExpertSel

int ExpertSelector::initial_arm(double time_ms, double lib) {
  using namespace fuzzy;
  const double t = time_ms / 1000.0;
  const double simple = std::max(short_time(t), low_lb(lib));
  const double moderate = std::max({std::min(medium_time(t), high_lb(lib)), std::min(medium_time(t), moderate_lb(lib)),
                                    std::min(long_time(t), moderate_lb(lib))});
  const double aggressive = std::min(high_lb(lib), long_time(t));
  const double a_agg = area_aggressive * aggressive, a_mod = area_moderate * moderate, a_sim = area_simple * simple;
  const double total = a_agg + a_mod + a_sim;
  if (total <= 0) return 0;
  const double dls =
      weight_aggressive * a_agg / total + weight_moderate * a_mod / total + weight_not_simple * (1.0 - a_sim / total);
  return std::clamp(static_cast<int>(std::floor(dls)), 0, 11);
}

double ExpertSelector::arm_change(double time_ms, double previous_time_ms, double lib, double previous_lib) {
  using namespace fuzzy;
  if (!std::isfinite(time_ms) || !std::isfinite(previous_time_ms) || !std::isfinite(lib) ||
      !std::isfinite(previous_lib)) {
    return 0.0;  // nothing sensible to reason about: keep the arm
  }
  const double t = time_ms / 1000.0;
  const double dt = time_ms > 0 ? (time_ms - previous_time_ms) / time_ms * 100.0 : 0.0;
  const double dlb = lib - previous_lib;
  const double same = std::max({std::min(unchanged_time(dt), unchanged_lb(dlb)), low_lb(lib), improved_time(dt)});
  const double more = std::max({std::min(high_lb(lib), long_time(t)), std::min(degraded_time(dt), degraded_lb(dlb)),
                                std::min(unchanged_time(dt), degraded_lb(dlb))});
  const double less = std::max(
      {std::min(degraded_time(dt), improved_lb(dlb)), std::min(degraded_time(dt), unchanged_lb(dlb)),
       std::min(unchanged_time(dt), improved_lb(dlb)), short_time(t), std::min(degraded_time(dt), low_lb(lib))});
  const double a_less = area_less * less, a_same = area_same * same, a_more = area_more * more;
  const double total = a_less + a_same + a_more;
  if (!(total > 0)) return 0.0;  // every membership 0 (the code divides 0 by 0): keep the arm
  return step_scale * (a_more - a_less) / total;
}

Decision ExpertSelector::choose(const Context&) {
  const int before = current_;
  if (instances_ == 1) {
    current_ = initial_arm(time_ms_, lib_);
  } else if (instances_ >= 2) {
    current_ = static_cast<int>(std::lround(current_ + arm_change(time_ms_, previous_time_ms_, lib_, previous_lib_)));
  }
  current_ = std::clamp(current_, 0, arms_ - 1);
  return {current_, 0, -1, instances_ < 2 || current_ != before};  // moving counts as exploring
}

void ExpertSelector::observe(const Decision&, const Outcome& outcome) {
  previous_time_ms_ = time_ms_;
  previous_lib_ = lib_;
  time_ms_ = outcome.time_ns / 1e6;
  lib_ = outcome.metrics.lib;
  ++instances_;
}

std::string ExpertSelector::summary() const { return "arm " + std::to_string(current_); }

}  // namespace autosched
