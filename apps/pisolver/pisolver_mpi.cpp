// autosched-pisolver-mpi: the thesis's PISOLVER over MPI (docs/mpi-apps.md).
// π as the midpoint-rule integral of 4 / (1 + x²) over [0, 1] in n
// intervals, once per time step, as one autosched::mpi::parallel_for
// ("pisolver/integrate") over replicated data: every rank holds the whole
// work array and runs the iterations the schedule gives it.
//
// Imbalance (--imbalance I, a percentage in [0, 30], the thesis's levels
// 0, 5, ..., 30): iteration i does w_i dependent multiply-adds besides its
// term, with
//     w_i = max(1, round(W · (1 + I/100 · z_i))),   W = --work,
//     z_i = a standard normal variate drawn from i alone (Box–Muller on two
//           splitmix64 uniforms), clamped to [−3, 3],
// i.e. normally distributed work with mean W and standard deviation
// I% of W: the thesis's example (mean 680'000, 10% → σ = 68'000, "between
// 612'000 and 748'000") is its ±1σ band. The thesis does not say whether
// the draw is per iteration or per worker; here it is per iteration (the unit
// a loop schedule moves), fixed for the whole run (the thesis's imbalance is
// constant over the time steps) and the same on every rank. Because the
// draws are independent, a chunk of k iterations varies by only I%/√k: the
// imbalance is felt most by small chunks and near the loop's end. (The
// thread-level app, main.cpp, uses a linear ramp instead.)
//
// Verified on rank 0: every step's π is within the midpoint rule's error
// bound (h²·max|f''|/24 = 1/(3n²)) plus the worst-case rounding of an
// n-term sum (4·n·ε); and every iteration ran exactly once in every step.
// Replaying a cost model (--costs), the term is still computed (it is cheap)
// and the w_i multiply-adds are replaced by the recorded time.
#include "../common/app.hpp"
#include "../common/mpi_app.hpp"
#include "kernel.hpp"

#include <cfloat>
#include <cmath>
#include <exception>
#include <numbers>

namespace {

/// Standard normal variate of index i, clamped to [−3, 3].
double normal(std::int64_t i) {
  const auto u = static_cast<std::uint64_t>(i) * 2;
  const double u1 = 1.0 - autosched::apps::uniform(u);  // (0, 1]: log is finite
  const double u2 = autosched::apps::uniform(u + 1);
  const double z = std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
  return std::clamp(z, -3.0, 3.0);
}

int run(int argc, char** argv) {
  namespace pi = autosched::apps::pisolver;
  autosched::apps::mpi::MpiApp app("pisolver-mpi", "PISOLVER: midpoint-rule pi with the thesis's 0-30% imbalance",
                                   argc, argv,
                                   {{"n", 100000, "intervals (iterations per step)"},
                                    {"work", 300, "mean multiply-adds per iteration (W)"},
                                    {"imbalance", 10, "standard deviation of the work, percent of W, 0 to 30", false}},
                                   20);
  const std::int64_t n = app.integer("n");
  const double work = app.real("work");
  const double imbalance = app.real("imbalance");
  if (imbalance > 30 || n < 1) {
    if (app.rank() == 0) {
      std::fprintf(stderr, "autosched-pisolver-mpi: %s\n",
                   n < 1 ? "--n=0: expected at least one interval" : "--imbalance: expected a percentage in [0, 30]");
    }
    return 2;
  }
  // The work array, replicated on every rank.
  std::vector<std::int32_t> units(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) {
    units[static_cast<std::size_t>(i)] =
        static_cast<std::int32_t>(std::max(1.0, std::round(work * (1.0 + imbalance / 100.0 * normal(i)))));
  }
  const double h = 1.0 / static_cast<double>(n);
  double worst = 0, sink = 0;
  for (int step = 0; step < app.steps(); ++step) {
    double partial = 0;
    if (app.replaying()) {
      app.loop("pisolver/integrate", n, [&](std::int64_t i) { partial += pi::term(pi::midpoint(i, h)); });
    } else {
      app.loop("pisolver/integrate", n, [&](std::int64_t i) {
        const double x = pi::midpoint(i, h);
        partial += pi::term(x);
        sink += pi::burn(x, units[static_cast<std::size_t>(i)]);
      });
    }
    double sum = 0;
    MPI_Reduce(&partial, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, app.comm());
    worst = std::max(worst, std::abs(sum * h - std::numbers::pi));
    app.end_step();
  }
  double sinks = 0;
  MPI_Reduce(&sink, &sinks, 1, MPI_DOUBLE, MPI_SUM, 0, app.comm());
  const double bound = 1.0 / (3.0 * static_cast<double>(n) * static_cast<double>(n)) +
                       4.0 * static_cast<double>(n) * DBL_EPSILON;
  const bool ok = worst <= bound && std::isfinite(sinks);
  char what[200];
  std::snprintf(what, sizeof what, "|pi - estimate| <= %.2e (bound %.2e) in every step, imbalance %g%%", worst, bound,
                imbalance);
  return app.finish(ok, what);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int code = 0;
  try {
    code = run(argc, argv);
  } catch (const std::exception& e) {
    // autosched::mpi throws on every rank (a failed body anywhere, a bad
    // schedule): report once per rank and stop them all.
    std::fprintf(stderr, "autosched-pisolver-mpi: %s\n", e.what());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_Finalize();
  return code;
}
