#include <autosched/drive/loop.hpp>

#include <autosched/core/error.hpp>
#include <autosched/core/text.hpp>
#include <autosched/drive/clock.hpp>
#include <autosched/drive/observer.hpp>
#include <autosched/measure/metrics.hpp>
#include <autosched/select/schedule_environment.hpp>
#include <autosched/techniques/profiling.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <map>
#include <shared_mutex>

namespace autosched::drive {

// ---------------------------------------------------------------- registry

namespace {

class Registry {
 public:
  Loop& get(std::string_view id) {
    {
      std::shared_lock read(mutex_);
      if (auto it = loops_.find(id); it != loops_.end()) return *it->second;
    }
    std::unique_lock write(mutex_);
    auto [it, inserted] = loops_.try_emplace(std::string(id));
    if (inserted) it->second = std::make_unique<Loop>(std::string(id));
    return *it->second;
  }
  Loop* find(std::string_view id) {
    std::shared_lock read(mutex_);
    auto it = loops_.find(id);
    return it == loops_.end() ? nullptr : it->second.get();
  }
  std::vector<std::string> ids() {
    std::shared_lock read(mutex_);
    std::vector<std::string> out;
    for (const auto& [id, record] : loops_) out.push_back(id);
    return out;
  }

 private:
  std::shared_mutex mutex_;
  std::map<std::string, std::unique_ptr<Loop>, std::less<>> loops_;
};

Registry& registry() {
  static auto* r = new Registry;  // never destroyed: loops may run during static destruction
  return *r;
}

/// LoopOptions::profile and ::weights held to the rules their schedule-text
/// spellings follow (mu=, sigma=, h=, weights=): NaN, infinities and
/// negatives would reach the techniques' formulas unchecked.
void check_request(const OpenRequest& r, const std::string& loop) {
  constexpr double huge = 1e18;  // the schedule text's bound
  auto reject = [&](const std::string& field, double v, const char* accepted) {
    char value[40];
    std::snprintf(value, sizeof value, "%g", v);
    autosched::detail::throw_error(text::bad_value("loop '" + loop + "': LoopOptions::" + field, value, accepted));
  };
  if (const Profile* p = r.profile) {
    if (!(p->mu_ns > 0 && p->mu_ns <= huge)) reject("profile.mu_ns", p->mu_ns, "a number in (0, 1e18]");
    if (!(p->sigma_ns >= 0 && p->sigma_ns <= huge)) reject("profile.sigma_ns", p->sigma_ns, "a number in [0, 1e18]");
    if (!(p->overhead_ns >= 0 && p->overhead_ns <= huge))
      reject("profile.overhead_ns", p->overhead_ns, "a number in [0, 1e18]");
  }
  for (std::size_t i = 0; i < r.weights.size(); ++i) {
    const double w = r.weights[i];
    if (!(w > 0 && std::isfinite(w))) reject("weights[" + std::to_string(i) + "]", w, "a positive finite number");
  }
}

}  // namespace

Loop& loop(std::string_view id) { return registry().get(id); }
Loop* find_loop(std::string_view id) { return registry().find(id); }
std::vector<std::string> loop_ids() { return registry().ids(); }

// ---------------------------------------------------------------- opening

const Schedule& Loop::resolve_schedule(const OpenRequest& request) {
  const std::string_view source = request.schedule_source;
  if (const Schedule* typed = request.typed_schedule) {
    if (!option_schedule_ || !option_typed_ || !(*option_typed_ == *typed)) {
      // The same grammar checks typed values: an out-of-range chunk or
      // parameter is reported as it would be in text.
      Schedule checked = parse_schedule(typed->text(), source);
      if (typed->fixed.chunk < 0) {
        autosched::detail::throw_error(text::bad_value(std::string(source) + " chunk", std::to_string(typed->fixed.chunk),
                                                       "0 (the technique's default) or a positive chunk"));
      }
      if (!(checked == *typed)) {
        autosched::detail::throw_error(std::string(source) + ": the typed schedule reads back as '" + typed->text() +
                                       "', which is not the value given (a field outside what the grammar accepts)");
      }
      option_schedule_ = std::move(checked);
      option_typed_ = *typed;
      option_text_.clear();
    }
    return *option_schedule_;
  }
  const std::string_view text = request.schedule;
  if (!text.empty()) {
    if (!option_schedule_ || option_typed_ || option_text_ != text) {
      // RL keys from KMP_RL_* / LB4MPI_RL_* fill what the code leaves unset.
      option_schedule_ = parse_schedule(schedule_environment().with_rl_keys(text), source);
      option_text_ = text;
      option_typed_.reset();
    }
    return *option_schedule_;
  }
  const std::uint64_t generation = autosched::detail::schedule_environment_generation();
  if (generation != env_generation_) {
    const Schedule* s = schedule_environment().for_loop(name_);
    env_schedule_ = s != nullptr ? *s : default_schedule();
    env_generation_ = generation;
  }
  return env_schedule_;
}

void Loop::prepare(Instance& inst, int p) {
  inst.p_ = p;
  inst.chunk_ = inst.spec_.chunk_for(inst.n_, p);
  inst.exp_chunk_ = inst.spec_.expert_chunk && inst.chunk_ > 0;
  if (p > inst.thread_capacity_) {
    inst.threads_ = std::make_unique<Instance::ThreadSlot[]>(static_cast<std::size_t>(p));
    inst.thread_capacity_ = p;
  }
  for (int i = 0; i < p; ++i) inst.threads_[i].stats = {};
  const TechniqueSetup setup{inst.spec_.technique, LoopShape{inst.n_, p, inst.chunk_}, &inst.params_,
                             inst.start_ns_};
  PreparedTechnique prepared = prepare_dispenser(inst.dispenser_, setup, memory_, inst.workspace_);
  inst.ran_ = prepared.ran;
  if (!prepared.fallback.empty() && warned_.insert(inst.spec_.technique).second) {
    autosched::detail::warn("loop '" + name_ + "': " + prepared.fallback);
  }
}

Instance* Loop::take_from_pool() {
  if (pool_.empty()) return new Instance;
  Instance* inst = pool_.back().release();
  pool_.pop_back();
  return inst;
}

Instance* Loop::open(const OpenRequest& request) {
  std::lock_guard lock(mutex_);
  return open_locked(request);
}

Instance* Loop::open_locked(const OpenRequest& request) {
  check_request(request, name_);  // before anything is decided or taken from the pool
  const Schedule& schedule = resolve_schedule(request);
  std::unique_ptr<Instance> owned(take_from_pool());
  Instance& inst = *owned;
  inst.loop_ = this;
  inst.index_ = instances_++;
  inst.begin_ = request.begin;
  inst.n_ = request.n;
  inst.time_chunks_ = request.time_chunks;
  inst.spec_ = schedule.fixed;
  inst.params_ = schedule.fixed.params;
  if (schedule.selection) {
    if (group_ == nullptr) group_ = &DecisionEngine::instance().group(name_);
    inst.group_ = group_;
    inst.ticket_ = group_->decide(*schedule.selection, request.n, request.p);
    inst.spec_ = inst.ticket_.arm;
    if (inst.ticket_.owns && inst.ticket_.decision.profile) {
      // The selector asked to see where the time goes: one timed chunk per
      // block; the CostProfile reaches it with the outcome.
      inst.spec_ = TechniqueSpec{TechniqueId::profiling, ceil_div(std::max<std::int64_t>(request.n, 1), profile_blocks),
                                 false, {}};
    }
  }
  if (const Profile* profile = request.profile) {
    if (!inst.params_.mu_ns) inst.params_.mu_ns = profile->mu_ns;
    if (!inst.params_.sigma_ns) inst.params_.sigma_ns = profile->sigma_ns;
    if (!inst.params_.overhead_ns) inst.params_.overhead_ns = profile->overhead_ns;
  }
  try {
    if (inst.params_.weights.empty() && !request.weights.empty())
      inst.params_.weights.assign(request.weights.begin(), request.weights.end());
    inst.start_ns_ = now();
    prepare(inst, request.p);
  } catch (...) {
    // A decision nobody carries out: left in flight, it would make every
    // later instance of this point follow it without learning.
    if (inst.ticket_.owns) inst.group_->abandon(inst.ticket_);
    throw;
  }
  inst.start_ns_ = now();  // planning is part of opening, not of the loop
  const Ticket& t = inst.ticket_;
  if (t.owns && t.decision.budget_ns > 0 && t.decision.fallback >= 0) {
    inst.deadline_ns_ = inst.start_ns_ + static_cast<std::int64_t>(t.decision.budget_ns);
  }
  return owned.release();
}

void Loop::reopen(Instance& inst, int p) noexcept {
  std::lock_guard lock(mutex_);
  prepare(inst, p);
}

namespace {

/// Tries to take `m` this many times, with a pause between tries, before
/// sleeping on it: about 20-40 µs, longer than the opening a team's other
/// threads wait for (a decision and a dispenser's set-up, a few µs).
constexpr int open_spin_tries = 512;

/// Takes `m`, spinning first. The threads of a team reach a pull-mode loop
/// together, and all but one wait while that one opens the instance; with a
/// plain lock they sleep in the kernel and each needs a wake-up, which on a
/// VM costs tens of µs of the loop's time, every instance.
std::unique_lock<std::mutex> lock_spinning(std::mutex& m) {
  for (int i = 0; i < open_spin_tries; ++i) {
    if (m.try_lock()) return {m, std::adopt_lock};
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
  }
  return std::unique_lock<std::mutex>(m);
}

}  // namespace

Instance* Loop::open_or_attach(const TeamTicket& ticket, const OpenRequest& request) {
  // One lock for the lookup and the opening: two threads of a team arriving
  // together must not both open.
  const std::unique_lock lock = lock_spinning(mutex_);
  for (auto it = entering_.begin(); it != entering_.end(); ++it) {
    if (it->ticket.team != ticket.team || it->ticket.sequence != ticket.sequence) continue;
    Instance* inst = it->instance;
    if (++it->entered == inst->p_) entering_.erase(it);  // everyone is in: forget the ticket
    return inst;
  }
  // Pull-mode instances are guarded like push-mode ones: the cursors look at
  // the deadline and move to the fallback arm (drive/cursor.hpp).
  Instance* inst = open_locked(request);
  if (inst->p_ > 1) entering_.push_back({ticket, inst, 1});
  return inst;
}

bool Loop::prepare_fallback(Instance& inst, IndexRange rest) noexcept {
  std::lock_guard lock(mutex_);
  const TechniqueSpec& arm = inst.ticket_.fallback;
  const std::int64_t chunk = arm.chunk_for(rest.size(), inst.p_);
  const TechniqueSetup setup{arm.technique, LoopShape{rest.size(), inst.p_, chunk}, &inst.params_, now()};
  prepare_dispenser(inst.fallback_, setup, memory_, inst.fallback_workspace_);
  inst.fallback_begin_ = rest.begin;
  inst.cut_ = true;
  return true;
}

// ---------------------------------------------------------------- closing

namespace {

/// The arm of `slot`'s portfolio that equals what ran, when the technique
/// asked for was substituted (fsc without a profile runs mfsc): the selector
/// then learns about the arm that actually ran. -1 when no arm matches.
int arm_that_ran(const DecisionSlot& slot, TechniqueId ran, const TechniqueSpec& asked) {
  TechniqueSpec ran_arm = asked;  // the portfolio's arm: no instance parameters added
  ran_arm.technique = ran;
  return find_arm(slot.point->arms(), ran_arm);
}

}  // namespace

void Loop::close(Instance& inst) noexcept {
  std::lock_guard lock(mutex_);
  // A failed instance ran on partial data: it must teach neither the loop's
  // memory nor its selector. (A cut trial's memory is partial too.)
  const bool failed = inst.failed_.load(std::memory_order_relaxed);
  // A profiling instance leaves its own cost profile or none (never an older one).
  if (inst.ran_ == TechniqueId::profiling) memory_.cost.reset();
  if (!failed && !inst.cut_) close_dispenser(inst.dispenser_, memory_);
  const CostProfile* measured = inst.ran_ == TechniqueId::profiling && memory_.cost ? &*memory_.cost : nullptr;
  if (!last_) last_.emplace();
  InstanceRecord& r = *last_;
  r.loop = name_;
  r.instance = inst.index_;
  r.technique = technique_info(inst.ran_).name;
  r.requested = technique_info(inst.spec_.technique).name;
  r.chunk = inst.chunk_;
  r.exp_chunk = inst.exp_chunk_;
  r.n = inst.n_;
  r.p = inst.p_;
  r.start_ns = inst.start_ns_;
  r.selection_ns = 0;
  r.failed = failed;
  r.reward = std::numeric_limits<double>::quiet_NaN();
  r.threads.resize(static_cast<std::size_t>(inst.p_));
  for (int i = 0; i < inst.p_; ++i) r.threads[i] = inst.threads_[i].stats;
  r.metrics = compute_metrics(r.threads, inst.start_ns_);
  r.selector = inst.ticket_.selector;
  r.explored = inst.ticket_.explored;
  r.cut_short = inst.cut_;
  Ticket& t = inst.ticket_;
  if (t.owns) {
    if (failed) {
      inst.group_->abandon(t);
    } else {
      if (inst.ran_ != inst.spec_.technique) {
        if (const int ran = arm_that_ran(*t.slot, inst.ran_, t.arm); ran >= 0) t.decision.arm = ran;
      }
      Outcome outcome{r.metrics.loop_time_ns, r.metrics, inst.cut_};
      if (t.decision.profile) outcome.profile = measured;
      const auto learned = inst.group_->complete(t, outcome);
      r.selection_ns = learned.cost_ns;
      r.reward = learned.reward;
    }
  }
  if (detail::observed()) {
    detail::notify_instance_closed(
        {r, name_.c_str(), inst.ran_, t.slot, t.slot != nullptr ? inst.group_ : nullptr, measured});
  }
}

void Loop::release(Instance* inst) noexcept {
  inst->dispenser_.emplace<std::monostate>();
  inst->fallback_.emplace<std::monostate>();
  inst->phase_.store(0, std::memory_order_relaxed);
  inst->deadline_ns_ = 0;
  inst->cut_ = false;
  inst->group_ = nullptr;
  inst->ticket_ = {};
  inst->cancelled_.store(false, std::memory_order_relaxed);
  inst->finished_.store(0, std::memory_order_relaxed);
  inst->left_.store(0, std::memory_order_relaxed);
  inst->failed_.store(false, std::memory_order_relaxed);
  inst->error_published_.store(false, std::memory_order_relaxed);
  inst->error_ = nullptr;
  std::lock_guard lock(mutex_);
  pool_.emplace_back(inst);
}

std::optional<InstanceRecord> Loop::last() const {
  std::lock_guard lock(mutex_);
  return last_;
}

LoopMemory Loop::memory() const {
  std::lock_guard lock(mutex_);
  return memory_;
}

std::string Loop::selector_state(std::int64_t n, int p) const {
  DecisionGroup* g = nullptr;
  {
    std::lock_guard lock(mutex_);
    g = group_;
  }
  return g != nullptr ? g->selector_state(n, p) : std::string{};
}

}  // namespace autosched::drive
