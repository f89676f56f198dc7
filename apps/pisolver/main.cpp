// autosched-pisolver: π as the midpoint-rule integral of 4 / (1 + x²) over
// [0, 1], once per time step. Each iteration also does a configurable amount
// of extra arithmetic whose cost rises linearly along the iteration space,
// from (1 − imbalance) to (1 + imbalance) times the mean, with ±5% jitter:
// static's blocks are imbalanced by about imbalance × (P − 1) / P.
// Verified: every step's sum is within the midpoint rule's error bound of π
// (h²·max|f''|/24 = 1/(3n²), plus rounding) and every iteration ran once.
#include "../common/app.hpp"
#include "kernel.hpp"

#include <cmath>
#include <numbers>

namespace {

/// Iteration i's extra arithmetic: `work` units scaled by its place on the
/// ramp from (1 − imbalance) to (1 + imbalance), with ±5% jitter. For the
/// level reference; the measured loop spells it out, because calling this
/// from it changed GCC 12's machine code for the loop
/// (bench/campaigns/level-reference-check.sh).
long units_at(std::int64_t i, std::int64_t n, double work, double imbalance) noexcept {
  const double ramp = n > 1 ? 2.0 * static_cast<double>(i) / static_cast<double>(n - 1) - 1.0 : 0.0;
  const double jitter = 0.05 * (2.0 * autosched::apps::uniform(static_cast<std::uint64_t>(i)) - 1.0);
  return static_cast<long>(work * (1.0 + imbalance * ramp + jitter));
}

}  // namespace

int main(int argc, char** argv) {
  autosched::apps::App app("pisolver", "numerical integration of pi with tunable imbalance", argc, argv,
                           {{"n", 100000, "intervals"},
                            {"work", 300, "extra arithmetic per iteration (units of one dependent multiply-add)"},
                            {"imbalance", 0.3, "cost spread along the iterations, 0 to 0.9", false}},
                           200);
  const std::int64_t n = app.size("n");
  const double work = static_cast<double>(app.size("work"));
  const double imbalance = app.real("imbalance");
  if (imbalance > 0.9) {
    std::fprintf(stderr, "autosched-pisolver: --imbalance=%g: expected a number in [0, 0.9]\n", imbalance);
    return 2;
  }
  const double h = 1.0 / static_cast<double>(n);
  autosched::apps::PerThread<double> partial(app.threads()), sink(app.threads()), again(app.threads());
  autosched::apps::PerThread<std::int64_t> count(app.threads());
  double worst = 0;
  bool counts_right = true;
  for (int step = 0; step < app.steps(); ++step) {
    partial.reset();
    count.reset();
    app.loop("pisolver/integrate", n, [&](std::int64_t i) {
      namespace pi = autosched::apps::pisolver;
      const double x = pi::midpoint(i, h);
      partial.local() += pi::term(x);
      ++count.local();
      const double ramp = n > 1 ? 2.0 * static_cast<double>(i) / static_cast<double>(n - 1) - 1.0 : 0.0;
      const double jitter = 0.05 * (2.0 * autosched::apps::uniform(static_cast<std::uint64_t>(i)) - 1.0);
      const auto units = static_cast<long>(work * (1.0 + imbalance * ramp + jitter));
      sink.local() += pi::burn(x, units);
    });
    // The same work into sums of its own (a second pass into `partial` would
    // double the estimate).
    app.reference("pisolver/integrate", n, [&](std::int64_t i) {
      namespace pi = autosched::apps::pisolver;
      const double x = pi::midpoint(i, h);
      again.local() += pi::term(x) + pi::burn(x, units_at(i, n, work, imbalance));
    });
    const double pi = partial.sum() * h;
    worst = std::max(worst, std::abs(pi - std::numbers::pi));
    counts_right = counts_right && count.sum() == n;
    app.end_step();
  }
  const double bound = 1.0 / (3.0 * static_cast<double>(n) * static_cast<double>(n)) + 1e-12;
  const bool ok = worst <= bound && counts_right && std::isfinite(sink.sum());
  char what[200];
  std::snprintf(what, sizeof what, "|pi - estimate| <= %.2e (bound %.2e) in every step, %s", worst, bound,
                counts_right ? "every iteration once" : "ITERATION COUNT WRONG");
  return app.finish(ok, what);
}
