#pragma once
/// @file
/// Per-thread speed, the signal the pinning manager learns from. Sources,
/// best first:
///  1. heartbeats: the application counts units of useful work per thread
///     (an atomic counter); speed = beats per second. Proportional to
///     progress, so it also sees cache and memory effects.
///  2. PAPI instructions per second: what the authors used. Needs a PMU and
///     libpapi; this build does not read PAPI (see papi_status()).
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

/// Whether PAPI is part of this build, and why not.
struct PapiStatus {
  bool built = false;
  std::string detail;
};
[[nodiscard]] PapiStatus papi_status();

/// Which source a manager uses here, and why, for `autosched info`.
struct SpeedSourceReport {
  SpeedSource source = SpeedSource::cpu_time;
  std::string why;
};
/// heartbeats when `heartbeats` (the application provides them), else
/// per-thread CPU time, checked by reading this thread's schedstat and CPU
/// clock; the reason names what was found unavailable.
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
