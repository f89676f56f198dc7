// Builds against the installed headers and libraries, runs one loop and
// one tunable region (through the C interface, whose header is C).
#include <autosched/autosched.hpp>
#include <autosched/regions/autosched_region.h>

#include <atomic>
#include <cstdio>
#include <vector>

int main() {
  std::vector<std::atomic<int>> hits(10000);
  autosched::parallel_for(0, 10000, [&](int i) { hits[static_cast<std::size_t>(i)].fetch_add(1); },
                          {.name = "consumer", .schedule = "awf-c", .threads = 2});
  for (auto& h : hits) {
    if (h.load() != 1) return 1;
  }
  const auto r = autosched::last_instance("consumer");
  std::printf("consumer: %s over %lld iterations on %d threads\n", r->technique.data(), static_cast<long long>(r->n),
              r->p);
  if (r->technique != "awf-c") return 1;

  autosched_region* region = nullptr;
  if (autosched_region_create("consumer-region", 1, 2, 4, "dtree,explore_after=0", &region) != AUTOSCHED_REGION_OK)
    return 1;
  for (int i = 0; i < 8; ++i) {
    autosched_region_scope s{};
    int v = -1;
    autosched_region_begin(region, &s);
    autosched_region_set_feature(&s, i % 2);
    if (autosched_region_get_variant(&s, &v) != AUTOSCHED_REGION_OK || v < 0 || v > 1) return 1;
    autosched_region_end_with_metric(&s, v == i % 2 ? 1.0 : 2.0);
  }
  autosched_region_destroy(region);
  std::printf("consumer: region trained through the C interface\n");
  return 0;
}
