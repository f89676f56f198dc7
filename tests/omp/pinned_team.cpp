// An OpenMP program whose team `autosched run --pin` should pin: it runs a
// schedule(runtime) loop over and over and reads every team thread's
// affinity mask from inside the team.
//   pinned_team pinned     runs until each of its 2 threads has a one-CPU
//                          mask and the two differ (exit 0), or until a
//                          bound that only stops a broken run (exit 1)
//   pinned_team unpinned   runs 200 loops; every thread keeps the process's
//                          whole mask (exit 0), else exit 1
// It prints the masks it saw last. It judges no time: it waits for a state.
#include <omp.h>
#include <sched.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <set>
#include <string>
#include <vector>

namespace {

std::string cpus(const cpu_set_t& set) {
  std::string out;
  for (int c = 0; c < CPU_SETSIZE; ++c) {
    if (CPU_ISSET(c, &set)) out += (out.empty() ? "" : ",") + std::to_string(c);
  }
  return out;
}

/// One loop instance, then each thread's mask (by thread number).
std::vector<cpu_set_t> masks_after_a_loop(std::vector<double>& data) {
  std::vector<cpu_set_t> masks(2);
#pragma omp parallel num_threads(2)
  {
#pragma omp for schedule(runtime)
    for (int i = 0; i < static_cast<int>(data.size()); ++i) data[static_cast<std::size_t>(i)] += i * 0.5;
    cpu_set_t mine;
    CPU_ZERO(&mine);
    sched_getaffinity(0, sizeof mine, &mine);
    masks[static_cast<std::size_t>(omp_get_thread_num())] = mine;
  }
  return masks;
}

}  // namespace

int main(int argc, char** argv) {
  const bool want_pinned = argc > 1 && std::strcmp(argv[1], "pinned") == 0;
  cpu_set_t process;
  CPU_ZERO(&process);
  sched_getaffinity(0, sizeof process, &process);
  if (CPU_COUNT(&process) < 2) {
    std::printf("SKIP: one allowed CPU (%s)\n", cpus(process).c_str());
    return 0;
  }
  std::vector<double> data(20000, 1.0);
  const auto bound = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  std::vector<cpu_set_t> masks;
  for (int k = 0;; ++k) {
    masks = masks_after_a_loop(data);
    const bool single = CPU_COUNT(&masks[0]) == 1 && CPU_COUNT(&masks[1]) == 1;
    const bool apart = cpus(masks[0]) != cpus(masks[1]);
    if (want_pinned && single && apart) break;
    if (!want_pinned && k == 200) break;
    if (want_pinned && std::chrono::steady_clock::now() > bound) {
      std::printf("thread 0 on %s, thread 1 on %s: not pinned apart after %d loops\n", cpus(masks[0]).c_str(),
                  cpus(masks[1]).c_str(), k + 1);
      return 1;
    }
  }
  std::printf("thread 0 on %s, thread 1 on %s (process %s)\n", cpus(masks[0]).c_str(), cpus(masks[1]).c_str(),
              cpus(process).c_str());
  if (!want_pinned) {
    for (const cpu_set_t& m : masks) {
      if (cpus(m) != cpus(process)) return 1;
    }
  }
  std::printf(want_pinned ? "pinned\n" : "unpinned\n");
  return 0;
}
