#include <autosched/pinning/affinity.hpp>

#include <autosched/core/environment.hpp>
#include <autosched/core/text.hpp>

#include <pthread.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <system_error>

namespace autosched::pinning {

namespace {

std::vector<int> cores_of(const cpu_set_t& set) {
  std::vector<int> cores;
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &set)) cores.push_back(c);
  return cores;
}

}  // namespace

std::vector<int> allowed_cores() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0) return {};
  return cores_of(set);
}

pid_t current_tid() noexcept { return static_cast<pid_t>(syscall(SYS_gettid)); }

int set_thread_affinity(pid_t tid, std::span<const int> cores) noexcept {
  cpu_set_t set;
  CPU_ZERO(&set);
  for (int c : cores) {
    if (c < 0 || c >= CPU_SETSIZE) return EINVAL;
    CPU_SET(c, &set);
  }
  // sched_setaffinity takes any tid of the system, unlike
  // pthread_setaffinity_np, which needs a pthread_t of this process.
  return sched_setaffinity(tid, sizeof set, &set) == 0 ? 0 : errno;
}

int pin_thread(pid_t tid, int core) noexcept {
  const int one[1] = {core};
  return set_thread_affinity(tid, one);
}

std::optional<std::vector<int>> thread_affinity(pid_t tid, int* error) {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(tid, sizeof set, &set) != 0) {
    if (error != nullptr) *error = errno;
    return std::nullopt;
  }
  if (error != nullptr) *error = 0;
  return cores_of(set);
}

std::vector<pid_t> process_threads(pid_t pid) {
  namespace fs = std::filesystem;
  const fs::path dir = pid == 0 ? fs::path("/proc/self/task") : fs::path("/proc") / std::to_string(pid) / "task";
  std::vector<pid_t> tids;
  std::error_code ec;
  // The directory changes while we read it; whatever the iterator reports
  // before an error is kept, and the next period sees the rest.
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (auto tid = text::to_int(it->path().filename().string()); tid && *tid > 0)
      tids.push_back(static_cast<pid_t>(*tid));
  }
  std::sort(tids.begin(), tids.end());
  return tids;
}

OpenMpBinding openmp_binding() {
  OpenMpBinding b;
  if (auto bind = environment::get("OMP_PROC_BIND")) {
    const std::string v = text::lower(text::trim(*bind));
    if (!v.empty() && v != "false") {
      b.bound = true;
      b.reason = "OMP_PROC_BIND=" + *bind;
      return b;
    }
  }
  if (auto places = environment::get("OMP_PLACES"); places && !text::trim(*places).empty()) {
    b.bound = true;
    b.reason = "OMP_PLACES=" + *places;
  }
  return b;
}

int check_setaffinity() noexcept {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (const int rc = pthread_getaffinity_np(pthread_self(), sizeof set, &set); rc != 0) return rc;
  return pthread_setaffinity_np(pthread_self(), sizeof set, &set);
}

std::string format_cores(std::span<const int> cores) {
  std::string out;
  for (std::size_t i = 0; i < cores.size();) {
    std::size_t j = i;
    while (j + 1 < cores.size() && cores[j + 1] == cores[j] + 1) ++j;
    if (!out.empty()) out += ',';
    out += std::to_string(cores[i]);
    if (j > i) out += '-' + std::to_string(cores[j]);
    i = j + 1;
  }
  return out;
}

}  // namespace autosched::pinning
