#include <autosched/pinning/speed.hpp>

#include <autosched/core/components.hpp>
#include <autosched/pinning/affinity.hpp>

#include <time.h>

#include <cstdio>
#include <string>
#include <type_traits>

#if AUTOSCHED_HAVE_PAPI
#include <dlfcn.h>
#include <papi.h>

#include <exception>
#include <mutex>
#endif

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

#if AUTOSCHED_HAVE_PAPI

namespace {

// PAPI keeps process-wide state. PAPI_thread_init is not called: without it
// PAPI treats the whole process as one thread, so an event set opened by
// one thread (a test's step(), `autosched info`) can be read by another (the
// manager thread), and this mutex makes that one "thread" sequential.
std::mutex papi_mutex;
std::once_flag papi_once;
int papi_init_code = PAPI_ENOINIT;

/// libpapi, opened when a counter or `autosched info` first asks for it, not
/// linked: the pinning manager also runs inside every program the OpenMP
/// drop-in is preloaded into, and a program that never reads a counter must
/// not load PAPI and libpfm at start-up. The pointers' types are the
/// header's, so a signature that changes fails to compile.
struct PapiLibrary {
  bool loaded = false;
  std::string error;  ///< why it is not loaded
  decltype(&::PAPI_library_init) library_init = nullptr;
  decltype(&::PAPI_strerror) strerror = nullptr;
  decltype(&::PAPI_create_eventset) create_eventset = nullptr;
  decltype(&::PAPI_assign_eventset_component) assign_eventset_component = nullptr;
  decltype(&::PAPI_attach) attach = nullptr;
  decltype(&::PAPI_add_event) add_event = nullptr;
  decltype(&::PAPI_start) start = nullptr;
  decltype(&::PAPI_read) read = nullptr;
  decltype(&::PAPI_stop) stop = nullptr;
  decltype(&::PAPI_cleanup_eventset) cleanup_eventset = nullptr;
  decltype(&::PAPI_destroy_eventset) destroy_eventset = nullptr;
  decltype(&::PAPI_get_component_info) get_component_info = nullptr;
  decltype(&::PAPI_query_event) query_event = nullptr;
};

const PapiLibrary& papi() {
  static const PapiLibrary library = [] {
    PapiLibrary l;
    void* handle = ::dlopen(AUTOSCHED_PAPI_SONAME, RTLD_NOW | RTLD_LOCAL);  // kept open for the process
    if (handle == nullptr) {
      const char* e = ::dlerror();
      l.error = std::string("cannot load ") + AUTOSCHED_PAPI_SONAME + (e != nullptr ? std::string(": ") + e : "");
      return l;
    }
    bool all = true;
    const auto bind = [&](auto& pointer, const char* name) {
      pointer = reinterpret_cast<std::remove_reference_t<decltype(pointer)>>(::dlsym(handle, name));
      if (pointer == nullptr && all) {
        all = false;
        l.error = std::string(AUTOSCHED_PAPI_SONAME) + " lacks " + name;
      }
    };
    bind(l.library_init, "PAPI_library_init");
    bind(l.strerror, "PAPI_strerror");
    bind(l.create_eventset, "PAPI_create_eventset");
    bind(l.assign_eventset_component, "PAPI_assign_eventset_component");
    bind(l.attach, "PAPI_attach");
    bind(l.add_event, "PAPI_add_event");
    bind(l.start, "PAPI_start");
    bind(l.read, "PAPI_read");
    bind(l.stop, "PAPI_stop");
    bind(l.cleanup_eventset, "PAPI_cleanup_eventset");
    bind(l.destroy_eventset, "PAPI_destroy_eventset");
    bind(l.get_component_info, "PAPI_get_component_info");
    bind(l.query_event, "PAPI_query_event");
    l.loaded = all;
    return l;
  }();
  return library;
}

/// PAPI_OK once the library is initialised (first call only), else the
/// error PAPI_library_init gave (PAPI_ENOSUPP: the library could not be
/// loaded); the result is kept for the process.
int papi_library() noexcept {
  try {
    std::call_once(papi_once, [] {
      if (!papi().loaded) {
        papi_init_code = PAPI_ENOSUPP;
        return;
      }
      const int v = papi().library_init(PAPI_VER_CURRENT);
      // A positive value other than PAPI_VER_CURRENT is a header/library
      // version mismatch.
      papi_init_code = v == PAPI_VER_CURRENT ? PAPI_OK : (v > 0 ? PAPI_EINVAL : v);
    });
  } catch (const std::exception&) {
    return PAPI_ESYS;  // call_once could not run (std::system_error)
  }
  return papi_init_code;
}

std::string papi_message(int code) {
  if (!papi().loaded) return papi().error;
  const char* m = papi().strerror(code);
  return m != nullptr ? std::string(m) : "PAPI error " + std::to_string(code);
}

/// Stops and frees an event set; papi_mutex must be held.
void release(int& set, bool& started) noexcept {
  if (set == PAPI_NULL) return;
  long long ignored = 0;
  if (started) (void)papi().stop(set, &ignored);
  (void)papi().cleanup_eventset(set);
  (void)papi().destroy_eventset(&set);
  set = PAPI_NULL;
  started = false;
}

}  // namespace

InstructionCounter::InstructionCounter(pid_t tid) noexcept {
  static_assert(PAPI_NULL == -1, "set_ starts as -1 in speed.hpp, which does not include papi.h");
  if (const int rc = papi_library(); rc != PAPI_OK) {
    failed_step_ = papi().loaded ? "PAPI_library_init" : "loading PAPI";
    code_ = rc;
    return;
  }
  const auto check = [this](const char* step, int rc) {
    if (rc != PAPI_OK) {
      failed_step_ = step;
      code_ = rc;
    }
    return rc == PAPI_OK;
  };
  std::lock_guard lock(papi_mutex);
  // Attaching to a thread needs the set bound to a component first;
  // component 0 is the CPU's (perf_event on Linux). Without a PMU the first
  // step that opens a hardware event fails (PAPI 7.0 in a VM: PAPI_attach,
  // "Event does not exist").
  const PapiLibrary& api = papi();
  started_ = check("PAPI_create_eventset", api.create_eventset(&set_)) &&
             check("PAPI_assign_eventset_component", api.assign_eventset_component(set_, 0)) &&
             check("PAPI_attach", api.attach(set_, static_cast<unsigned long>(tid))) &&
             check("PAPI_add_event(PAPI_TOT_INS)", api.add_event(set_, PAPI_TOT_INS)) &&
             check("PAPI_start", api.start(set_));
  if (!started_) release(set_, started_);
}

InstructionCounter::~InstructionCounter() {
  if (set_ == PAPI_NULL) return;
  std::lock_guard lock(papi_mutex);
  release(set_, started_);
}

std::string InstructionCounter::error() const {
  return ok() ? std::string() : std::string(failed_step_) + ": " + papi_message(code_);
}

std::optional<std::uint64_t> InstructionCounter::read() noexcept {
  if (!ok()) return std::nullopt;
  std::lock_guard lock(papi_mutex);
  long long value = 0;
  if (const int rc = papi().read(set_, &value); rc != PAPI_OK || value < 0) {
    failed_step_ = "PAPI_read";
    code_ = rc != PAPI_OK ? rc : PAPI_EINVAL;
    release(set_, started_);
    return std::nullopt;
  }
  return static_cast<std::uint64_t>(value);
}

const PapiStatus& papi_status() {
  static const PapiStatus status = []() -> PapiStatus {
    PapiStatus s;
    s.built = true;
    const std::string version = "built (PAPI " + std::to_string(PAPI_VERSION_MAJOR(PAPI_VERSION)) + "." +
                                std::to_string(PAPI_VERSION_MINOR(PAPI_VERSION)) + "." +
                                std::to_string(PAPI_VERSION_REVISION(PAPI_VERSION)) + "." +
                                std::to_string(PAPI_VERSION_INCREMENT(PAPI_VERSION)) + ")";
    const auto unusable = [&](const std::string& why) {
      s.detail = version + ", no usable hardware counters: " + why;
      return s;
    };
    if (!papi().loaded) return unusable(papi().error);
    if (const int rc = papi_library(); rc != PAPI_OK) return unusable("PAPI_library_init: " + papi_message(rc));
    std::string component;
    {
      std::lock_guard lock(papi_mutex);
      const PAPI_component_info_t* cpu = papi().get_component_info(0);
      if (cpu == nullptr) return unusable("no CPU component");
      component = cpu->name;
      if (cpu->disabled != 0) return unusable("component " + component + " disabled: " + cpu->disabled_reason);
      if (const int rc = papi().query_event(PAPI_TOT_INS); rc != PAPI_OK)
        return unusable("component " + component + ": PAPI_query_event(PAPI_TOT_INS): " + papi_message(rc));
    }
    // The event may exist and still be refused (perf_event_paranoid, a
    // hypervisor): only a counter really started and read proves it works.
    InstructionCounter probe(current_tid());
    if (!probe.read()) return unusable(probe.error());
    s.usable = true;
    s.detail = version + ", usable: PAPI_TOT_INS per thread (component " + component + ")";
    return s;
  }();
  return status;
}

#else  // !AUTOSCHED_HAVE_PAPI

InstructionCounter::InstructionCounter(pid_t) noexcept : failed_step_("PAPI"), code_(0) {}

InstructionCounter::~InstructionCounter() = default;

std::string InstructionCounter::error() const { return ok() ? std::string() : "PAPI is not part of this build"; }

std::optional<std::uint64_t> InstructionCounter::read() noexcept { return std::nullopt; }

const PapiStatus& papi_status() {
  static const PapiStatus status = [] {
    PapiStatus s;
    s.detail = std::string("not built: libpapi was not found when autosched was configured; hardware counters ") +
               (hardware_counters_available() ? "available here" : "unavailable here (no PMU)");
    return s;
  }();
  return status;
}

#endif  // AUTOSCHED_HAVE_PAPI

SpeedSourceReport speed_source(bool heartbeats) {
  SpeedSourceReport r;
  if (heartbeats) {
    r.source = SpeedSource::heartbeat;
    r.why = "the application reports heartbeats";
    return r;
  }
  const PapiStatus& papi = papi_status();
  if (papi.usable) {
    r.source = SpeedSource::papi;
    r.why = "no heartbeats; PAPI " + papi.detail;
    return r;
  }
  r.source = SpeedSource::cpu_time;
  const bool clock_ok = thread_cpu_ns(pthread_self()).has_value();
  const bool schedstat_ok = read_schedstat(0, current_tid()).has_value();
  r.why = "no heartbeats; PAPI " + papi.detail + "; per-thread CPU clock " + (clock_ok ? "works" : "fails") +
          ", /proc schedstat " + (schedstat_ok ? "works" : "missing");
  return r;
}

}  // namespace autosched::pinning
