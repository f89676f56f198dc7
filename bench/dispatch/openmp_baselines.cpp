// The OpenMP runtime's own schedules, as `#pragma omp for` users get them.
#include "competitor.hpp"

#include <omp.h>

namespace bench {

namespace {

template <class Loop>
std::int64_t run_omp(std::int64_t n, int p, Body body, Loop loop) {
#pragma omp parallel num_threads(p)
  loop(n, body);
  return 0;
}

}  // namespace

void add_openmp_baselines(std::vector<Competitor>& out) {
  out.push_back({"omp static", "baseline", [](std::int64_t n, int p, Body body) {
                   run_omp(n, p, body, [](std::int64_t m, Body b) {
                     if (b == Body::empty) {
#pragma omp for schedule(static)
                       for (std::int64_t i = 0; i < m; ++i) asm volatile("" : : "r"(i));
                     } else {
#pragma omp for schedule(static)
                       for (std::int64_t i = 0; i < m; ++i) bench::tiny_work(i);
                     }
                   });
                   return std::int64_t{p};
                 }});
  out.push_back({"omp dynamic,1", "baseline", [](std::int64_t n, int p, Body body) {
                   run_omp(n, p, body, [](std::int64_t m, Body b) {
                     if (b == Body::empty) {
#pragma omp for schedule(dynamic, 1)
                       for (std::int64_t i = 0; i < m; ++i) asm volatile("" : : "r"(i));
                     } else {
#pragma omp for schedule(dynamic, 1)
                       for (std::int64_t i = 0; i < m; ++i) bench::tiny_work(i);
                     }
                   });
                   return n;
                 }});
  out.push_back({"omp guided", "baseline", [](std::int64_t n, int p, Body body) {
                   return run_omp(n, p, body, [](std::int64_t m, Body b) {
                     if (b == Body::empty) {
#pragma omp for schedule(guided)
                       for (std::int64_t i = 0; i < m; ++i) asm volatile("" : : "r"(i));
                     } else {
#pragma omp for schedule(guided)
                       for (std::int64_t i = 0; i < m; ++i) bench::tiny_work(i);
                     }
                   });
                 }});
}

}  // namespace bench
