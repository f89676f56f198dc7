#include <autosched/autosched.hpp>

#include <cstdio>
#include <vector>

int main() {
  std::vector<double> x(1 << 22, 1.0), y(1 << 22, 2.0);
  for (int step = 0; step < 20; ++step) {  // a time-stepping loop: same loop, many instances
    autosched::parallel_for(0, x.size(), [&](std::size_t i) { y[i] += 0.5 * x[i]; },
                            {.name = "axpy", .schedule = "fac2"});
  }
  const auto r = autosched::last_instance("axpy");
  std::printf("%s on %d threads: %.3f ms, load imbalance %.1f%%\n", r->technique.data(), r->p,
              r->metrics.loop_time_ns / 1e6, r->metrics.lib);
}
