// auto's first instances (first_instances.hpp): which arm a loop's first
// instance in a process runs, and the records that choose it.
#include <autosched/select/selectors/auto/first_instances.hpp>

#include <algorithm>
#include <cmath>
#include <istream>
#include <ostream>

namespace autosched::autoselect {

namespace {

/// The robust arms, plain ones (no chunk, no expert chunk). -1 where the
/// portfolio lacks one.
enum class Robust { guided, static_, static_steal };
int robust_arm(const Portfolio& arms, Robust which) {
  const auto find = [&](TechniqueId id) {
    for (std::size_t i = 0; i < arms.size(); ++i) {
      if (arms[i].technique == id && arms[i].chunk == 0 && !arms[i].expert_chunk) return static_cast<int>(i);
    }
    return -1;
  };
  switch (which) {
    case Robust::guided: {
      const int guided = find(TechniqueId::guided_llvm);
      return guided >= 0 ? guided : find(TechniqueId::gss);  // the LB4MPI portfolio's guided
    }
    case Robust::static_:
      return find(TechniqueId::static_);
    case Robust::static_steal:
      return find(TechniqueId::static_steal);
  }
  return -1;
}

}  // namespace

const FirstInstances::Record* FirstInstances::find(int arm) const noexcept {
  for (const Record& r : records_) {
    if (r.arm == arm) return &r;
  }
  return nullptr;
}

const RunningStats& FirstInstances::time(int arm) const noexcept {
  static const RunningStats none;
  const Record* r = find(arm);
  return r != nullptr ? r->time : none;
}

FirstInstances::Pick FirstInstances::pick(const Portfolio& arms, double once_imbalance) const {
  // Nothing recorded: guided. A first instance knows nothing of its loop,
  // and guided is the arm that is never far off: its big first chunks keep
  // the dispatches few on a balanced loop, its shrinking tail balances an
  // uneven one. Static, the better arm for a balanced loop, loses up to half
  // of an uneven loop's time (a particle filter's resampling, whose cost
  // grows with the index, ran its first instance 2x slower on static than
  // on guided), and a loop that repeats pays that on its first instance in
  // every cold run.
  const int guided = robust_arm(arms, Robust::guided);
  const int best = this->best();
  if (best < 0) {
    if (guided >= 0) return {guided, false};
    const int fixed = robust_arm(arms, Robust::static_);
    return {fixed >= 0 ? fixed : robust_arm(arms, Robust::static_steal), false};
  }
  // Then the best recorded arm, unless its threads finished so far apart
  // that balancing could save more than `once_imbalance` of its time (at
  // most the gap between the last thread and the mean one: 1 − mean/max of
  // the loop time): then the robust arms not yet recorded, each once.
  // Static is not tried on a loop guided balanced: what it could save there
  // (guided's few dispatches) is small, and a try is a whole instance that
  // may be up to half slower, in a run that resumed from the store
  // (a warm start must not cost what the cold run did not).
  const double imbalance = find(best)->imbalance;
  const double saving = imbalance / (100.0 + imbalance);
  if (saving <= once_imbalance) return {best, false};
  for (const Robust which : {Robust::guided, Robust::static_steal, Robust::static_}) {
    if (const int arm = robust_arm(arms, which); arm >= 0 && find(arm) == nullptr) return {arm, true};
  }
  return {best, false};  // every robust arm has its record
}

void FirstInstances::add(int arm, double time_ns, double percent_imbalance) {
  if (arm < 0 || arm >= arms_ || !(time_ns > 0) || !std::isfinite(time_ns)) return;
  auto it = std::lower_bound(records_.begin(), records_.end(), arm,
                             [](const Record& r, int a) { return r.arm < a; });
  if (it == records_.end() || it->arm != arm) it = records_.insert(it, Record{arm, {}, 0});
  it->time.add(time_ns);
  it->imbalance = std::isfinite(percent_imbalance) && percent_imbalance > 0 ? percent_imbalance : 0.0;
}

long FirstInstances::count() const noexcept {
  long n = 0;
  for (const Record& r : records_) n += static_cast<long>(r.time.count);
  return n;
}

int FirstInstances::best() const noexcept {
  const Record* best = nullptr;
  for (const Record& r : records_) {
    if (r.time.count > 0 && (best == nullptr || r.time.mean < best->time.mean)) best = &r;
  }
  return best != nullptr ? best->arm : -1;
}

void FirstInstances::write(std::ostream& out) const {
  out << " once " << records_.size();
  for (const Record& r : records_) {
    out << ' ' << r.arm << ' ' << r.time.count << ' ' << r.time.mean << ' ' << r.time.m2 << ' ' << r.imbalance;
  }
}

bool FirstInstances::read(std::istream& in) {
  std::size_t recorded = 0;
  if (!(in >> recorded) || recorded > static_cast<std::size_t>(arms_)) return false;
  std::vector<Record> records;
  records.reserve(recorded);
  for (std::size_t k = 0; k < recorded; ++k) {
    std::size_t arm = 0;
    RunningStats t;
    double lib = 0;
    if (!(in >> arm >> t.count >> t.mean >> t.m2 >> lib) || arm >= static_cast<std::size_t>(arms_)) return false;
    for (const Record& r : records) {
      if (r.arm == static_cast<int>(arm)) return false;  // twice
    }
    if (t.count <= 0 || t.count > RunningStats::max_loaded_count || !std::isfinite(t.mean) || t.mean <= 0 ||
        !std::isfinite(t.m2) || t.m2 < 0 || !std::isfinite(lib) || lib < 0) {
      return false;
    }
    records.push_back({static_cast<int>(arm), t, lib});
  }
  std::sort(records.begin(), records.end(), [](const Record& a, const Record& b) { return a.arm < b.arm; });
  records_ = std::move(records);
  return true;
}

}  // namespace autosched::autoselect
