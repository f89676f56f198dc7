// Builds against the installed headers and libraries and runs one loop.
#include <autosched/autosched.hpp>

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
  return r->technique == "awf-c" ? 0 : 1;
}
