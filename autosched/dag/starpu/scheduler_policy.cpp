#include <autosched/dag/starpu/scheduler_policy.hpp>

#include <autosched/core/error.hpp>

#include <starpu.h>
#include <starpu_scheduler.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <vector>

namespace autosched::dag::starpu {

// Locking. StarPU calls pop_task with the popping worker's own sched mutex
// held, and push_task / post_exec_hook from workers or the submitting
// thread. The policy has one mutex, taken after a worker's sched mutex and
// never the other way round: nothing here calls into StarPU while holding
// it except starpu_push_task_end() (which StarPU requires under the
// policy's lock and which takes no worker mutex). Waiting for it is
// bracketed by starpu_worker_relax_on/off so that other threads may take
// the waiting worker's sched mutex meanwhile (StarPU's rule for "a mutex
// other than its own"). Wake-ups, needed only with blocking drivers, are
// sent after the policy mutex is released.
struct SchedulerPolicy::State {
  State(const Problem& p, Scheduler& s, TaskIdOf id_of, std::uint64_t seed_)
      : problem(p),
        scheduler(s),
        task_id(std::move(id_of)),
        seed(seed_),
        processors(p.processors()),
        state(p.tasks(), TaskState::waiting),
        handle(p.tasks(), nullptr),
        worker_of(p.tasks(), -1),
        running(processors, no_task),
        expected_end(processors, 0),
        passed_at(std::make_unique<std::atomic<std::uint64_t>[]>(processors)) {
    for (std::size_t w = 0; w < processors; ++w) passed_at[w].store(0);
  }

  const Problem& problem;
  Scheduler& scheduler;
  TaskIdOf task_id;
  std::uint64_t seed;
  std::size_t processors;
  starpu_sched_policy policy{};

  mutable std::mutex mutex;
  std::vector<TaskState> state;
  std::vector<TaskId> ready;
  std::vector<starpu_task*> handle;
  std::vector<int> worker_of;
  std::vector<TaskId> running;
  std::vector<double> expected_end;
  std::chrono::steady_clock::time_point t0 = std::chrono::steady_clock::now();
  bool released = false;
  Stats stats;
  std::string error;

  // Read without the mutex by pop_task's fast path (polling drivers call it
  // in a loop): both are only advisory there, the decision re-checks them
  // under the mutex.
  std::atomic<std::size_t> ready_count{0};
  std::atomic<std::uint64_t> version{1};  ///< bumped by every push and completion
  std::unique_ptr<std::atomic<std::uint64_t>[]> passed_at;  ///< per worker: version of its last pass

  double now() const {
    if (!released) return 0;
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  }

  SchedulingView view(double at) {
    for (std::size_t p = 0; p < processors; ++p) {
      if (running[p] == no_task) expected_end[p] = at;
    }
    return {&problem, at, ready, running, expected_end, state};
  }

  void note_error(const std::string& what) {
    if (error.empty()) error = what;
  }

  TaskId id_of(const starpu_task* task) const {
    const TaskId id = task_id(task);
    if (id < 0 || static_cast<std::size_t>(id) >= state.size()) {
      // A task of another graph reached the policy: nothing sensible to do
      // with it, and no exception may cross StarPU.
      std::fprintf(stderr, "autosched StarPU policy: a task with id %d, but the graph has %zu tasks\n",
                   static_cast<int>(id), state.size());
      std::abort();
    }
    return id;
  }

  bool nothing_running() const {
    return std::all_of(running.begin(), running.end(), [](TaskId t) { return t == no_task; });
  }

  starpu_task* start(TaskId t, std::size_t w, double at) {
    const auto i = static_cast<std::size_t>(t);
    state[i] = TaskState::running;
    ready.erase(std::find(ready.begin(), ready.end(), t));
    ready_count.store(ready.size(), std::memory_order_release);
    running[w] = t;
    worker_of[i] = static_cast<int>(w);
    expected_end[w] = at + problem.expected_on(t, w);
    starpu_task* task = handle[i];
    handle[i] = nullptr;
    return task;
  }

  /// Processor `w` is idle: its decision, under the mutex.
  starpu_task* decide(std::size_t w) {
    if (ready.empty()) return nullptr;
    const std::uint64_t v = version.load(std::memory_order_relaxed);
    if (passed_at[w].load(std::memory_order_relaxed) == v) return nullptr;
    const double at = now();
    TaskId choice = pass;
    try {
      choice = scheduler.choose(view(at), w);
    } catch (const std::exception& e) {
      note_error("scheduler " + scheduler.name() + " threw in choose(): " + e.what());
      choice = ready.front();
    }
    ++stats.decisions;
    if (choice != pass) {
      const bool valid = choice >= 0 && static_cast<std::size_t>(choice) < state.size() &&
                         state[static_cast<std::size_t>(choice)] == TaskState::ready;
      if (!valid) {
        note_error("scheduler " + scheduler.name() + " chose task " + std::to_string(choice) + " for worker " +
                   std::to_string(w) + ", but that task is not ready");
        choice = ready.front();
      }
      return start(choice, w, at);
    }
    ++stats.passes;
    passed_at[w].store(v, std::memory_order_relaxed);
    // The no-stall rule: a scheduler cannot leave the machine idle with
    // tasks ready. Every processor is idle here; when all have passed since
    // the last event, this one runs the first ready task.
    if (nothing_running()) {
      bool all_passed = true;
      for (std::size_t p = 0; p < processors; ++p) all_passed = all_passed && passed_at[p].load() == v;
      if (all_passed) {
        ++stats.forced;
        return start(ready.front(), w, at);
      }
    }
    return nullptr;
  }

  void wake_all() {
#ifndef STARPU_NON_BLOCKING_DRIVERS
    for (std::size_t w = 0; w < processors; ++w) starpu_wake_worker_relax_light(static_cast<int>(w));
#endif
  }
};

namespace {

using State = SchedulerPolicy::State;

// The policy being installed: init_sched reads it and keeps it as the
// context's policy data; every other callback reads the context's data.
std::atomic<State*> installed{nullptr};

State* state_of(unsigned ctx) { return static_cast<State*>(starpu_sched_ctx_get_policy_data(ctx)); }

/// Takes the policy mutex from a StarPU thread (see "Locking" above).
std::unique_lock<std::mutex> lock_policy(State& s) {
  starpu_worker_relax_on();
  std::unique_lock<std::mutex> lock(s.mutex);
  starpu_worker_relax_off();
  return lock;
}

void init_sched(unsigned ctx) { starpu_sched_ctx_set_policy_data(ctx, installed.load()); }

void deinit_sched(unsigned ctx) { starpu_sched_ctx_set_policy_data(ctx, nullptr); }

void add_workers(unsigned ctx, int* workers, unsigned count) {
  // One central ready set: every worker may run every task.
  for (unsigned i = 0; i < count; ++i) starpu_sched_ctx_worker_shares_tasks_lists(workers[i], static_cast<int>(ctx));
}

int push_task(starpu_task* task) {
  State& s = *state_of(task->sched_ctx);
  const TaskId id = s.id_of(task);
  {
    auto lock = lock_policy(s);
    const auto i = static_cast<std::size_t>(id);
    s.state[i] = TaskState::ready;
    s.handle[i] = task;
    s.ready.push_back(id);
    try {
      s.scheduler.on_ready(s.view(s.now()), std::span<const TaskId>(&id, 1));
    } catch (const std::exception& e) {
      s.note_error("scheduler " + s.scheduler.name() + " threw in on_ready(): " + e.what());
    }
    s.ready_count.store(s.ready.size(), std::memory_order_release);
    s.version.fetch_add(1, std::memory_order_release);
    starpu_push_task_end(task);
  }
  s.wake_all();
  return 0;
}

starpu_task* pop_task(unsigned ctx) {
  State& s = *state_of(ctx);
  const int worker = starpu_worker_get_id_check();
  if (worker < 0 || static_cast<std::size_t>(worker) >= s.processors) return nullptr;
  const auto w = static_cast<std::size_t>(worker);
  // Fast path for polling drivers: nothing ready, or this worker passed and
  // nothing happened since.
  if (s.ready_count.load(std::memory_order_acquire) == 0) return nullptr;
  if (s.passed_at[w].load(std::memory_order_relaxed) == s.version.load(std::memory_order_acquire)) return nullptr;
  auto lock = lock_policy(s);
  return s.decide(w);
}

void post_exec_hook(starpu_task* task, unsigned ctx) {
  State& s = *state_of(ctx);
  const TaskId id = s.id_of(task);
  {
    auto lock = lock_policy(s);
    const auto i = static_cast<std::size_t>(id);
    const int w = s.worker_of[i];
    s.state[i] = TaskState::done;
    ++s.stats.finished;
    if (w >= 0) {
      const auto p = static_cast<std::size_t>(w);
      s.running[p] = no_task;
      try {
        s.scheduler.on_finish(s.view(s.now()), id, p);
      } catch (const std::exception& e) {
        s.note_error("scheduler " + s.scheduler.name() + " threw in on_finish(): " + e.what());
      }
    }
    s.version.fetch_add(1, std::memory_order_release);
  }
  s.wake_all();
}

}  // namespace

SchedulerPolicy::SchedulerPolicy(const Problem& problem, Scheduler& scheduler, TaskIdOf task_id, std::uint64_t seed)
    : state_(std::make_unique<State>(problem, scheduler, std::move(task_id), seed)) {
  State* expected = nullptr;
  if (!installed.compare_exchange_strong(expected, state_.get()))
    detail::throw_error("SchedulerPolicy: another StarPU policy of autosched exists in this process (StarPU 1.3 "
                        "selects one policy per starpu_init)");
  try {
    scheduler.start(problem, seed);
  } catch (...) {
    installed.store(nullptr);
    throw;
  }
  starpu_sched_policy& p = state_->policy;
  p.init_sched = init_sched;
  p.deinit_sched = deinit_sched;
  p.add_workers = add_workers;
  p.push_task = push_task;
  p.pop_task = pop_task;
  p.post_exec_hook = post_exec_hook;
  p.policy_name = "autosched";
  p.policy_description = "an autosched::dag scheduler (autosched/dag/starpu/scheduler_policy.hpp)";
  p.worker_type = STARPU_WORKER_LIST;
}

SchedulerPolicy::~SchedulerPolicy() {
  State* mine = state_.get();
  installed.compare_exchange_strong(mine, nullptr);
}

starpu_sched_policy* SchedulerPolicy::policy() noexcept { return &state_->policy; }

void SchedulerPolicy::release() {
  std::lock_guard<std::mutex> lock(state_->mutex);
  state_->t0 = std::chrono::steady_clock::now();
  state_->released = true;
}

SchedulerPolicy::Stats SchedulerPolicy::stats() const {
  std::lock_guard<std::mutex> lock(state_->mutex);
  return state_->stats;
}

std::string SchedulerPolicy::error() const {
  std::lock_guard<std::mutex> lock(state_->mutex);
  return state_->error;
}

}  // namespace autosched::dag::starpu
