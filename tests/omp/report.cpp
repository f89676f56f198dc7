// tests/omp/report.cpp — a plain OpenMP program for the drop-in's report
// (check_report.cmake): one loop that runs many times, one that runs once.
#include "dropin_probe.h"

#include <cstdio>
#include <vector>

int main() {
  const bool expect = dropin_expect_taken() != 0;
  const long n = 50000;
  std::vector<double> a(static_cast<std::size_t>(n), 1.0);
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
