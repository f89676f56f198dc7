#include <autosched/omp/static_loops.hpp>

#include <autosched/core/error.hpp>
#include <autosched/omp/loop_site.hpp>
#include <autosched/session/session.hpp>
#include <autosched/store/store.hpp>

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <tuple>

namespace autosched::omp {

/// One (region, trip count, team size)'s learner, for the whole process.
class StaticPlan {
 public:
  StaticPlan(std::string region, std::int64_t n, int p)
      : region_(std::move(region)), key_(region_ + " n=" + std::to_string(n) + " p=" + std::to_string(p)),
        learner_(n, p) {}

  std::mutex mutex;  ///< guards the learner: regions of one plan may run at once (nested parallelism)

  BlockLearner& learner() { return learner_; }
  const std::string& region() const { return region_; }
  /// The store's key: the region's id, the trip count and the team size.
  const std::string& key() const { return key_; }
  /// Instances observed since the state was last handed to the store.
  int unsaved = 0;

 private:
  std::string region_;
  std::string key_;
  BlockLearner learner_;
};

namespace {

constexpr const char* blob_kind = "static-blocks";

struct Plans {
  std::mutex mutex;
  std::map<std::tuple<const void*, std::int64_t, int>, std::unique_ptr<StaticPlan>> by_key;
};

Plans& plans() {
  static auto* p = new Plans;  // read by the report and the exit hook: never destroyed
  return *p;
}

/// Hands `plan`'s state to the store (the background writer writes it).
void save(StaticPlan& plan) {
  plan.unsaved = 0;
  // Still measuring: nothing worth a row (a loop whose trip count changes
  // every instance would otherwise write one per size it met).
  if (plan.learner().phase() == BlockLearner::Phase::measuring_even) return;
  if (autosched::detail::Store* store = session::store()) store->save_blob(blob_kind, plan.key(), plan.learner().save());
}

/// At exit, with every front-end's state (session::on_finish).
void save_all() {
  Plans& ps = plans();
  std::lock_guard lock(ps.mutex);
  for (auto& [key, plan] : ps.by_key) {
    std::lock_guard plan_lock(plan->mutex);
    save(*plan);
  }
}

StaticPlan& plan_for(const void* code, std::int64_t n, int p) {
  Plans& ps = plans();
  std::lock_guard lock(ps.mutex);
  std::unique_ptr<StaticPlan>& plan = ps.by_key[{code, n, p}];
  if (plan == nullptr) {
    if (ps.by_key.size() == 1) session::on_finish(&save_all);
    plan = std::make_unique<StaticPlan>(code_id(code), n, p);
    // A warm start: the partition earlier runs learned for this region and size.
    if (autosched::detail::Store* store = session::store()) {
      if (auto text = store->load_blob(blob_kind, plan->key()); text && !plan->learner().resume(*text)) {
        detail::warn("autosched-omp: the store's static blocks for " + plan->key() + " are not a state this " +
                     "version reads; learning them again");
      }
    }
  }
  return *plan;
}

/// The blocks the team ran, from each thread's range; nullopt when they are
/// not p contiguous ascending blocks from 0 to n (nothing to learn from).
std::optional<BlockBounds> ran_blocks(const StaticSlot& s) {
  BlockBounds b(static_cast<std::size_t>(s.p) + 1, 0);
  for (int t = 0; t < s.p; ++t) {
    if (s.end[t] > s.begin[t]) {
      if (s.begin[t] != b[t]) return std::nullopt;
      b[t + 1] = s.end[t];
    } else {
      b[t + 1] = b[t];
    }
  }
  if (b.back() != s.n) return std::nullopt;
  return b;
}

void learn(StaticSlot& s) {
  const std::optional<BlockBounds> ran = ran_blocks(s);
  if (!ran) return;
  std::vector<double> seconds(s.ns.begin(), s.ns.end());
  for (double& x : seconds) x *= 1e-9;
  StaticPlan& plan = *s.plan;
  std::lock_guard lock(plan.mutex);
  const BlockLearner::Phase before = plan.learner().phase();
  plan.learner().observe(*ran, !s.blocks.has_value(), seconds);
  // The store hears of a new phase at once, of learning now and then, and of
  // everything at exit: not a write per region.
  if (plan.learner().phase() != before || ++plan.unsaved >= 32) save(plan);
}

}  // namespace

StaticSlot* RegionStatics::slot(std::int64_t n, int p) noexcept {
  std::lock_guard lock(mutex_);
  for (StaticSlot* s = slots_; s != nullptr; s = s->next) {
    if (s->n == n && s->p == p) return s;
  }
  try {
    auto s = std::make_unique<StaticSlot>();
    s->plan = &plan_for(code_, n, p);
    s->n = n;
    s->p = p;
    {
      std::lock_guard plan_lock(s->plan->mutex);
      s->blocks = s->plan->learner().next();
    }
    s->begin.assign(static_cast<std::size_t>(p), 0);
    s->end.assign(static_cast<std::size_t>(p), 0);
    s->ns.assign(static_cast<std::size_t>(p), 0);
    s->next = slots_;
    slots_ = s.release();
    return slots_;
  } catch (...) {
    return nullptr;  // the caller hands the loop to the runtime
  }
}

RegionStatics::~RegionStatics() {
  while (slots_ != nullptr) {
    std::unique_ptr<StaticSlot> s(slots_);
    slots_ = s->next;
    try {
      learn(*s);
    } catch (...) {
    }
  }
}

std::vector<StaticPlanReport> static_plans() {
  std::vector<StaticPlanReport> out;
  Plans& ps = plans();
  std::lock_guard lock(ps.mutex);
  for (auto& [key, plan] : ps.by_key) {
    std::lock_guard plan_lock(plan->mutex);
    const BlockLearner& l = plan->learner();
    StaticPlanReport r;
    r.region = plan->region();
    r.n = l.n();
    r.p = l.p();
    r.phase = l.phase();
    r.blocks = l.next().value_or(even_blocks(l.n(), l.p()));
    r.instances = l.instances();
    r.learned_instances = l.learned_instances();
    r.even_ms = l.even_seconds() * 1e3;
    r.learned_mean_ms =
        l.learned_instances() > 0 ? l.learned_seconds() * 1e3 / static_cast<double>(l.learned_instances()) : 0;
    r.resumed = l.resumed();
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace autosched::omp
