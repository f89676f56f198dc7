#pragma once
/// @file
/// Per-thread speed, the signal the pinning manager learns from. Sources,
/// best first:
///  1. heartbeats: the application counts units of useful work per thread
///     (an atomic counter); speed = beats per second. Proportional to
///     progress, so it also sees cache and memory effects.
///  2. PAPI instructions per second (PAPI_TOT_INS): what the authors used.
///     Needs libpapi at build time (AUTOSCHED_HAVE_PAPI) and a PMU at run
///     time; papi_status() says whether both are there. A thread whose
///     counter cannot be opened or read falls back to 3.
///  3. per-thread CPU time: speed = share of a core the thread obtained,
///     delta(run time) / delta(wall time), from pthread_getcpuclockid for
///     threads of this process that registered, or from
///     /proc/<pid>/task/<tid>/schedstat for any tid. The schedstat wait time
///     (time runnable but queued behind other work) is the contention signal.
/// CPU share saturates at 1 per core and ignores cache interference; it
/// still sees exactly the exogenous time sharing the manager is meant to fix.

#include <sys/types.h>

#include <pthread.h>

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>

namespace autosched::pinning {

/// Where a speed comes from.
enum class SpeedSource { heartbeat, papi, cpu_time };

/// "heartbeat", "papi", "cpu-time".
[[nodiscard]] const char* to_string(SpeedSource s) noexcept;

/// An application's progress counter for one thread. beat() is a relaxed
/// atomic add: the manager only needs the count to be monotonic and
/// eventually visible, not ordered with the application's data.
class Heartbeat {
 public:
  void beat(std::uint64_t n = 1) noexcept { count_.fetch_add(n, std::memory_order_relaxed); }
  [[nodiscard]] std::uint64_t count() const noexcept { return count_.load(std::memory_order_relaxed); }

 private:
  std::atomic<std::uint64_t> count_{0};
};

/// One reading of /proc/<pid>/task/<tid>/schedstat.
struct SchedStat {
  std::uint64_t run_ns = 0;   ///< time spent on a CPU
  std::uint64_t wait_ns = 0;  ///< time runnable but waiting for a CPU
  std::uint64_t slices = 0;   ///< times scheduled in
};

/// The schedstat of thread `tid` of process `pid` (0: this process);
/// nullopt when the thread has ended or the kernel does not provide it.
[[nodiscard]] std::optional<SchedStat> read_schedstat(pid_t pid, pid_t tid);

/// CPU time in nanoseconds consumed so far by `thread`, a live thread of
/// this process (pthread_getcpuclockid); nullopt when the clock cannot be read.
[[nodiscard]] std::optional<std::uint64_t> thread_cpu_ns(pthread_t thread) noexcept;

/// Whether PAPI is part of this build and can count instructions here.
struct PapiStatus {
  bool built = false;   ///< libpapi was found when autosched was configured
  bool usable = false;  ///< a PAPI_TOT_INS counter was opened on a thread here
  std::string detail;   ///< the version and what was found, or why not
};
/// Probed once per process (the first call initialises PAPI; thread-safe):
/// the library, its CPU component, PAPI_TOT_INS, and a counter really
/// attached to, started and read on the calling thread, since an event
/// PAPI lists may still be refused by the kernel.
[[nodiscard]] const PapiStatus& papi_status();

/// Instructions retired by one thread (PAPI_TOT_INS) since the counter was
/// opened, for the papi speed source. Never throws: a counter that cannot be
/// opened (no PAPI in this build, no PMU, no permission, the thread ended)
/// reports !ok() and error(); the caller then uses CPU time.
class InstructionCounter {
 public:
  /// Opens and starts a counter on thread `tid` (this or another process,
  /// where perf_event permits).
  explicit InstructionCounter(pid_t tid) noexcept;
  ~InstructionCounter();
  InstructionCounter(const InstructionCounter&) = delete;
  InstructionCounter& operator=(const InstructionCounter&) = delete;

  [[nodiscard]] bool ok() const noexcept { return failed_step_ == nullptr; }
  /// The PAPI call that failed and PAPI's message; empty when ok().
  [[nodiscard]] std::string error() const;
  /// The count so far; nullopt when !ok() or the read fails (which makes
  /// the counter !ok() from then on).
  [[nodiscard]] std::optional<std::uint64_t> read() noexcept;

 private:
  int set_ = -1;  // PAPI event set; -1: none
  bool started_ = false;
  const char* failed_step_ = nullptr;
  int code_ = 0;  // PAPI error code of failed_step_
};

/// Which source a manager uses here, and why, for `autosched info`.
struct SpeedSourceReport {
  SpeedSource source = SpeedSource::cpu_time;
  std::string why;
};
/// heartbeats when `heartbeats` (the application provides them), else PAPI
/// instructions when papi_status().usable, else per-thread CPU time, checked
/// by reading this thread's schedstat and CPU clock; the reason names what
/// was found unavailable.
[[nodiscard]] SpeedSourceReport speed_source(bool heartbeats);

/// A rate from successive readings of a monotonic counter.
class RateMeter {
 public:
  /// Feeds the counter value `value` after `elapsed_s` seconds since the last
  /// call; returns the rate, or nullopt on the first call (no baseline yet),
  /// when no time passed, or when the counter went backwards.
  std::optional<double> update(double value, double elapsed_s) noexcept {
    const bool had = has_last_;
    const double last = last_;
    last_ = value;
    has_last_ = true;
    if (!had || !(elapsed_s > 0) || value < last) return std::nullopt;
    return (value - last) / elapsed_s;
  }

 private:
  double last_ = 0.0;
  bool has_last_ = false;
};

}  // namespace autosched::pinning
