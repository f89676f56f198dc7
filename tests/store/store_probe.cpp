// A small program for the store's process-level tests: runs one named loop
// for a number of instances and reports what the selector did.
//   store_probe <loop> <instances> <n> <schedule> [flush-every] [fork]
// With `fork`, the probe forks after its loops; the child flushes and exits
// through atexit (it must neither hang nor touch the parent's store), the
// parent waits for it and fails if the child did.
// Prints one line per instance ("<instance> <technique> <chunk> <explored>")
// and a last line "instances=<k> explored=<e> first=<technique>".
// With STORE_PROBE_CHUNK_NS=<ns> in the environment the loop runs in virtual
// time (tests/drive/virtual_time.hpp): every chunk costs <ns> plus 1 ns per
// iteration, so what the selector learns does not depend on the machine.
#include <autosched/autosched.hpp>

#include "drive/virtual_time.hpp"

#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define STORE_PROBE_CLANG_TSAN 1
#endif
#endif
#ifndef STORE_PROBE_CLANG_TSAN
#define STORE_PROBE_CLANG_TSAN 0
#endif

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char** argv) {
  if (argc < 5) {
    std::fprintf(stderr, "usage: store_probe <loop> <instances> <n> <schedule> [flush-every]\n");
    return 2;
  }
  const std::string loop = argv[1];
  const long instances = std::atol(argv[2]);
  const long n = std::atol(argv[3]);
  const std::string schedule = argv[4];
  const long flush_every = argc > 5 ? std::atol(argv[5]) : 0;
  const bool fork_at_end = argc > 6 && std::string(argv[6]) == "fork";
  const char* chunk_ns_text = std::getenv("STORE_PROBE_CHUNK_NS");
  const long chunk_ns = chunk_ns_text != nullptr ? std::atol(chunk_ns_text) : 0;
  std::unique_ptr<autosched::testing::VirtualClock> virtual_clock;
  if (chunk_ns > 0) virtual_clock = std::make_unique<autosched::testing::VirtualClock>();
  std::atomic<long> touched{0};
  long explored = 0;
  std::string first;
  for (long k = 0; k < instances; ++k) {
    if (virtual_clock) autosched::testing::VirtualClock::next_instance();
    autosched::parallel_for_chunks(0L, n,
                                   [&](long a, long b) {
                                     touched.fetch_add(b - a, std::memory_order_relaxed);
                                     if (chunk_ns > 0) autosched::testing::VirtualClock::charge(chunk_ns + (b - a));
                                   },
                                   {.name = loop, .schedule = schedule, .threads = 2});
    const auto r = autosched::last_instance(loop);
    if (!r) return 3;
    explored += r->explored ? 1 : 0;
    if (k == 0) first = std::string(r->technique);
    std::printf("%ld %s %lld %d\n", k, std::string(r->technique).c_str(), static_cast<long long>(r->chunk),
                r->explored ? 1 : 0);
    if (flush_every > 0 && (k + 1) % flush_every == 0) autosched::flush_records();
  }
  if (touched.load() != instances * n) {
    std::fprintf(stderr, "store_probe: %ld iterations executed, expected %ld\n", touched.load(), instances * n);
    return 4;
  }
  std::printf("instances=%ld explored=%ld first=%s\n", instances, explored, first.c_str());
  std::fflush(stdout);
  if (fork_at_end) {
    const pid_t child = fork();
    if (child == 0) {
      alarm(20);  // a hang here is the bug this checks for
      autosched::flush_records();
#if defined(__SANITIZE_THREAD__) || STORE_PROBE_CLANG_TSAN
      // LLVM's Archer (the TSan build's OpenMP tool) crashes in its own
      // finalizer in a forked child; the flush above covered our part.
      _exit(0);
#else
      std::exit(0);  // atexit: autosched saves the selectors' states
#endif
    }
    int status = 0;
    if (child < 0 || waitpid(child, &status, 0) != child || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      std::fprintf(stderr, "store_probe: the forked child failed (status %d)\n", status);
      return 5;
    }
  }
  return 0;
}
