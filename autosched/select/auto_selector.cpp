#include <autosched/select/auto_selector.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <sstream>

namespace autosched {

AutoSelector::AutoSelector(int arms, AutoConfig config)
    : arms_(static_cast<std::size_t>(std::max(1, arms))), config_(config), rng_(config.seed) {
  queue_.resize(arms_.size());
  std::iota(queue_.begin(), queue_.end(), 0);
}

int AutoSelector::best_arm() const {
  int best = -1;
  for (int i = 0; i < static_cast<int>(arms_.size()); ++i) {
    const ArmState& a = arms_[static_cast<std::size_t>(i)];
    if (a.retired || a.count == 0) continue;
    if (best < 0 || a.mean < arms_[static_cast<std::size_t>(best)].mean) best = i;
  }
  return best;
}

double AutoSelector::relative_spread() const {
  double sum = 0;
  long dof = 0;
  for (const ArmState& a : arms_) {
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
    d.budget_ns = config_.guard * arms_[static_cast<std::size_t>(best)].mean;
    d.fallback = best;
  }
  return d;
}

Decision AutoSelector::choose(const Context&) {
  while (queue_next_ < queue_.size() && arms_[static_cast<std::size_t>(queue_[queue_next_])].retired) ++queue_next_;
  if (queue_next_ < queue_.size()) return guarded(queue_[queue_next_++], true);

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
    if (a.retired || a.count == 0) continue;
    const double draw = a.mean * (1.0 + s * z(rng_) / std::sqrt(static_cast<double>(a.count)));
    if (draw < lowest) {
      lowest = draw;
      pick = i;
    }
  }
  return guarded(pick, pick != best);
}

void AutoSelector::reopen() {
  ++changes_;
  // The old samples describe the loop before the change: keep only their
  // order, so the sweep meets the likely-good arms first and its guards
  // tighten early.
  for (ArmState& a : arms_) {
    const double prior = a.count > 0 && !a.retired ? a.mean : std::numeric_limits<double>::infinity();
    a = ArmState{0, 0, 0, false, prior};
  }
  std::stable_sort(queue_.begin(), queue_.end(), [&](int x, int y) {
    return arms_[static_cast<std::size_t>(x)].prior < arms_[static_cast<std::size_t>(y)].prior;
  });
  queue_next_ = 0;
  watched_ = -1;
  excess_ = 0;
}

void AutoSelector::observe(const Decision& d, const Outcome& o) {
  ArmState& a = arms_[static_cast<std::size_t>(d.arm)];
  if (o.cut_short) {
    a.retired = true;  // at least guard × slower than the best: not worth more samples
    return;
  }
  ++a.count;
  const double delta = o.time_ns - a.mean;
  a.mean += delta / static_cast<double>(a.count);
  a.m2 += delta * (o.time_ns - a.mean);

  // Change detection watches the best arm once it has settled.
  if (watched_ < 0 && d.arm == best_arm() && a.count >= config_.settle) {
    watched_ = d.arm;
    reference_ = a.mean;
    spread_ = relative_spread();
    excess_ = 0;
  }
  if (d.arm != watched_) return;
  excess_ = std::max(0.0, excess_ + (o.time_ns / reference_ - 1.0) / spread_ - config_.change_slack);
  if (excess_ > config_.change_threshold) reopen();
}

std::string AutoSelector::save_state() const {
  if (sweeping()) return {};  // only settled knowledge is worth resuming
  std::ostringstream out;
  out.precision(17);
  out << "auto3 " << arms_.size();
  for (const ArmState& a : arms_) out << ' ' << a.count << ' ' << a.mean << ' ' << a.m2 << ' ' << a.retired;
  return out.str();
}

bool AutoSelector::load_state(std::string_view state) {
  std::istringstream in{std::string(state)};
  std::string tag;
  std::size_t arms = 0;
  if (!(in >> tag >> arms) || tag != "auto3" || arms != arms_.size()) return false;
  std::vector<ArmState> loaded(arms);
  bool any = false;
  for (ArmState& a : loaded) {
    in >> a.count >> a.mean >> a.m2 >> a.retired;
    any = any || (a.count > 0 && !a.retired);
  }
  if (!in || !any) return false;
  arms_ = std::move(loaded);
  queue_next_ = queue_.size();  // no sweep: the stored samples stand in for it
  watched_ = -1;
  return true;
}

std::string AutoSelector::summary() const {
  if (sweeping()) return "sweep " + std::to_string(queue_next_) + "/" + std::to_string(arms_.size());
  return "best " + std::to_string(best_arm());
}

}  // namespace autosched
