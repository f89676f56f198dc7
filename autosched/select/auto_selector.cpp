#include <autosched/select/auto_selector.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <sstream>

namespace autosched {

AutoSelector::AutoSelector(int arms, AutoConfig config)
    : arms_(static_cast<std::size_t>(std::max(1, arms))),
      config_(config),
      rng_(config.seed),
      warmup_left_(std::max(0, config.warmup)) {
  queue_.resize(arms_.size());
  std::iota(queue_.begin(), queue_.end(), 0);
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

double AutoSelector::relative_spread(bool session_only) const {
  double sum = 0;
  long dof = 0;
  for (const ArmState& arm : arms_) {
    const RunningStats& a = session_only ? arm.session : arm.all;
    if (a.count >= 2 && a.mean > 0) {
      sum += a.m2 / (a.mean * a.mean);  // (n−1) · relative variance
      dof += a.count - 1;
    }
  }
  const double measured = dof > 0 ? std::sqrt(sum / static_cast<double>(dof)) : 0.0;
  return std::max(measured, config_.noise_floor);
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

Decision AutoSelector::choose(const Context&) {
  if (resumed_) {
    // The first instance after a warm start exploits what the last run
    // learned; sampling (or the rest of an unfinished sweep) follows.
    resumed_ = false;
    last_from_sweep_ = false;
    if (const int best = best_arm(); best >= 0) return guarded(best, false);
  }
  while (queue_next_ < queue_.size() && arms_[static_cast<std::size_t>(queue_[queue_next_])].retired) ++queue_next_;
  last_from_sweep_ = queue_next_ < queue_.size();
  if (last_from_sweep_) return guarded(queue_[queue_next_++], true);
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
    return choose(Context{});
  }
  // Thompson sampling on the mean costs.
  const double s = relative_spread();
  std::normal_distribution<double> z(0.0, 1.0);
  int pick = best;
  double lowest = std::numeric_limits<double>::infinity();
  for (int i = 0; i < static_cast<int>(arms_.size()); ++i) {
    const ArmState& a = arms_[static_cast<std::size_t>(i)];
    if (a.retired || a.all.count == 0) continue;
    const double draw = a.all.mean * (1.0 + s * z(rng_) / std::sqrt(static_cast<double>(a.all.count)));
    if (draw < lowest) {
      lowest = draw;
      pick = i;
    }
  }
  // Reported as exploration only when the pick looks worse than the best by
  // more than a tie: rotating among equals costs nothing.
  const double best_mean = arms_[static_cast<std::size_t>(best)].all.mean;
  return guarded(pick, arms_[static_cast<std::size_t>(pick)].all.mean > (1.0 + config_.tie) * best_mean);
}

void AutoSelector::reopen() {
  ++changes_;
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
}

void AutoSelector::observe(const Decision& d, const Outcome& o) {
  ArmState& a = arms_[static_cast<std::size_t>(d.arm)];
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
  a.all.add(time);
  a.session.add(time);

  // Change detection watches the best arm once it has settled in this run;
  // when another arm becomes the best, the watch moves to it.
  const int best = best_arm();
  if (watched_ >= 0 && watched_ != best) watched_ = -1;
  if (watched_ < 0 && d.arm == best && a.session.count >= config_.settle) {
    watched_ = d.arm;
    reference_ = a.session.mean;
    spread_ = relative_spread(true);
    excess_ = 0;
  }
  if (d.arm != watched_) return;
  const double z = std::min((time / reference_ - 1.0) / spread_, config_.change_cap);
  excess_ = std::max(0.0, excess_ + z - config_.change_slack);
  if (excess_ > config_.change_threshold) reopen();
}

std::string AutoSelector::save_state() const {
  // Arms without samples (a sweep cut off by the end of the run) are swept
  // by the run that loads this.
  if (best_arm() < 0) return {};
  std::ostringstream out;
  out.precision(17);
  out << "auto3 " << arms_.size();
  for (const ArmState& a : arms_) {
    out << ' ' << a.all.count << ' ' << a.all.mean << ' ' << a.all.m2 << ' ' << a.retired;
  }
  return out.str();
}

bool AutoSelector::load_state(std::string_view state) {
  std::istringstream in{std::string(state)};
  std::string tag;
  std::size_t arms = 0;
  if (!(in >> tag >> arms) || tag != "auto3" || arms != arms_.size()) return false;
  std::vector<ArmState> loaded(arms);
  for (ArmState& a : loaded) {
    if (!(in >> a.all.count >> a.all.mean >> a.all.m2 >> a.retired)) return false;
  }
  std::string rest;
  if (in >> rest) return false;
  return resume(std::move(loaded));
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
                                              std::isfinite(a.all.mean) && a.all.mean > 0 &&
                                              std::isfinite(a.all.m2) && a.all.m2 >= 0;
    if (!valid) return false;
    any = any || (a.all.count > 0 && !a.retired);
  }
  if (!any) return false;
  arms_ = std::move(arms);
  // No sweep: the stored samples stand in for it, except for arms the last
  // run did not reach.
  queue_.clear();
  for (int i = 0; i < static_cast<int>(arms_.size()); ++i) {
    if (arms_[static_cast<std::size_t>(i)].all.count == 0 && !arms_[static_cast<std::size_t>(i)].retired) {
      queue_.push_back(i);
    }
  }
  queue_next_ = 0;
  watched_ = -1;
  resumed_ = true;
  recheck_first_ = false;
  return true;
}

std::string AutoSelector::summary() const {
  if (sweeping()) return "sweep " + std::to_string(queue_next_) + "/" + std::to_string(arms_.size());
  return "best " + std::to_string(best_arm());
}

}  // namespace autosched
