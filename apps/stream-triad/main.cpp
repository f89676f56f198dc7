// autosched-stream-triad: STREAM's triad, a[i] = b[i] + s * c[i], once per
// time step. Memory-bound and perfectly regular: the case where dynamic
// techniques can only lose to static.
// Verified: every element of a equals b + s * c after the last step.
#include "../common/app.hpp"

#include <vector>

int main(int argc, char** argv) {
  autosched::apps::App app("stream-triad", "STREAM triad, memory-bound and regular", argc, argv,
                           {{"n", 1 << 24, "elements per array (three arrays of doubles)"}}, 200);
  const std::int64_t n = app.size("n");
  std::vector<double> a(static_cast<std::size_t>(n)), b(static_cast<std::size_t>(n)), c(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) {
    a[static_cast<std::size_t>(i)] = 0.0;
    b[static_cast<std::size_t>(i)] = 1.0 + static_cast<double>(i % 7);
    c[static_cast<std::size_t>(i)] = 2.0 + 0.5 * static_cast<double>(i % 5);
  }
  double* pa = a.data();
  const double* pb = b.data();
  const double* pc = c.data();
  double s = 3.0;
  for (int step = 0; step < app.steps(); ++step) {
    s = 3.0 + static_cast<double>(step % 4);  // a fresh value every step, so no step repeats the last
    app.loop("stream-triad/triad", n, [pa, pb, pc, s](std::int64_t i) { pa[i] = pb[i] + s * pc[i]; });
    app.end_step();
  }
  std::int64_t wrong = 0;
  for (std::int64_t i = 0; i < n; ++i)
    wrong += a[static_cast<std::size_t>(i)] != b[static_cast<std::size_t>(i)] + s * c[static_cast<std::size_t>(i)];
  return app.finish(wrong == 0, wrong == 0 ? "a = b + s*c everywhere" : std::to_string(wrong) + " elements wrong");
}
