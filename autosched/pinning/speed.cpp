#include <autosched/pinning/speed.hpp>

#include <autosched/core/components.hpp>
#include <autosched/pinning/affinity.hpp>

#include <time.h>

#include <cstdio>
#include <string>

namespace autosched::pinning {

const char* to_string(SpeedSource s) noexcept {
  switch (s) {
    case SpeedSource::heartbeat:
      return "heartbeat";
    case SpeedSource::papi:
      return "papi";
    case SpeedSource::cpu_time:
      return "cpu-time";
  }
  return "?";
}

std::optional<SchedStat> read_schedstat(pid_t pid, pid_t tid) {
  const std::string path = (pid == 0 ? std::string("/proc/self") : "/proc/" + std::to_string(pid)) + "/task/" +
                           std::to_string(tid) + "/schedstat";
  // stdio rather than files::read_regular: /proc files report size 0, and this
  // runs once per thread per period.
  std::FILE* f = std::fopen(path.c_str(), "r");
  if (f == nullptr) return std::nullopt;
  unsigned long long run = 0, wait = 0, slices = 0;
  const int n = std::fscanf(f, "%llu %llu %llu", &run, &wait, &slices);
  std::fclose(f);
  if (n != 3) return std::nullopt;
  return SchedStat{run, wait, slices};
}

std::optional<std::uint64_t> thread_cpu_ns(pthread_t thread) noexcept {
  clockid_t clock;
  if (pthread_getcpuclockid(thread, &clock) != 0) return std::nullopt;
  timespec ts{};
  if (clock_gettime(clock, &ts) != 0) return std::nullopt;
  return static_cast<std::uint64_t>(ts.tv_sec) * 1000000000ULL + static_cast<std::uint64_t>(ts.tv_nsec);
}

PapiStatus papi_status() {
  // Reading PAPI is not implemented: the development machines have neither
  // libpapi nor a PMU (perf_event_open refuses hardware events), so code for
  // it could not be tested. Say so, with the PMU finding for context.
  PapiStatus s;
  s.built = false;
  s.detail = std::string("not built: no PAPI reader in this layer; hardware counters ") +
             (hardware_counters_available() ? "available here" : "unavailable here (no PMU)");
  return s;
}

SpeedSourceReport speed_source(bool heartbeats) {
  SpeedSourceReport r;
  if (heartbeats) {
    r.source = SpeedSource::heartbeat;
    r.why = "the application reports heartbeats";
    return r;
  }
  r.source = SpeedSource::cpu_time;
  const bool clock_ok = thread_cpu_ns(pthread_self()).has_value();
  const bool schedstat_ok = read_schedstat(0, current_tid()).has_value();
  r.why = std::string("no heartbeats; PAPI ") + papi_status().detail + "; per-thread CPU clock " +
          (clock_ok ? "works" : "fails") + ", /proc schedstat " + (schedstat_ok ? "works" : "missing");
  return r;
}

}  // namespace autosched::pinning
