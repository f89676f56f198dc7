// Memory per distinct loop name: a program that runs N loops under N
// different names (a few instances each, the default schedule) and reports
// how much heap and resident memory each new name cost it. The cost grows
// with the threads (per-thread slots), not with the loop's trip count.
//
//   bench_loop_names [names] [instances per name] [iterations]
#include <autosched/autosched.hpp>

#include <malloc.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

namespace {

long resident_kib() {
  std::ifstream in("/proc/self/status");
  std::string key;
  long value = 0;
  while (in >> key) {
    if (key == "VmRSS:") return (in >> value) ? value : -1;
    in.ignore(1 << 12, '\n');
  }
  return -1;
}

double heap_bytes() {
  const struct mallinfo2 m = mallinfo2();
  return static_cast<double>(m.uordblks + m.hblkhd);
}

}  // namespace

int main(int argc, char** argv) {
  const int names = argc > 1 ? std::atoi(argv[1]) : 10000;
  const int instances = argc > 2 ? std::atoi(argv[2]) : 4;
  const long n = argc > 3 ? std::atol(argv[3]) : 256;
  if (names < 1 || instances < 1 || n < 1) {
    std::fprintf(stderr, "usage: bench_loop_names [names >= 1] [instances >= 1] [iterations >= 1]\n");
    return 2;
  }
  std::vector<double> y(static_cast<std::size_t>(n), 0.0);
  auto body = [&](long i) { y[static_cast<std::size_t>(i)] += 1.0; };
  // One name first: the team, the store and the catalogue are not a name's.
  for (int k = 0; k < instances; ++k) autosched::parallel_for(0L, n, body, {.name = "warm-up"});
  autosched::flush_records();
  std::vector<std::string> labels;
  for (int j = 0; j < names; ++j) labels.push_back("loop" + std::to_string(j));
  const double heap_before = heap_bytes();
  const long rss_before = resident_kib();
  for (const std::string& label : labels)
    for (int k = 0; k < instances; ++k) autosched::parallel_for(0L, n, body, {.name = label});
  autosched::flush_records();
  const double per_name_heap = (heap_bytes() - heap_before) / names;
  const double per_name_rss = static_cast<double>(resident_kib() - rss_before) * 1024 / names;
  std::printf("%d names x %d instances of %ld iterations: %.0f heap bytes, %.0f resident bytes a name\n", names,
              instances, n, per_name_heap, per_name_rss);
  return 0;
}
