#pragma once
// The real executor: runs a TiledFactorization on worker threads, one per
// processor of a platform, with the decisions of a Scheduler driven exactly
// as simulate() drives it (simulator.hpp): at every completion the idle
// workers are asked in processor order; a pass leaves that worker asleep
// until the next completion; when every idle worker passed and nothing
// runs, the first ready task goes to the first idle worker that can run it.
// The scheduler's clock is the real elapsed time, in the duration table's
// unit; expected_end comes from the table. One mutex guards the scheduler
// and the bookkeeping; kernels run outside it.
//
//   TiledFactorization f("cholesky", 8, 512);
//   auto table = calibrate("cholesky", 512);
//   auto s = make_scheduler("mct-prio");
//   ExecutionResult r = execute(f, platform("2cpu"), *s, table);
//   // r.makespan (ms), r.verified, r.overhead_per_task_us
//
// CPU workers only: a platform with GPUs is refused (no CUDA workers yet).
#include <autosched/dag/scheduler.hpp>
#include <autosched/dag/simulator.hpp>
#include <autosched/dag/tiled_factorization.hpp>

#include <cstdint>
#include <vector>

namespace autosched::dag {

struct ExecutorOptions {
  std::uint64_t seed = 1;     ///< passed to Scheduler::start (randomised schedulers)
  bool verify = true;         ///< compute the residual after the run (about n^3 flops)
  bool keep_schedule = true;  ///< fill ExecutionResult::schedule
};

struct ExecutionResult {
  /// From the executor's start (before Scheduler::start, so static planning
  /// counts) to the last kernel's end, in ms.
  double makespan = 0;
  std::size_t decisions = 0;  ///< calls to choose()
  std::size_t passes = 0;
  std::size_t forced = 0;  ///< tasks placed by the no-stall rule
  /// By task id: worker (= processor index) and the kernel's real start and
  /// end in ms since the executor's start (a Gantt chart).
  std::vector<ScheduledTask> schedule;
  double residual = 0;   ///< TiledFactorization::residual() (0 unless verified)
  double tolerance = 0;  ///< TiledFactorization::tolerance()
  bool verified = false; ///< options.verify and residual < tolerance

  /// Scheduling overhead, measured. scheduler_ms: time spent deciding: the
  /// scheduler's calls (start, on_ready, choose, on_finish) and the
  /// bookkeeping of the ready list around them. wake_ms: for
  /// each task, from the decision that placed it to its kernel's start
  /// (waking the worker, handing over the lock), summed. runtime_ms: time
  /// the executor's lock was held (the scheduler calls included).
  double scheduler_ms = 0, wake_ms = 0, runtime_ms = 0;
  /// (scheduler_ms + wake_ms) per task, in µs.
  double overhead_per_task_us = 0;
};

/// Runs every task of `f` once on `platform`'s processors as `scheduler`
/// decides, `expected` giving the durations it plans with (its unit: ms,
/// s, us or ns; calibrate() gives ms). Starts from f's current matrix (call
/// f.reset() between runs). The first exception of a kernel or of the
/// scheduler is rethrown here after every worker stopped; the remaining
/// tasks are then not run. A GPU processor's worker runs its tasks on a
/// GPU (gpu_tile_runner.hpp; Cholesky and LU kernels, QR's stay on CPUs).
/// Throws when the platform has GPUs and gpu_workers() is 0, when
/// `expected` lacks a kernel or gives a GPU duration to a kernel without a
/// GPU implementation, or when the scheduler picks a task that is not ready.
ExecutionResult execute(TiledFactorization& f, const Platform& platform, Scheduler& scheduler,
                        const DurationTable& expected, const ExecutorOptions& options = {});

/// How many GPUs GPU workers can use here: 0 without the CUDA toolkit at
/// build time (cmake/AutoschedCuda.cmake) or without a GPU at run time.
int gpu_workers() noexcept;

}  // namespace autosched::dag
