#include <autosched/dag/executor.hpp>

#include <autosched/core/error.hpp>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>

namespace autosched::dag {

namespace {

using Clock = std::chrono::steady_clock;
using Millis = std::chrono::duration<double, std::milli>;

/// How many of the table's time units make one millisecond.
double units_per_ms(const DurationTable& table) {
  const std::string& u = table.unit;
  if (u == "ms") return 1;
  if (u == "s") return 1e-3;
  if (u == "us" || u == "µs") return 1e3;
  if (u == "ns") return 1e6;
  detail::throw_error("execute: duration table '" + table.name + "' has unit '" + u +
                      "': expected ms, s, us or ns (real time; calibrate() gives ms)");
}

/// One execution. Everything below `mutex_` is guarded by it, except what a
/// worker does between taking its task and locking again (the kernel).
class Execution {
 public:
  Execution(TiledFactorization& f, const Platform& platform, Scheduler& scheduler, const DurationTable& table,
            const ExecutorOptions& options)
      : f_(f),
        graph_(f.graph()),
        problem_(graph_, platform, table),
        scheduler_(scheduler),
        options_(options),
        units_per_ms_(units_per_ms(table)),
        processors_(platform.size()),
        running_(processors_, no_task),
        assigned_(processors_, no_task),
        placed_at_(processors_),
        expected_end_(processors_, 0),
        state_(graph_.size(), TaskState::waiting),
        waiting_for_(graph_.size()),
        placed_on_(graph_.size(), -1),
        wake_(processors_) {
    if (options_.keep_schedule) schedule_.assign(graph_.size(), {});
  }

  ExecutionResult run() {
    std::vector<std::thread> workers;
    workers.reserve(processors_);
    // Whatever happens below (a worker that fails to start, a scheduler
    // that throws in start()), every worker is told to stop and joined
    // before the exception leaves.
    struct Joiner {
      Execution& e;
      std::vector<std::thread>& threads;
      ~Joiner() {
        {
          std::lock_guard lock(e.mutex_);
          e.stop_all(nullptr);
        }
        for (auto& t : threads)
          if (t.joinable()) t.join();
      }
    } joiner{*this, workers};

    t0_ = Clock::now();  // before the threads start: they read it without the lock
    for (std::size_t p = 0; p < processors_; ++p) workers.emplace_back([this, p] { worker(p); });
    {
      std::unique_lock lock(mutex_);
      const auto entered = Clock::now();
      try {
        now_ = elapsed_units(entered);
        // The simulator derives the scheduler's seed the same way: one seed, one random stream.
        timed([&] { scheduler_.start(problem_, options_.seed ^ 0x5eedf00dULL); });
        now_ = elapsed_units(Clock::now());
        std::vector<TaskId> sources;
        for (std::size_t t = 0; t < graph_.size(); ++t) {
          waiting_for_[t] = static_cast<std::uint32_t>(graph_.predecessors(static_cast<TaskId>(t)).size());
          if (waiting_for_[t] == 0) sources.push_back(static_cast<TaskId>(t));
        }
        make_ready(sources);
        dispatch();
      } catch (...) {
        stop_all(std::current_exception());
      }
      runtime_ += Clock::now() - entered;
      finished_.wait(lock, [&] { return stop_; });
    }
    for (auto& t : workers) t.join();
    if (error_) std::rethrow_exception(error_);

    ExecutionResult r;
    r.makespan = makespan_;
    r.decisions = decisions_;
    r.passes = passes_;
    r.forced = forced_;
    r.schedule = std::move(schedule_);
    r.scheduler_ms = Millis(scheduler_time_).count();
    r.wake_ms = Millis(wake_time_).count();
    r.runtime_ms = Millis(runtime_).count();
    r.overhead_per_task_us = graph_.size() == 0 ? 0 : (r.scheduler_ms + r.wake_ms) * 1e3 / static_cast<double>(graph_.size());
    r.tolerance = f_.tolerance();
    if (options_.verify) {
      r.residual = f_.residual();
      r.verified = r.residual < r.tolerance;  // false for NaN too
    }
    return r;
  }

 private:
  double elapsed_ms(Clock::time_point t) const { return Millis(t - t0_).count(); }
  double elapsed_units(Clock::time_point t) const { return elapsed_ms(t) * units_per_ms_; }

  template <class F>
  void timed(F&& call) {
    const auto start = Clock::now();
    call();
    scheduler_time_ += Clock::now() - start;
  }

  /// Stops every worker; the first error (if any) is the one rethrown.
  /// Called with mutex_ held.
  void stop_all(std::exception_ptr error) {
    if (error && !error_) error_ = error;
    stop_ = true;
    for (auto& cv : wake_) cv.notify_all();
    finished_.notify_all();
  }

  void worker(std::size_t p) {
    std::unique_lock lock(mutex_);
    for (;;) {
      wake_[p].wait(lock, [&] { return stop_ || assigned_[p] != no_task; });
      if (stop_) return;
      const TaskId t = assigned_[p];
      assigned_[p] = no_task;
      const auto placed = placed_at_[p];
      lock.unlock();

      const auto begin = Clock::now();
      std::exception_ptr error;
      try {
        f_.run(t);
      } catch (...) {
        error = std::current_exception();
      }
      const auto end = Clock::now();

      lock.lock();
      const auto entered = Clock::now();
      wake_time_ += begin - placed;
      if (options_.keep_schedule)
        schedule_[static_cast<std::size_t>(t)] = {t, static_cast<int>(p), elapsed_ms(begin), elapsed_ms(end)};
      makespan_ = std::max(makespan_, elapsed_ms(end));
      if (error) {
        stop_all(error);
      } else if (!stop_) {
        try {
          complete(t, p);
          dispatch();
        } catch (...) {
          stop_all(std::current_exception());
        }
        if (done_ == graph_.size()) stop_all(nullptr);
      }
      runtime_ += Clock::now() - entered;
      if (stop_) return;
    }
  }

  SchedulingView view() const { return {&problem_, now_, ready_, running_, expected_end_, state_}; }

  bool nothing_running() const {
    return std::all_of(running_.begin(), running_.end(), [](TaskId t) { return t == no_task; });
  }

  TaskId first_ready_for(std::size_t p) const {
    for (TaskId t : ready_)
      if (problem_.runs_on(t, p)) return t;
    return pass;
  }

  /// The simulator's event loop for one instant: idle processors in index
  /// order, a pass moves to the next one, and the no-stall rule.
  void dispatch() {
    std::size_t cur = 0;
    for (;;) {
      while (cur < processors_ && running_[cur] != no_task) ++cur;
      if (ready_.empty() || cur == processors_) {
        if (!nothing_running() || done_ == graph_.size()) return;
        cur = force_first_ready();
        continue;
      }
      TaskId choice = pass;
      timed([&] { choice = scheduler_.choose(view(), cur); });
      ++decisions_;
      if (choice == pass) {
        ++passes_;
        ++cur;
        continue;
      }
      start_task(choice, cur);
    }
  }

  std::size_t force_first_ready() {
    for (std::size_t p = 0; p < processors_; ++p) {
      if (running_[p] != no_task) continue;
      const TaskId t = first_ready_for(p);
      if (t == pass) continue;
      ++forced_;
      start_task(t, p);
      return p;
    }
    detail::throw_error("execute: no idle worker of " + problem_.platform.describe() +
                        " can run a ready task (scheduler " + scheduler_.name() + ")");
  }

  void start_task(TaskId t, std::size_t p) {
    const auto i = static_cast<std::size_t>(t);
    if (t < 0 || i >= graph_.size() || state_[i] != TaskState::ready)
      detail::throw_error("scheduler " + scheduler_.name() + " chose task " + std::to_string(t) + " for worker " +
                          std::to_string(p) + " at time " + std::to_string(now_) + ", but that task is not ready");
    if (!problem_.runs_on(t, p))
      detail::throw_error("scheduler " + scheduler_.name() + " chose task " + std::to_string(t) + " (" +
                          graph_.kernel_name(t) + ") for a " + std::string(to_string(problem_.platform.kind(p))) +
                          ", which has no implementation of it");
    state_[i] = TaskState::running;
    ready_.erase(std::find(ready_.begin(), ready_.end(), t));
    const double transfer = problem_.input_transfer(t, p, placed_on_);
    placed_on_[i] = static_cast<int>(p);
    running_[p] = t;
    expected_end_[p] = now_ + transfer + problem_.expected_on(t, p);
    assigned_[p] = t;
    placed_at_[p] = Clock::now();
    wake_[p].notify_one();
  }

  /// Task t ended on worker p: the simulator's advance() for one completion.
  void complete(TaskId t, std::size_t p) {
    now_ = elapsed_units(Clock::now());
    running_[p] = no_task;
    expected_end_[p] = now_;
    state_[static_cast<std::size_t>(t)] = TaskState::done;
    ++done_;
    newly_ready_.clear();
    for (TaskId s : graph_.successors(t))
      if (--waiting_for_[static_cast<std::size_t>(s)] == 0) newly_ready_.push_back(s);
    timed([&] { scheduler_.on_finish(view(), t, p); });
    for (std::size_t q = 0; q < processors_; ++q)
      if (running_[q] == no_task) expected_end_[q] = now_;
    std::sort(newly_ready_.begin(), newly_ready_.end());
    make_ready(newly_ready_);
  }

  void make_ready(const std::vector<TaskId>& tasks) {
    if (tasks.empty()) return;
    for (TaskId t : tasks) {
      state_[static_cast<std::size_t>(t)] = TaskState::ready;
      ready_.push_back(t);
    }
    timed([&] { scheduler_.on_ready(view(), tasks); });
  }

  TiledFactorization& f_;
  const TaskGraph& graph_;
  const Problem problem_;
  Scheduler& scheduler_;
  const ExecutorOptions& options_;
  const double units_per_ms_;
  const std::size_t processors_;
  Clock::time_point t0_;

  std::mutex mutex_;
  bool stop_ = false;
  std::exception_ptr error_;
  double now_ = 0;
  std::size_t done_ = 0;
  std::vector<TaskId> ready_, newly_ready_;
  std::vector<TaskId> running_;   ///< per processor: the task the scheduler sees running there
  std::vector<TaskId> assigned_;  ///< per processor: placed, not yet taken by its worker
  std::vector<Clock::time_point> placed_at_;
  std::vector<double> expected_end_;
  std::vector<TaskState> state_;
  std::vector<std::uint32_t> waiting_for_;
  std::vector<int> placed_on_;
  std::vector<std::condition_variable> wake_;  ///< per worker
  std::condition_variable finished_;           ///< the caller waits for stop_

  std::vector<ScheduledTask> schedule_;
  double makespan_ = 0;
  std::size_t decisions_ = 0, passes_ = 0, forced_ = 0;
  Clock::duration scheduler_time_{}, wake_time_{}, runtime_{};
};

}  // namespace

ExecutionResult execute(TiledFactorization& f, const Platform& platform, Scheduler& scheduler,
                        const DurationTable& expected, const ExecutorOptions& options) {
  if (platform.size() == 0) detail::throw_error("execute: the platform has no processor");
  if (const int gpus = platform.count(ResourceKind::gpu); gpus > 0)
    detail::throw_error("execute: platform " + platform.describe() + " has " + std::to_string(gpus) +
                        " GPU processor(s); this executor has CPU workers only (no CUDA workers in this build): "
                        "use a platform such as '" + std::to_string(platform.count(ResourceKind::cpu) + gpus) + "cpu'");
  return Execution(f, platform, scheduler, expected, options).run();
}

}  // namespace autosched::dag
