// A time-stepping code whose loop is imbalanced (iteration i costs ∝ i), run
// with autosched's default schedule: `auto` learns the best arm while the
// steps run and keeps what it learned in the store (AUTOSCHED_DB), so a
// second run starts on the best arm at its first step.
//   time_steps [steps]
#include <autosched/autosched.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char** argv) {
  const int steps = argc > 1 ? std::atoi(argv[1]) : 60;
  const std::int64_t n = 20000;
  std::vector<double> field(n, 1.0);
  int explored = 0;
  double seconds = 0;
  for (int step = 0; step < steps; ++step) {
    autosched::parallel_for(std::int64_t{0}, n,
                            [&](std::int64_t i) {
                              double x = field[i];
                              for (std::int64_t k = 0; k < i / 32; ++k)
                                x = std::sqrt(x + 1.0);  // more work further right
                              field[i] = x;
                            },
                            {.name = "time_steps/update"});
    const auto r = autosched::last_instance("time_steps/update");
    explored += r->explored ? 1 : 0;
    seconds += r->metrics.loop_time_ns / 1e9;
    if (step < 3) {
      std::printf("step %d: %s%s (%s)\n", step, std::string(r->technique).c_str(),
                  r->chunk > 0 ? (":" + std::to_string(r->chunk)).c_str() : "",
                  r->explored ? "exploring" : "exploiting");
    }
  }
  const auto r = autosched::last_instance("time_steps/update");
  std::printf("%d steps on %d threads: %.3f s in the loop, %d steps explored, last arm %s\n", steps, r->p, seconds,
              explored, std::string(r->technique).c_str());
  return std::isfinite(field[n - 1]) ? 0 : 1;
}
