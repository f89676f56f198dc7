// A small program for the store's process-level tests: runs one named loop
// for a number of instances and reports what the selector did.
//   store_probe <loop> <instances> <n> <schedule> [flush-every]
// Prints one line per instance ("<instance> <technique> <chunk> <explored>")
// and a last line "instances=<k> explored=<e> first=<technique>".
#include <autosched/autosched.hpp>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <string>

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
  std::atomic<long> touched{0};
  long explored = 0;
  std::string first;
  for (long k = 0; k < instances; ++k) {
    autosched::parallel_for_chunks(0L, n, [&](long a, long b) { touched.fetch_add(b - a, std::memory_order_relaxed); },
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
  return 0;
}
