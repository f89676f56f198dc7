#include <autosched/loops/detail/loop_record.hpp>
#include <autosched/loops/loop_registry.hpp>
#include <autosched/loops/parallel_for.hpp>
#include <autosched/select/schedule_environment.hpp>

#include <autosched/core/clock.hpp>
#include <autosched/core/environment.hpp>
#include <autosched/core/error.hpp>
#include <autosched/core/text.hpp>
#include <autosched/measure/metrics.hpp>
#include <autosched/store/background_writer.hpp>
#include <autosched/store/log_files.hpp>
#include <autosched/store/store.hpp>
#include <autosched/store/trace_file.hpp>
#include <autosched/techniques/exp_chunk.hpp>

#include <omp.h>

#include <algorithm>
#include <bit>
#include <cstdio>
#include <functional>
#include <limits>
#include <map>
#include <mutex>
#include <shared_mutex>
#include <thread>
#include <utility>

namespace autosched {
namespace detail {

namespace {

/// The OpenMP level at which this thread runs chunks of an autosched loop,
/// -1 outside any body. A parallel_for called directly from a body (same
/// level) must open its own team: the other threads of the body's team will
/// never make the call. One called from a region the body opened itself (a
/// deeper level) work-shares with that region's team, like any other.
thread_local int body_level = -1;

/// A guarded trial reads the clock every this many chunks.
constexpr int guard_check_chunks = 8;

class Registry {
 public:
  LoopRecord& get(std::string_view id) {
    {
      std::shared_lock read(mutex_);
      if (auto it = loops_.find(id); it != loops_.end()) return *it->second;
    }
    std::unique_lock write(mutex_);
    auto [it, inserted] = loops_.try_emplace(std::string(id));
    if (inserted) it->second = std::make_unique<LoopRecord>(std::string(id));
    return *it->second;
  }
  LoopRecord* find(std::string_view id) {
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
  // Records live as long as the process: instance records point at their names.
  std::map<std::string, std::unique_ptr<LoopRecord>, std::less<>> loops_;
};

Registry& registry() {
  static auto* r = new Registry;  // never destroyed: loops may run during static destruction
  return *r;
}

/// Where finished instances go besides their loop's record: the store
/// (decision points' history and states), the trace file, the selectors'
/// logs. Started on first need; at exit every selector's state is saved and
/// the background writer drains.
struct Recording {
  TraceFile* trace = nullptr;
  bool trace_threads = false;
  LogFiles logs;
  /// The store is opened when the first decision point needs it: a program
  /// with fixed schedules only never touches a database.
  Store* store() {
    std::call_once(store_once, [this] { store_.store(Store::instance(), std::memory_order_release); });
    return store_.load(std::memory_order_acquire);
  }
  [[nodiscard]] Store* store_if_open() const noexcept { return store_.load(std::memory_order_acquire); }
  [[nodiscard]] bool active() const noexcept { return trace != nullptr || store_if_open() != nullptr || logs.used(); }

 private:
  std::once_flag store_once;
  std::atomic<Store*> store_{nullptr};
};

void finish_recording();

Recording& recording() {
  static Recording* r = [] {
    auto* rec = new Recording;  // lives as long as the process, like the writer
    if (auto path = environment::get("AUTOSCHED_TRACE"); path && !path->empty()) {
      try {
        rec->trace = new TraceFile(*path);
        BackgroundWriter::instance().add_sink(rec->trace);
      } catch (const Error& e) {
        warn(std::string(e.what()) + "; no trace for this run");
      }
    }
    const auto threads = environment::get("AUTOSCHED_TRACE_THREADS");
    rec->trace_threads = threads && *threads == "1";
    std::atexit(finish_recording);
    return rec;
  }();
  return *r;
}

void save_all_states() {
  for (const std::string& id : registry().ids()) {
    if (LoopRecord* record = registry().find(id)) record->save_states();
  }
}

void finish_recording() {
  if (!recording().active()) return;  // nothing was written: no writer thread to stop
  save_all_states();
  BackgroundWriter::instance().shutdown();
}

PointKey point_key(const LoopRecord& record, const PointSlot& slot) {
  return {slot.point->name(), record.name(), slot.bucket, slot.p, {}, slot.portfolio};
}

void flush_recording() {
  if (!recording().active()) return;
  save_all_states();
  BackgroundWriter::instance().drain();
}

}  // namespace

LoopRecord& loop_record(std::string_view loop) { return registry().get(loop); }
LoopRecord* find_loop(std::string_view loop) { return registry().find(loop); }

// ---------------------------------------------------------------- Instance

void Instance::fail(std::exception_ptr e) noexcept {
  bool expected = false;
  if (failed_.compare_exchange_strong(expected, true, std::memory_order_acq_rel)) {
    error_ = std::move(e);
    error_published_.store(true, std::memory_order_release);
  }
  cancelled_.store(true, std::memory_order_relaxed);
  // Dispensers that can stop themselves do so, so their loops need no flag.
  auto cancel = [](auto& d) {
    if constexpr (requires { d.cancel(); }) d.cancel();
  };
  std::visit(cancel, dispenser_);
  if (phase_.load(std::memory_order_acquire) == 2) std::visit(cancel, fallback_);
}

std::exception_ptr Instance::error() const noexcept {
  return error_published_.load(std::memory_order_acquire) ? error_ : nullptr;
}

template <class D>
void Instance::run_chunks(D& d, typename D::Worker& w, ThreadStats& st, const LoopCall& call) {
  if constexpr (std::is_same_v<D, ChunkSequence>) {
    // The deterministic techniques run their dispatch loop in the caller's
    // code with the body inlined (see SequenceRunner).
    if (call.run_sequence != nullptr) {
      call.run_sequence(call.body, d, begin_, n_, st);
      return;
    }
  }
  const ChunkRunner run = call.run;
  void* const body = call.body;
  const std::int64_t base = begin_;
  // The hot path: one dispenser call (one atomic RMW for non-adaptive
  // techniques), one read of a line nobody writes unless a body throws, and
  // one indirect call into the user's inlined iteration loop.
  while (!cancelled_.load(std::memory_order_relaxed)) {
    const IndexRange c = d.next(w);
    if (c.empty()) break;
    ++st.chunks;
    st.iterations += c.size();
    run(body, base + c.begin, base + c.end);
  }
}

template <class D>
void Instance::run_measured_chunks(D& d, typename D::Worker& w, ThreadStats& st, const LoopCall& call,
                                   std::int64_t base, bool guarded) {
  const ChunkRunner run = call.run;
  void* const body = call.body;
  const bool timed = D::timed || timing_ == Timing::chunks;
  std::int64_t requested = now_ns();
  if (timed && st.busy_ns < 0) st.busy_ns = 0;
  int until_check = guard_check_chunks;
  while (!cancelled_.load(std::memory_order_relaxed)) {
    const IndexRange c = d.next(w);
    if (c.empty()) break;
    ++st.chunks;
    st.iterations += c.size();
    if (timed) {
      const std::int64_t started = now_ns();
      run(body, base + c.begin, base + c.end);
      const std::int64_t done = now_ns();
      st.busy_ns += done - started;
      if constexpr (D::timed) d.completed(w, c, ChunkTiming{requested, started, done});
      requested = done;
      if (guarded && done > deadline_ns_) cut(d);
    } else {
      run(body, base + c.begin, base + c.end);
      // A guarded trial looks at the clock every few chunks, not every one.
      if (guarded && --until_check == 0) {
        until_check = guard_check_chunks;
        if (now_ns() > deadline_ns_) cut(d);
      }
    }
  }
}

template <class D>
void Instance::cut(D& d) noexcept {
  int expected = 0;
  if (!phase_.compare_exchange_strong(expected, 1, std::memory_order_acq_rel)) return;  // someone else did
  IndexRange rest;
  if constexpr (requires { d.take_rest(); }) rest = d.take_rest();
  // Publishes the fallback (release) before anyone may run it (acquire).
  phase_.store(!rest.empty() && record_->prepare_fallback(*this, rest) ? 2 : 3, std::memory_order_release);
}

void Instance::run_fallback(int tid, ThreadStats& st, const LoopCall& call) {
  int phase = phase_.load(std::memory_order_acquire);
  while (phase == 1) {  // another thread is planning the fallback: a few microseconds
    std::this_thread::yield();
    phase = phase_.load(std::memory_order_acquire);
  }
  if (phase != 2) return;
  std::visit(
      [&](auto& f) {
        if constexpr (!std::is_same_v<std::decay_t<decltype(f)>, std::monostate>) {
          auto fw = f.worker(tid, now_ns());
          run_measured_chunks(f, fw, st, call, begin_ + fallback_begin_, false);
        }
      },
      fallback_);
}

template <class D>
void Instance::run_worker(D& d, int tid, const LoopCall& call) noexcept {
  ThreadStats st;
  st.start_ns = now_ns();
  auto w = d.worker(tid, st.start_ns);
  const int outer = std::exchange(body_level, omp_get_level());
  const bool guarded = deadline_ns_ > 0;
  try {
    if (guarded || D::timed || timing_ == Timing::chunks) {
      run_measured_chunks(d, w, st, call, begin_, guarded);
    } else {
      run_chunks(d, w, st, call);
    }
    if (guarded) run_fallback(tid, st, call);
  } catch (...) {
    fail(std::current_exception());
  }
  body_level = outer;
  st.finish_ns = now_ns();
  if constexpr (requires { d.finished(w, st.finish_ns); }) d.finished(w, st.finish_ns);
  threads_[tid].stats = st;
}

void Instance::work(int tid, const LoopCall& call) noexcept {
  std::visit(
      [&](auto& d) {
        if constexpr (!std::is_same_v<std::decay_t<decltype(d)>, std::monostate>) run_worker(d, tid, call);
      },
      dispenser_);
  // acq_rel: the closing thread sees every worker's stats and dispenser writes.
  const int p = p_;
  if (finished_.fetch_add(1, std::memory_order_acq_rel) + 1 == p) record_->close(*this);
}

// ---------------------------------------------------------------- LoopRecord

const Schedule& LoopRecord::resolve_schedule(const LoopOptions& options) {
  if (!options.schedule.empty()) {
    if (!option_schedule_ || option_text_ != options.schedule) {
      // RL keys from KMP_RL_* / LB4MPI_RL_* fill what the code leaves unset.
      option_schedule_ = parse_schedule(schedule_environment().with_rl_keys(options.schedule), "LoopOptions::schedule");
      option_text_ = options.schedule;
    }
    return *option_schedule_;
  }
  const std::uint64_t generation = schedule_environment_generation();
  if (generation != env_generation_) {
    const Schedule* s = schedule_environment().for_loop(name_);
    env_schedule_ = s != nullptr ? *s : default_schedule();
    env_generation_ = generation;
  }
  return env_schedule_;
}

void LoopRecord::prepare(Instance& inst, int p) {
  inst.p_ = p;
  if (inst.expert_) inst.chunk_ = exp_chunk(inst.n_, p);
  inst.exp_chunk_ = inst.expert_ && inst.chunk_ > 0;
  if (p > inst.thread_capacity_) {
    inst.threads_ = std::make_unique<Instance::ThreadSlot[]>(static_cast<std::size_t>(p));
    inst.thread_capacity_ = p;
  }
  for (int i = 0; i < p; ++i) inst.threads_[i].stats = {};
  const TechniqueSetup setup{inst.requested_, LoopShape{inst.n_, p, inst.chunk_}, &inst.params_, inst.start_ns_};
  PreparedTechnique prepared = prepare_dispenser(inst.dispenser_, setup, memory_, inst.workspace_);
  inst.technique_ = prepared.ran;
  if (!prepared.fallback.empty() && warned_.insert(inst.requested_).second) {
    warn("loop '" + name_ + "': " + prepared.fallback);
  }
}

Instance* LoopRecord::open(const LoopCall& call, std::int64_t n, int p) {
  std::lock_guard lock(mutex_);
  const LoopOptions& o = *call.options;
  const Schedule& schedule = resolve_schedule(o);
  std::unique_ptr<Instance> owned;
  if (pool_.empty()) {
    owned = std::make_unique<Instance>();
  } else {
    owned = std::move(pool_.back());
    pool_.pop_back();
  }
  Instance& inst = *owned;
  inst.record_ = this;
  inst.index_ = instances_++;
  inst.begin_ = call.begin;
  inst.n_ = n;
  inst.timing_ = o.timing;
  inst.requested_ = schedule.fixed.technique;
  inst.expert_ = schedule.fixed.expert_chunk;
  inst.chunk_ = schedule.fixed.chunk;
  inst.params_ = schedule.fixed.params;
  if (schedule.selection) choose_arm(inst, *schedule.selection, n, p);
  if (o.profile) {
    if (!inst.params_.mu_ns) inst.params_.mu_ns = o.profile->mu_ns;
    if (!inst.params_.sigma_ns) inst.params_.sigma_ns = o.profile->sigma_ns;
    if (!inst.params_.overhead_ns) inst.params_.overhead_ns = o.profile->overhead_ns;
  }
  if (inst.params_.weights.empty() && !o.weights.empty())
    inst.params_.weights.assign(o.weights.begin(), o.weights.end());
  inst.start_ns_ = now_ns();
  prepare(inst, p);
  inst.start_ns_ = now_ns();  // planning is part of opening, not of the loop
  if (inst.slot_ != nullptr && inst.decision_.budget_ns > 0 && inst.decision_.fallback >= 0) {
    inst.deadline_ns_ = inst.start_ns_ + static_cast<std::int64_t>(inst.decision_.budget_ns);
    inst.fallback_arm_ = inst.slot_->point->arms()[static_cast<std::size_t>(inst.decision_.fallback)];
  }
  return owned.release();
}

void LoopRecord::reopen(Instance& inst, int p) noexcept {
  std::lock_guard lock(mutex_);
  prepare(inst, p);
}

void LoopRecord::close(Instance& inst) noexcept {
  std::lock_guard lock(mutex_);
  // A failed instance ran on partial data: it must teach neither the loop's
  // memory nor its selector. (A cut trial's memory is partial too.)
  const bool failed = inst.failed_.load(std::memory_order_relaxed);
  if (!failed && !inst.cut_) close_dispenser(inst.dispenser_, memory_);
  if (!last_) last_.emplace();
  InstanceRecord& r = *last_;
  r.loop = name_;
  r.instance = inst.index_;
  r.technique = technique_info(inst.technique_).name;
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
  r.selector = inst.selector_;
  r.explored = inst.explored_;
  r.cut_short = inst.cut_;
  if (inst.slot_ != nullptr) {
    if (!failed) {
      inst.slot_->point->observe(inst.decision_, Outcome{r.metrics.loop_time_ns, r.metrics, inst.cut_});
      r.selection_ns = inst.slot_->point->last_cost_ns();
      r.reward = inst.slot_->point->selector().last_reward();
    }
    inst.slot_->in_flight = false;
  }
  Recording& rec = recording();
  if (!rec.active()) return;
  InstanceRow row;
  row.loop = name_.c_str();
  row.instance = r.instance;
  row.technique = technique_info(inst.technique_).name.data();
  row.chunk = r.chunk;
  row.exp_chunk = r.exp_chunk;
  row.n = r.n;
  row.p = r.p;
  row.metrics = r.metrics;
  row.selector_ns = r.selection_ns;
  row.reward = r.reward;
  row.selector = inst.selector_.empty() ? "" : inst.selector_.data();
  row.explored = r.explored;
  row.cut_short = r.cut_short;
  row.failed = r.failed;
  if (inst.slot_ != nullptr) {
    if (rec.trace != nullptr) {
      const std::string state = inst.slot_->point->selector().summary();
      std::snprintf(row.selector_state, sizeof row.selector_state, "%s", state.c_str());
    }
    row.portfolio = inst.slot_->portfolio.c_str();
    row.selector_config = inst.slot_->config.text.c_str();
    row.bucket = inst.slot_->bucket;
  }
  BackgroundWriter::instance().post(row);
  if (rec.trace != nullptr && rec.trace_threads) {
    BackgroundWriter::instance().post_task([trace = rec.trace, loop = name_, index = r.instance, threads = r.threads,
                                            start = r.start_ns] { trace->write_threads(loop, index, threads, start); });
  }
  // A snapshot now and then, so that a crash loses little of what was learned.
  Store* store = rec.store_if_open();
  if (store != nullptr && inst.slot_ != nullptr && inst.slot_->point->instances() % 64 == 0) {
    std::string state = inst.slot_->point->selector().save_state();
    if (!state.empty()) store->save_state(point_key(*this, *inst.slot_), inst.slot_->config.text, std::move(state));
  }
}

void LoopRecord::release(Instance* inst) noexcept {
  inst->dispenser_.emplace<std::monostate>();
  inst->fallback_.emplace<std::monostate>();
  inst->phase_.store(0, std::memory_order_relaxed);
  inst->deadline_ns_ = 0;
  inst->cut_ = false;
  inst->slot_ = nullptr;
  inst->selector_ = {};
  inst->explored_ = false;
  inst->cancelled_.store(false, std::memory_order_relaxed);
  inst->finished_.store(0, std::memory_order_relaxed);
  inst->left_.store(0, std::memory_order_relaxed);
  inst->failed_.store(false, std::memory_order_relaxed);
  inst->error_published_.store(false, std::memory_order_relaxed);
  inst->error_ = nullptr;
  std::lock_guard lock(mutex_);
  pool_.emplace_back(inst);
}

std::optional<InstanceRecord> LoopRecord::last() const {
  std::lock_guard lock(mutex_);
  return last_;
}

LoopMemory LoopRecord::memory() const {
  std::lock_guard lock(mutex_);
  return memory_;
}

void LoopRecord::save_states() const {
  Store* store = recording().store_if_open();
  if (store == nullptr) return;
  std::lock_guard lock(mutex_);
  for (const auto& slot : points_) {
    std::string state = slot->point->selector().save_state();
    if (!state.empty()) store->save_state(point_key(*this, *slot), slot->config.text, std::move(state));
  }
}

std::string LoopRecord::selector_state(std::int64_t n, int p) const {
  std::lock_guard lock(mutex_);
  const int bucket = static_cast<int>(std::bit_width(static_cast<std::uint64_t>(n)));
  for (const auto& slot : points_) {
    if (slot->bucket == bucket && slot->p == p) return slot->point->selector().save_state();
  }
  return {};
}

PointSlot& LoopRecord::point_for(const SelectorConfig& config, std::int64_t n, int p) {
  const int bucket = static_cast<int>(std::bit_width(static_cast<std::uint64_t>(n)));
  for (const auto& slot : points_) {
    if (slot->bucket == bucket && slot->p == p && slot->config == config) return *slot;
  }
  auto slot = std::make_unique<PointSlot>();
  slot->bucket = bucket;
  slot->p = p;
  slot->config = config;
  const Context context{n, p, {}};
  Portfolio arms = selector_portfolio(config, context);
  // One seed per loop and point: runs repeat, loops differ.
  std::uint64_t seed = 1469598103934665603ULL;
  for (unsigned char c : name_) seed = (seed ^ c) * 1099511628211ULL;
  seed ^= static_cast<std::uint64_t>(bucket) << 32 ^ static_cast<std::uint64_t>(p);
  std::string point_name = name_ + "#" + std::to_string(bucket) + "/" + std::to_string(p);
  for (std::size_t i = 0; i < arms.size(); ++i) {
    if (i > 0) slot->portfolio += ',';
    slot->portfolio += arms[i].label();
  }
  Recording& rec = recording();
  auto selector = make_selector(config, arms, seed, &rec.logs, point_name);
  slot->point = std::make_unique<DecisionPoint>(std::move(point_name), std::move(arms), std::move(selector));
  // Warm start: resume from what an earlier run of this program learned here.
  if (Store* store = rec.store()) {
    if (auto state = store->load_state(point_key(*this, *slot), config.text)) {
      slot->point->selector().load_state(*state);
    }
  }
  points_.push_back(std::move(slot));
  return *points_.back();
}

void LoopRecord::choose_arm(Instance& inst, const SelectorConfig& config, std::int64_t n, int p) {
  PointSlot& slot = point_for(config, n, p);
  if (slot.in_flight) {
    inst.decision_ = Decision{slot.last_arm, 0, -1, false};  // follow, do not decide
  } else {
    inst.decision_ = slot.point->choose(Context{n, p, {}});
    slot.in_flight = true;
    slot.last_arm = inst.decision_.arm;
    inst.slot_ = &slot;
    inst.explored_ = inst.decision_.exploring;
  }
  const TechniqueSpec& arm = slot.point->arms()[static_cast<std::size_t>(inst.decision_.arm)];
  inst.requested_ = arm.technique;
  inst.chunk_ = arm.chunk;
  inst.expert_ = arm.expert_chunk;
  inst.selector_ = slot.point->selector().name();
}

bool LoopRecord::prepare_fallback(Instance& inst, IndexRange rest) noexcept {
  std::lock_guard lock(mutex_);
  const TechniqueSpec& arm = inst.fallback_arm_;
  const std::int64_t chunk = arm.expert_chunk ? exp_chunk(rest.size(), inst.p_) : arm.chunk;
  const TechniqueSetup setup{arm.technique, LoopShape{rest.size(), inst.p_, chunk}, &inst.params_, now_ns()};
  prepare_dispenser(inst.fallback_, setup, memory_, inst.fallback_workspace_);
  inst.fallback_begin_ = rest.begin;
  inst.cut_ = true;
  return true;
}

// ---------------------------------------------------------------- run_loop

namespace {

std::string_view loop_id(const LoopCall& call, char (&buffer)[512]) {
  if (!call.options->name.empty()) return call.options->name;
  const int len = std::snprintf(buffer, sizeof buffer, "%s:%u:%u", call.where.file_name(),
                                static_cast<unsigned>(call.where.line()), static_cast<unsigned>(call.where.column()));
  return {buffer, static_cast<std::size_t>(std::clamp(len, 0, static_cast<int>(sizeof buffer) - 1))};
}

/// The calling thread opens a team of `p` (or runs alone when p = 1).
void open_team(LoopRecord& record, const LoopCall& call, std::int64_t n, int p) {
  Instance* inst = record.open(call, n, p);
  if (p == 1) {
    inst->work(0, call);
  } else {
    const int planned = p;
#pragma omp parallel num_threads(p)
    {
      const int team = omp_get_num_threads();
      if (team != planned) {
        // Fewer threads than asked (OMP_DYNAMIC, thread limits): plan again.
#pragma omp single
        record.reopen(*inst, team);
      }
      inst->work(omp_get_thread_num(), call);  // an opened team shares the caller's body
    }
  }
  std::exception_ptr error = inst->error();
  record.release(inst);
  if (error) std::rethrow_exception(error);
}

/// Every thread of the enclosing team calls this (work-sharing).
void join_team(LoopRecord& record, const LoopCall& call, std::int64_t n) {
  Instance* inst = nullptr;
  std::exception_ptr open_error;
#pragma omp single copyprivate(inst, open_error)
  {
    try {
      inst = record.open(call, n, omp_get_num_threads());
    } catch (...) {
      open_error = std::current_exception();
    }
  }
  if (open_error) std::rethrow_exception(open_error);
  inst->work(omp_get_thread_num(), call);  // this thread's own body
  if (!call.options->nowait) {
#pragma omp barrier
  }
  std::exception_ptr error = inst->error();
  if (inst->leave()) record.release(inst);
  if (error) std::rethrow_exception(error);
}

}  // namespace

void run_loop(const LoopCall& call) {
  const LoopOptions& o = *call.options;
  const int128 span = int128{call.end} - call.begin;
  if (span > max_iterations) {
    throw_error("parallel_for: [" + std::to_string(call.begin) + ", " + std::to_string(call.end) +
                ") has more than 2^62 iterations");
  }
  if (o.threads < 0 || o.threads > max_workers) {
    throw_error(text::bad_value("LoopOptions::threads", std::to_string(o.threads),
                                "0 (OpenMP's default) or a team size in [1, " + std::to_string(max_workers) + "]"));
  }
  const std::int64_t n = span > 0 ? static_cast<std::int64_t>(span) : 0;
  char buffer[512];
  LoopRecord& record = registry().get(loop_id(call, buffer));

  const bool join =
      o.team == Team::join || (o.team == Team::automatic && omp_in_parallel() && omp_get_level() > body_level);
  if (join) {
    join_team(record, call, n);
    return;
  }
  int p = o.threads > 0 ? o.threads : omp_get_max_threads();
  // With nested parallelism exhausted the runtime would give one thread anyway.
  if (omp_get_active_level() >= omp_get_max_active_levels()) p = 1;
  open_team(record, call, n, std::min(p, max_workers));
}

}  // namespace detail

std::optional<InstanceRecord> last_instance(std::string_view loop) {
  detail::LoopRecord* record = detail::find_loop(loop);
  return record != nullptr ? record->last() : std::nullopt;
}

std::string call_site_id(const SourceLocation& where) {
  return std::string(where.file_name()) + ":" + std::to_string(where.line()) + ":" + std::to_string(where.column());
}

std::vector<std::string> loop_ids() { return detail::registry().ids(); }

void flush_records() { detail::flush_recording(); }

}  // namespace autosched
