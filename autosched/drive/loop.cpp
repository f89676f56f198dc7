#include <autosched/drive/loop.hpp>

#include <autosched/core/cpu_pause.hpp>
#include <autosched/core/error.hpp>
#include <autosched/core/text.hpp>
#include <autosched/measure/clock.hpp>
#include <autosched/drive/observer.hpp>
#include <autosched/measure/metrics.hpp>
#include <autosched/select/grammar/schedule_environment.hpp>
#include <autosched/techniques/profiling.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace autosched::drive {

namespace {

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
      option_schedule_ = std::make_unique<const Schedule>(std::move(checked));
      option_typed_ = std::make_unique<const Schedule>(*typed);
      option_text_.clear();
      ++schedule_version_;
    }
    return *option_schedule_;
  }
  const std::string_view text = request.schedule;
  if (!text.empty()) {
    if (!option_schedule_ || option_typed_ || option_text_ != text) {
      // RL keys from KMP_RL_* / LB4MPI_RL_* fill what the code leaves unset.
      option_schedule_ = std::make_unique<const Schedule>(parse_schedule(schedule_environment().with_rl_keys(text), source));
      option_text_ = text;
      option_typed_.reset();
      ++schedule_version_;
    }
    return *option_schedule_;
  }
  const std::uint64_t generation = autosched::detail::schedule_environment_generation();
  if (generation != env_generation_) {
    const Schedule* s = schedule_environment().for_loop(name_, request.aliases);
    if (s == nullptr) s = request.fallback;
    env_schedule_ = s != nullptr ? s : &default_schedule();
    env_generation_ = generation;
    ++schedule_version_;
  }
  return *env_schedule_;
}

void Loop::prepare(Instance& inst, int p) {
  inst.armed_ = {};  // set again by open_locked when the dispenser may be reused
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

Instance* Loop::take_from_pool(int p) {
  if (spare_) [[likely]] return spare_.release();
  if (pool_.empty()) {
    auto inst = std::make_unique<Instance>();
    inst->reserve(p);
    return inst.release();
  }
  Instance* inst = pool_.back().release();
  pool_.pop_back();
  return inst;
}

void Loop::pool(Instance* inst) {
  std::unique_ptr<Instance> owned(inst);
  if (!spare_) {
    spare_ = std::move(owned);
  } else {
    pool_.push_back(std::move(owned));  // grows only when more instances are in flight than ever before
  }
}

Instance* Loop::open(const OpenRequest& request) {
  std::lock_guard lock(mutex_);
  return open_locked(request);
}

namespace {

/// How often a team's thread looks for its instance while the loop's lock
/// is held before it queues on the lock (which sleeps): some 20-50 µs,
/// longer than opening takes (a decision and a dispenser's set-up), short
/// enough not to keep a descheduled opener off an oversubscribed core long.
constexpr int attach_tries = 1024;

/// Dispensers that keep no state between instances (static's blocks and
/// cyclic chunks are a function of n and p alone): one set up for the same
/// n and team is ready again as it is.
bool reusable(TechniqueId ran) noexcept { return ran == TechniqueId::static_; }

}  // namespace

Instance* Loop::open_locked(const OpenRequest& request) {
  check_request(request, name_);  // before anything is decided or taken from the pool
  const Schedule& schedule = resolve_schedule(request);
  std::unique_ptr<Instance> owned(take_from_pool(request.p));
  Instance& inst = *owned;
  inst.loop_ = this;
  inst.index_ = instances_++;
  inst.begin_ = request.begin;
  inst.n_ = request.n;
  inst.time_chunks_ = request.time_chunks;
  // A fixed schedule with nothing from the request merged into its
  // parameters: what the instance runs follows from the schedule, n and p.
  const bool plain = !schedule.selection && request.profile == nullptr && request.weights.empty();
  const Instance::ArmedFor armed{&schedule, schedule_version_, request.n, request.p};
  if (plain && inst.armed_ == armed && reusable(inst.ran_)) [[likely]] {
    inst.start_ns_ = measure::now();
    return owned.release();
  }
  inst.armed_ = {};  // until this set-up has succeeded
  inst.params_ = schedule.fixed.params;
  decide_locked(schedule, request.n, request.p, inst.spec_, inst.ticket_);
  if (schedule.selection) inst.group_ = group_;
  if (const Profile* profile = request.profile) {
    if (!inst.params_.mu_ns) inst.params_.mu_ns = profile->mu_ns;
    if (!inst.params_.sigma_ns) inst.params_.sigma_ns = profile->sigma_ns;
    if (!inst.params_.overhead_ns) inst.params_.overhead_ns = profile->overhead_ns;
  }
  try {
    if (inst.params_.weights.empty() && !request.weights.empty())
      inst.params_.weights.assign(request.weights.begin(), request.weights.end());
    // Only BOLD's set-up reads the start (its time origin); every other
    // technique's starts at the clock read below.
    inst.start_ns_ = inst.spec_.technique == TechniqueId::bold ? measure::now() : 0;
    prepare(inst, request.p);
  } catch (...) {
    // A decision nobody carries out: left in flight, it would make every
    // later instance of this point follow it without learning.
    if (inst.ticket_.owns) inst.group_->abandon(inst.ticket_);
    // Pooled as it is, the instance would keep a ticket that open() takes for its own.
    inst.reset_for_pool();
    inst.armed_ = {};
    pool(owned.release());
    throw;
  }
  if (plain) inst.armed_ = armed;
  inst.start_ns_ = measure::now();  // planning is part of opening, not of the loop
  const Ticket& t = inst.ticket_;
  if (t.owns && t.decision.budget_ns > 0 && t.decision.fallback >= 0) {
    inst.deadline_ns_ = inst.start_ns_ + static_cast<std::int64_t>(t.decision.budget_ns);
  }
  return owned.release();
}

void Loop::decide_locked(const Schedule& schedule, std::int64_t n, int p, TechniqueSpec& spec, Ticket& ticket) {
  // Assigned in place: the instance's spec keeps its storage from one instance to the next.
  if (!schedule.selection) {
    spec = schedule.fixed;
    return;
  }
  if (group_ == nullptr) group_ = &autosched::detail::DecisionEngine::instance().group(name_);
  if (slot_version_ != schedule_version_) {
    slot_hint_ = nullptr;
    slot_version_ = schedule_version_;
  }
  ticket = group_->decide(*schedule.selection, n, p, &slot_hint_);
  if (ticket.owns && ticket.decision.profile) {
    // The selector asked to see where the time goes: one timed chunk per
    // block; the CostProfile reaches it with the outcome.
    spec = TechniqueSpec{TechniqueId::profiling, ceil_div(std::max<std::int64_t>(n, 1), profile_blocks), false, {}};
    return;
  }
  spec = ticket.arm;
}

Plan Loop::plan(const OpenRequest& request) {
  std::lock_guard lock(mutex_);
  check_request(request, name_);
  const Schedule& schedule = resolve_schedule(request);
  Plan plan;
  plan.index = instances_++;
  plan.n = request.n;
  plan.p = request.p;
  if (schedule.selection && request.n == 0) {
    plan.spec = TechniqueSpec{TechniqueId::static_, 0, false, {}};  // nothing to schedule, nothing to learn
    return plan;
  }
  decide_locked(schedule, request.n, request.p, plan.spec, plan.ticket);
  if (plan.ticket.slot != nullptr) plan.group = group_;
  return plan;
}

void Loop::reopen(Instance& inst, int p) noexcept {
  std::lock_guard lock(mutex_);
  prepare(inst, p);
}

Instance* Loop::open_or_attach(const TeamTicket& ticket, const OpenRequest& request) {
  const bool team = request.p > 1;
  bool opening = false;
  for (;;) {
    if (team) {
      // The team's other threads: one compare-and-swap on the opener's slot.
      // A thread that finds the lock held looks again rather than queue: the
      // holder is most likely a teammate about to reserve that slot (a team
      // reaches its loop together).
      for (int tries = 0;; ++tries) {
        if (Instance* inst = entries_.enter(ticket, opening)) [[likely]] return inst;
        if (!opening && mutex_.try_lock()) break;
        if (tries == attach_tries) {
          mutex_.lock();
          break;
        }
        cpu_pause();
      }
    } else {
      mutex_.lock();
    }
    std::unique_lock lock(mutex_, std::adopt_lock);
    if (team) {
      // Opened while this thread waited for the lock, or kept in the list.
      if (Instance* inst = entries_.enter(ticket, opening)) return inst;
      if (opening) continue;  // its opener publishes it once it has let the lock go
      for (auto it = entering_.begin(); it != entering_.end(); ++it) {
        if (it->ticket.team != ticket.team || it->ticket.sequence != ticket.sequence) continue;
        Instance* inst = it->instance;
        if (++it->entered == inst->p_) entering_.erase(it);  // everyone is in: forget the ticket
        return inst;
      }
    }
    // This thread opens. Its slot is reserved first, so that teammates who
    // arrive meanwhile poll the slot rather than queue on the lock.
    const int slot = team ? entries_.reserve(ticket, static_cast<std::uint32_t>(request.p - 1)) : -1;
    Instance* inst = nullptr;
    try {
      // Pull-mode instances are guarded like push-mode ones: the cursors
      // look at the deadline and move to the fallback arm (drive/cursor.hpp).
      inst = open_locked(request);
    } catch (...) {
      if (slot >= 0) entries_.cancel(slot);  // each teammate tries, and fails, on its own
      throw;
    }
    if (slot < 0) {
      if (inst->p_ > 1) entering_.push_back({ticket, inst, 1});
      return inst;
    }
    // The reserved slot is this thread's alone: it is published after the
    // unlock, whose fence would otherwise wait for the polling teammates to
    // give the slot's line back.
    lock.unlock();
    entries_.publish(slot, inst);
    return inst;
  }
}

bool Loop::prepare_fallback(Instance& inst, IndexRange rest) noexcept {
  std::lock_guard lock(mutex_);
  const TechniqueSpec& arm = inst.ticket_.fallback;
  const std::int64_t chunk = arm.chunk_for(rest.size(), inst.p_);
  const TechniqueSetup setup{arm.technique, LoopShape{rest.size(), inst.p_, chunk}, &inst.params_, measure::now()};
  if (inst.fallback_ == nullptr) inst.fallback_ = std::make_unique<Instance::Fallback>();
  prepare_dispenser(inst.fallback_->dispenser, setup, memory_, inst.fallback_->workspace);
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

inline void Loop::learn_and_notify(InstanceRecord& r, Ticket& t, DecisionGroup* group, TechniqueId ran, TechniqueId asked,
                            const CostProfile* measured, bool cut, bool failed) noexcept {
  if (t.owns) {
    if (failed) {
      group->abandon(t);
    } else {
      if (ran != asked) {
        if (const int arm = arm_that_ran(*t.slot, ran, t.arm); arm >= 0) t.decision.arm = arm;
      }
      Outcome outcome{r.metrics.loop_time_ns, r.metrics, cut};
      if (t.decision.profile) outcome.profile = measured;
      outcome.n = r.n;
      const auto learned = group->complete(t, outcome);
      r.selection_ns = learned.cost_ns;
      r.reward = learned.reward;
    }
  }
  if (detail::observed()) {
    detail::notify_instance_closed({r, name_.c_str(), ran, t.slot, t.slot != nullptr ? group : nullptr, measured});
  }
}

inline InstanceRecord& Loop::record_locked(const Closing& c, const Ticket& t) {
  if (!last_) last_.emplace();
  InstanceRecord& r = *last_;
  r.loop = name_;
  r.instance = c.index;
  r.technique = technique_info(c.ran).name;
  r.requested = technique_info(c.asked).name;
  r.chunk = c.chunk;
  r.exp_chunk = c.exp_chunk;
  r.n = c.n;
  r.p = c.p;
  r.start_ns = c.start_ns;
  r.selection_ns = 0;
  r.failed = c.failed;
  r.reward = std::numeric_limits<double>::quiet_NaN();
  r.selector = t.selector;
  r.explored = t.explored;
  r.cut_short = c.cut;
  return r;
}

void Loop::close(Instance& inst, bool release) noexcept {
  std::lock_guard lock(mutex_);
  // A failed instance ran on partial data: it must teach neither the loop's
  // memory nor its selector. (A cut trial's memory is partial too.)
  const bool failed = inst.failed_.load(std::memory_order_relaxed);
  // A profiling instance leaves its own cost profile or none (never an older one).
  if (inst.ran_ == TechniqueId::profiling) memory_.cost.reset();
  if (!failed && !inst.cut_) close_dispenser(inst.dispenser_, memory_);
  const CostProfile* measured = inst.ran_ == TechniqueId::profiling && memory_.cost ? &*memory_.cost : nullptr;
  InstanceRecord& r = record_locked({inst.index_, inst.n_, inst.p_, inst.spec_.technique, inst.ran_, inst.chunk_,
                                     inst.exp_chunk_, inst.start_ns_, inst.cut_, failed},
                                    inst.ticket_);
  r.threads.resize(static_cast<std::size_t>(inst.p_));
  for (int i = 0; i < inst.p_; ++i) r.threads[i] = inst.threads_[i].stats;
  r.metrics = compute_metrics(r.threads, inst.start_ns_);
  learn_and_notify(r, inst.ticket_, inst.group_, inst.ran_, inst.spec_.technique, measured, inst.cut_, failed);
  if (release) {
    inst.reset_for_pool();
    pool(&inst);
  }
}


InstanceRecord Loop::close(Plan& plan, const PlanOutcome& o) noexcept {
  std::lock_guard lock(mutex_);
  InstanceRecord& r = record_locked(
      {plan.index, plan.n, plan.p, plan.spec.technique, o.ran, o.chunk, o.exp_chunk, o.start_ns, o.cut, o.failed},
      plan.ticket);
  r.threads.assign(o.threads.begin(), o.threads.end());
  r.metrics = o.metrics;
  learn_and_notify(r, plan.ticket, plan.group, o.ran, plan.spec.technique, o.profile, o.cut, o.failed);
  plan.ticket = Ticket{};
  return r;
}

void Loop::release(Instance* inst) noexcept {
  inst->reset_for_pool();
  std::lock_guard lock(mutex_);
  pool(inst);
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
