// tests/omp/report.cpp — a plain OpenMP program for the drop-in's report
// (check_report.cmake): one loop that runs many times, one that runs once;
// with the argument `unscheduled`, loops that never reach the drop-in
// (check_report_processes.cmake).
#include "dropin_probe.h"

#include <cstdio>
#include <cstring>
#include <vector>

int main(int argc, char** argv) {
  const bool expect = dropin_expect_taken() != 0;
  const long n = 50000;
  std::vector<double> a(static_cast<std::size_t>(n), 1.0);
  if (argc > 1 && std::strcmp(argv[1], "unscheduled") == 0) {
    // Loops with no schedule clause: the compiler divides them itself and
    // the drop-in sees only the 10 parallel regions.
    for (int step = 0; step < 10; ++step) {
#pragma omp parallel for
      for (long i = 0; i < n; ++i) a[static_cast<std::size_t>(i)] += 1.0;
    }
    std::printf("a[0] %.1f\n", a[0]);
    return dropin_counts().instances == 0 ? 0 : 1;
  }
  for (int step = 0; step < 120; ++step) {
#pragma omp parallel for schedule(runtime)
    for (long i = 0; i < n; ++i) a[static_cast<std::size_t>(i)] = a[static_cast<std::size_t>(i)] * 0.999 + 0.5;
  }
  double sum = 0;
#pragma omp parallel for schedule(runtime) reduction(+ : sum)
  for (long i = 0; i < n; ++i) sum += a[static_cast<std::size_t>(i)];
  std::printf("sum %.6f\n", sum);
  const autosched_omp_counts c = dropin_counts();
  if (expect && c.instances != 121) {
    std::fprintf(stderr, "report: the drop-in scheduled %llu of 121 instances\n", c.instances);
    return 1;
  }
  return 0;
}
