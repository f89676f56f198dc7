// auto's first instances (first_instances.hpp): which arm a loop's first
// instance in a process runs, and the records that choose it.
#include <autosched/select/auto/first_instances.hpp>

#include <cmath>
#include <istream>
#include <ostream>

namespace autosched::autoselect {

namespace {

/// The robust arms, in the order they are tried: static keeps each thread's
/// iterations and costs no dispatch (the right arm for most one-shot loops:
/// initialisations, table builds, uniform sweeps); static-steal keeps them
/// too and balances an uneven loop; guided balances a loop whose cost is
/// concentrated. Plain arms only (no chunk, no expert chunk).
int robust_arm(const Portfolio& arms, int rank) {
  const auto find = [&](TechniqueId id) {
    for (std::size_t i = 0; i < arms.size(); ++i) {
      if (arms[i].technique == id && arms[i].chunk == 0 && !arms[i].expert_chunk) return static_cast<int>(i);
    }
    return -1;
  };
  int guided = find(TechniqueId::guided_llvm);
  if (guided < 0) guided = find(TechniqueId::gss);  // the LB4MPI portfolio's guided
  const int order[] = {find(TechniqueId::static_), find(TechniqueId::static_steal), guided};
  int seen = 0;
  for (const int arm : order) {
    if (arm >= 0 && seen++ == rank) return arm;
  }
  return -1;
}

}  // namespace

FirstInstances::Pick FirstInstances::pick(const Portfolio& arms, double once_imbalance) const {
  const int best = this->best();
  if (best < 0) return {robust_arm(arms, 0), false};
  // Balancing saves at most the gap between the last thread and the mean
  // one: 1 − mean/max of the loop time.
  const double imbalance = imbalance_[static_cast<std::size_t>(best)];
  const double saving = imbalance / (100.0 + imbalance);
  if (saving <= once_imbalance) return {best, false};
  for (int rank = 0;; ++rank) {
    const int arm = robust_arm(arms, rank);
    if (arm < 0) return {best, false};  // every robust arm has its record
    if (time_[static_cast<std::size_t>(arm)].count == 0) return {arm, true};
  }
}

void FirstInstances::add(int arm, double time_ns, double percent_imbalance) {
  if (arm < 0 || static_cast<std::size_t>(arm) >= time_.size() || !(time_ns > 0) || !std::isfinite(time_ns)) return;
  time_[static_cast<std::size_t>(arm)].add(time_ns);
  imbalance_[static_cast<std::size_t>(arm)] =
      std::isfinite(percent_imbalance) && percent_imbalance > 0 ? percent_imbalance : 0.0;
}

long FirstInstances::count() const noexcept {
  long n = 0;
  for (const RunningStats& t : time_) n += static_cast<long>(t.count);
  return n;
}

int FirstInstances::best() const noexcept {
  int best = -1;
  for (std::size_t i = 0; i < time_.size(); ++i) {
    if (time_[i].count > 0 && (best < 0 || time_[i].mean < time_[static_cast<std::size_t>(best)].mean)) {
      best = static_cast<int>(i);
    }
  }
  return best;
}

void FirstInstances::write(std::ostream& out) const {
  std::size_t recorded = 0;
  for (const RunningStats& t : time_) recorded += t.count > 0 ? 1 : 0;
  out << " once " << recorded;
  for (std::size_t i = 0; i < time_.size(); ++i) {
    const RunningStats& t = time_[i];
    if (t.count > 0) out << ' ' << i << ' ' << t.count << ' ' << t.mean << ' ' << t.m2 << ' ' << imbalance_[i];
  }
}

bool FirstInstances::read(std::istream& in) {
  std::size_t recorded = 0;
  if (!(in >> recorded) || recorded > time_.size()) return false;
  std::vector<RunningStats> time(time_.size());
  std::vector<double> imbalance(time_.size(), 0.0);
  for (std::size_t k = 0; k < recorded; ++k) {
    std::size_t arm = 0;
    RunningStats t;
    double lib = 0;
    if (!(in >> arm >> t.count >> t.mean >> t.m2 >> lib) || arm >= time.size() || time[arm].count > 0) return false;
    if (t.count <= 0 || t.count > RunningStats::max_loaded_count || !std::isfinite(t.mean) || t.mean <= 0 ||
        !std::isfinite(t.m2) || t.m2 < 0 || !std::isfinite(lib) || lib < 0) {
      return false;
    }
    time[arm] = t;
    imbalance[arm] = lib;
  }
  time_ = std::move(time);
  imbalance_ = std::move(imbalance);
  return true;
}

}  // namespace autosched::autoselect
