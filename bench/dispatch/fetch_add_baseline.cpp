// The floor for dynamic scheduling: each thread claims one iteration at a
// time with a relaxed fetch_add on a shared counter, nothing else.
#include "competitor.hpp"

#include <atomic>

namespace bench {

void add_fetch_add_baseline(std::vector<Competitor>& out) {
  out.push_back({"bare fetch_add", "baseline", [](std::int64_t n, int p, Body body) {
                   alignas(64) static std::atomic<std::int64_t> next;
                   next.store(0);
#pragma omp parallel num_threads(p)
                   {
                     std::int64_t i;
                     if (body == Body::empty) {
                       while ((i = next.fetch_add(1, std::memory_order_relaxed)) < n) asm volatile("" : : "r"(i));
                     } else {
                       while ((i = next.fetch_add(1, std::memory_order_relaxed)) < n) bench::tiny_work(i);
                     }
                   }
                   return n;
                 }});
}

}  // namespace bench
