#include <autosched/core/decision_path.hpp>
#include <autosched/select/selectors/auto/arm_book.hpp>

#include <algorithm>
#include <cmath>
#include <istream>
#include <limits>
#include <ostream>

namespace autosched::autoselect {

ArmBook::ArmBook(int arms, const AutoConfig& config)
    : arms_(static_cast<std::size_t>(std::max(1, arms))),
      tie_(config.tie),
      noise_floor_(config.noise_floor),
      clip_(config.clip) {}

int ArmBook::best() const {
  int best = -1;
  for (int i = 0; i < size(); ++i) {
    const ArmState& a = (*this)[i];
    if (a.retired || a.all.count == 0) continue;
    if (best < 0 || a.all.mean < (*this)[best].all.mean) best = i;
  }
  return best;
}

AUTOSCHED_DECISION_PATH void ArmBook::add_spread_term(const RunningStats& a, double& sum, long& dof) {
  if (a.count >= 2 && a.mean > 0) {
    sum += a.m2 / (a.mean * a.mean);  // (n−1) · relative variance
    dof += a.count - 1;
  }
}

AUTOSCHED_DECISION_PATH double ArmBook::pooled_spread(double sum, long dof) const {
  const double measured = dof > 0 ? std::sqrt(sum / static_cast<double>(dof)) : 0.0;
  return std::max(measured, noise_floor_);
}

double ArmBook::spread(bool session_only) const {
  double sum = 0;
  long dof = 0;
  for (const ArmState& arm : arms_) add_spread_term(session_only ? arm.session : arm.all, sum, dof);
  return pooled_spread(sum, dof);
}

AUTOSCHED_DECISION_PATH double ArmBook::clip_limit(double session_spread) const {
  return std::min(clip_, std::max(1.5, 1.0 + 3.0 * session_spread));
}

double ArmBook::clipped(int arm, double time, bool& forgot) {
  ArmState& a = (*this)[arm];
  forgot = false;
  if (a.all.count >= 1 && clip_ > 0 && time * clip_ < a.all.mean) {
    a.all = a.session = RunningStats{};
    forgot = true;
  }
  if (a.session.count >= 2 && clip_ > 0) time = std::min(time, clip_limit(spread(true)) * a.session.mean);
  return time;
}

void ArmBook::scale(double factor) {
  if (!(std::isfinite(factor) && factor > 0)) return;
  for (ArmState& a : arms_) {
    for (RunningStats* r : {&a.all, &a.session}) {
      r->mean *= factor;
      r->m2 *= factor * factor;
    }
  }
}

void ArmBook::clear() {
  for (ArmState& a : arms_) a = ArmState{};
}

AUTOSCHED_DECISION_PATH bool ArmBook::counts_as_exploration(const RunningStats& pick, const RunningStats& best,
                                                            bool predicted_tie, double spread) const {
  if (pick.mean <= (1.0 + tie_) * best.mean) return false;
  if (!predicted_tie) return true;
  const double se = spread * std::sqrt(1.0 / static_cast<double>(pick.count) + 1.0 / static_cast<double>(best.count));
  return pick.mean > (1.0 + 2.0 * se) * best.mean;
}

AUTOSCHED_DECISION_PATH bool ArmBook::measured_worse(const RunningStats& a, const RunningStats& best,
                                                     double spread) const {
  if (a.count < 2 || best.count < 2) return false;
  const double se = spread * std::sqrt(1.0 / static_cast<double>(a.count) + 1.0 / static_cast<double>(best.count));
  return a.mean / best.mean - 1.0 > std::max(2.0 * se, tie_);
}

AUTOSCHED_DECISION_PATH bool ArmBook::twice_worse(double predicted, double best_predicted, const RunningStats& a,
                                                  const RunningStats& best) const {
  return !tie_predicted(predicted, best_predicted) && predicted > best_predicted && a.mean > (1.0 + tie_) * best.mean;
}

AUTOSCHED_DECISION_PATH bool ArmBook::tie_predicted(double x, double y) const {
  return std::isfinite(x) && std::isfinite(y) && std::max(x, y) <= (1.0 + tie_) * std::min(x, y);
}

void ArmBook::write(std::ostream& out, const std::vector<double>* predicted) const {
  for (std::size_t i = 0; i < arms_.size(); ++i) {
    const ArmState& a = arms_[i];
    out << ' ' << a.all.count << ' ' << a.all.mean << ' ' << a.all.m2 << ' ' << a.retired;
    if (predicted != nullptr) out << ' ' << (std::isfinite((*predicted)[i]) ? (*predicted)[i] : 0.0);
  }
}

bool ArmBook::read(std::istream& in, std::size_t arms, std::vector<ArmState>& states, std::vector<double>* predicted) {
  states.assign(arms, ArmState{});
  if (predicted != nullptr) predicted->assign(arms, 0.0);
  for (std::size_t i = 0; i < arms; ++i) {
    ArmState& a = states[i];
    if (!(in >> a.all.count >> a.all.mean >> a.all.m2 >> a.retired)) return false;
    if (predicted != nullptr) {
      double& p = (*predicted)[i];
      if (!(in >> p) || !std::isfinite(p) || p < 0) return false;
      if (p == 0) p = std::numeric_limits<double>::infinity();
    }
  }
  return true;
}

bool ArmBook::valid(const std::vector<ArmState>& states) {
  return std::all_of(states.begin(), states.end(), [](const ArmState& a) {
    return a.all.count == 0 ? a.all.mean == 0 && a.all.m2 == 0
                            : a.all.count > 0 && a.all.count <= RunningStats::max_loaded_count &&
                                  std::isfinite(a.all.mean) && a.all.mean > 0 && std::isfinite(a.all.m2) && a.all.m2 >= 0;
  });
}

bool ArmBook::in_play(const std::vector<ArmState>& states) {
  return std::any_of(states.begin(), states.end(), [](const ArmState& a) { return a.all.count > 0 && !a.retired; });
}

}  // namespace autosched::autoselect
