// A process that uses one region on the store AUTOSCHED_DB names, for the
// tests of several processes sharing a store (check_shared_store.cmake):
//   region_probe learn <x> <n>   n executions of region "shared" at feature x
//   region_probe report          prints "vectors=<v> samples=<s>" of what it loaded
#include <autosched/regions/detail/region_state.hpp>
#include <autosched/regions/region.hpp>

#include <cstdio>
#include <cstdlib>
#include <string>

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  autosched::Region region("shared", {.features = {"x"}, .variants = {"a", "b"}, .model = "round-robin"});
  if (mode == "learn" && argc == 4) {
    const double x = std::atof(argv[2]);
    const int n = std::atoi(argv[3]);
    for (int i = 0; i < n; ++i) {
      auto s = region.begin({x});
      (void)s.variant();
      s.end(1.0 + s.variant());
    }
    return 0;
  }
  if (mode == "report") {
    std::lock_guard lock(region.state().mutex);
    const auto& l = region.state().learner;
    long long samples = 0;
    for (int e = 0; e < l.vectors(); ++e)
      for (int v = 0; v < l.variants(); ++v) samples += l.stats(e, v).count();
    std::printf("vectors=%lld samples=%lld\n", static_cast<long long>(l.vectors()), samples);
    return 0;
  }
  std::fprintf(stderr, "usage: region_probe learn <x> <n> | report\n");
  return 2;
}
