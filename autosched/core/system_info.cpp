#include <autosched/core/system_info.hpp>

#include <autosched/core/hash.hpp>
#include <autosched/core/text.hpp>
#include <autosched/core/version.hpp>

#include <dlfcn.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <set>
#include <thread>
#include <utility>

namespace autosched {

namespace {

std::string compiler_name() {
#if defined(__clang__)
  return "Clang " __clang_version__;
#elif defined(__GNUC__)
  return "GCC " + std::to_string(__GNUC__) + "." + std::to_string(__GNUC_MINOR__) + "." +
         std::to_string(__GNUC_PATCHLEVEL__);
#else
  return "unknown";
#endif
}

void read_cpuinfo(SystemInfo& info) {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  std::set<std::pair<std::string, std::string>> cores;
  std::string package = "0";
  while (std::getline(in, line)) {
    auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    auto key = text::trim(std::string_view(line).substr(0, colon));
    auto value = std::string(text::trim(std::string_view(line).substr(colon + 1)));
    if (key == "model name" && info.cpu_model.empty()) info.cpu_model = value;
    if (key == "physical id") package = value;
    if (key == "core id") cores.emplace(package, value);
  }
  if (info.cpu_model.empty()) info.cpu_model = "unknown";
  info.hardware_threads = static_cast<int>(std::thread::hardware_concurrency());
  info.physical_cores = cores.empty() ? info.hardware_threads : static_cast<int>(cores.size());
}

// The runtime's definition of an OpenMP entry point. Inside the drop-in,
// which defines both runtimes' entry points itself, the first definition is
// the drop-in's: the runtime's is the next one. (It made every libgomp
// program under the drop-in look like a libomp one, so its rows carried
// another fingerprint than `autosched info` printed.)
void* runtime_symbol(const char* name) {
  void* symbol = dlsym(RTLD_DEFAULT, name);
  if (symbol == nullptr) return nullptr;
  Dl_info mine{}, found{};
  if (dladdr(reinterpret_cast<void*>(&runtime_symbol), &mine) != 0 && dladdr(symbol, &found) != 0 &&
      mine.dli_fbase == found.dli_fbase) {
    return dlsym(RTLD_NEXT, name);
  }
  return symbol;
}

// Which OpenMP runtime is loaded. libomp also exports the GOMP_* entry points,
// so its own __kmpc_* symbol is checked first.
void detect_openmp(SystemInfo& info) {
  void* symbol = runtime_symbol("__kmpc_fork_call");
  info.openmp_runtime = "libomp";
  if (symbol == nullptr) {
    symbol = runtime_symbol("GOMP_parallel");
    info.openmp_runtime = "libgomp";
  }
  if (symbol == nullptr) {
    info.openmp_runtime = "none";
    return;
  }
  Dl_info where{};
  if (dladdr(symbol, &where) != 0 && where.dli_fname != nullptr) info.openmp_library = where.dli_fname;
}

std::string fnv1a_hex(const std::string& s) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(fnv1a64(s)));
  return buf;
}

SystemInfo probe() {
  SystemInfo info;
  read_cpuinfo(info);
  utsname u{};
  info.kernel = uname(&u) == 0 ? u.release : "unknown";
  info.compiler = compiler_name();
  detect_openmp(info);
  info.library_version = AUTOSCHED_VERSION_STRING;
  info.fingerprint = fnv1a_hex(info.cpu_model + '|' + std::to_string(info.physical_cores) + '|' +
                               std::to_string(info.hardware_threads) + '|' + info.compiler + '|' + info.openmp_runtime +
                               '|' + info.library_version);
  return info;
}

}  // namespace

const SystemInfo& system_info() {
  // Never destroyed: static destructors (a region saving its state at exit)
  // still read it.
  static const SystemInfo& info = *new SystemInfo(probe());
  return info;
}

std::uint64_t available_memory_bytes() {
  std::ifstream in("/proc/meminfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("MemAvailable:", 0) != 0) continue;
    const auto kib = text::to_int(text::trim(std::string_view(line).substr(13, line.find(" kB") - 13)));
    if (kib && *kib > 0) return static_cast<std::uint64_t>(*kib) * 1024;
  }
  const long pages = sysconf(_SC_AVPHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page) : 0;
}

}  // namespace autosched
