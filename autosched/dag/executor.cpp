#include <autosched/dag/executor.hpp>

#include <autosched/dag/detail/decision_state.hpp>
#if AUTOSCHED_DAG_CUDA
#include <autosched/dag/gpu_tile_runner.hpp>
#endif

#include <autosched/core/error.hpp>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <memory>
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
  autosched::detail::throw_error("execute: duration table '" + table.name + "' has unit '" + u +
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
        options_(options),
        units_per_ms_(units_per_ms(table)),
        processors_(platform.size()),
        state_(problem_, scheduler),
        assigned_(processors_, no_task),
        placed_at_(processors_),
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
        // The simulator derives the scheduler's seed the same way: one seed, one random stream.
        timed([&] { state_.begin(options_.seed ^ 0x5eedf00dULL, elapsed_units(entered)); });
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
    r.decisions = state_.decisions();
    r.passes = state_.passes();
    r.forced = state_.forced();
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
#if AUTOSCHED_DAG_CUDA
    // A GPU processor's worker drives its own device (GPUs are listed
    // first, so processor p is the p-th GPU), from this thread only.
    std::unique_ptr<GpuTileRunner> gpu;
    if (problem_.platform.kind(p) == ResourceKind::gpu) {
      try {
        gpu = std::make_unique<GpuTileRunner>(static_cast<int>(p) % GpuTileRunner::devices(), f_.tile_size());
      } catch (...) {
        std::lock_guard lock(mutex_);
        stop_all(std::current_exception());
        return;
      }
    }
#endif
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
#if AUTOSCHED_DAG_CUDA
        if (gpu) {
          gpu->run(f_, t);
        } else {
          f_.run(t);
        }
#else
        f_.run(t);
#endif
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
          timed([&] {
            state_.complete(t, p, elapsed_units(Clock::now()));
            state_.announce_ready();
          });
          dispatch();
        } catch (...) {
          stop_all(std::current_exception());
        }
        if (state_.finished()) stop_all(nullptr);
      }
      runtime_ += Clock::now() - entered;
      if (stop_) return;
    }
  }

  /// The decisions of this instant (the simulator's, detail/decision_state.hpp):
  /// every task started goes to its worker.
  void dispatch() {
    timed([&] {
      state_.decide(elapsed_units(Clock::now()), [&](TaskId t, std::size_t p, double) {
        assigned_[p] = t;
        placed_at_[p] = Clock::now();
        wake_[p].notify_one();
      });
    });
  }

  TiledFactorization& f_;
  const TaskGraph& graph_;
  const Problem problem_;
  const ExecutorOptions& options_;
  const double units_per_ms_;
  const std::size_t processors_;
  Clock::time_point t0_;

  std::mutex mutex_;
  bool stop_ = false;
  std::exception_ptr error_;
  detail::DecisionState state_;   ///< what runs where, the ready list, the scheduler's questions
  std::vector<TaskId> assigned_;  ///< per processor: placed, not yet taken by its worker
  std::vector<Clock::time_point> placed_at_;
  std::vector<std::condition_variable> wake_;  ///< per worker
  std::condition_variable finished_;           ///< the caller waits for stop_

  std::vector<ScheduledTask> schedule_;
  double makespan_ = 0;
  Clock::duration scheduler_time_{}, wake_time_{}, runtime_{};
};

}  // namespace

int gpu_workers() noexcept {
#if AUTOSCHED_DAG_CUDA
  return GpuTileRunner::devices();
#else
  return 0;
#endif
}

ExecutionResult execute(TiledFactorization& f, const Platform& platform, Scheduler& scheduler,
                        const DurationTable& expected, const ExecutorOptions& options) {
  if (platform.size() == 0) autosched::detail::throw_error("execute: the platform has no processor");
  if (const int gpus = platform.count(ResourceKind::gpu); gpus > 0) {
    const std::string instead =
        ": use a platform such as '" + std::to_string(platform.count(ResourceKind::cpu) + gpus) + "cpu'";
#if AUTOSCHED_DAG_CUDA
    if (GpuTileRunner::devices() == 0)
      autosched::detail::throw_error("execute: platform " + platform.describe() + " has " + std::to_string(gpus) +
                                     " GPU processor(s), but the CUDA runtime sees no GPU here" + instead);
    // A GPU duration for a kernel without a GPU implementation would let
    // a scheduler send it there.
    for (const std::string& k : f.graph().kernel_names()) {
      const auto it = expected.kernels.find(k);
      if (it != expected.kernels.end() && it->second[static_cast<std::size_t>(ResourceKind::gpu)] != not_available &&
          !GpuTileRunner::supports(k))
        autosched::detail::throw_error("execute: duration table '" + expected.name + "' gives kernel " + k +
                                       " a GPU duration, but it has no GPU implementation (write '-')");
    }
#else
    autosched::detail::throw_error("execute: platform " + platform.describe() + " has " + std::to_string(gpus) +
                                   " GPU processor(s); this build has CPU workers only (the CUDA toolkit was not "
                                   "found when it was configured)" + instead);
#endif
  }
  return Execution(f, platform, scheduler, expected, options).run();
}

}  // namespace autosched::dag
