// A tunable region whose variant is a thread count: each time step smooths a
// 1-D field with a few sweeps of a three-point stencil, each sweep an OpenMP
// `parallel for num_threads(t)`. On a small field one thread wins, because
// starting and joining a team costs more than the sweep; on a large field
// every core helps. The region learns t per field size.
//
// The thread counts are the powers of two up to the number of cores (at
// least {1, 2}: on one core, 2 is oversubscribed and the run says so).
//   region_threads [--steps N] [--quiet] [--planted-costs]
#include "run_report.hpp"

#include <autosched/regions/region.hpp>

#include <omp.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

namespace {

/// `sweeps` Jacobi sweeps of y_i = (x_{i-1} + 2 x_i + x_{i+1}) / 4 (ends fixed).
void smooth(std::vector<double>& x, std::vector<double>& y, int sweeps, int threads) {
  const auto n = static_cast<std::int64_t>(x.size());
  for (int s = 0; s < sweeps; ++s) {
    const double* in = x.data();
    double* out = y.data();
#pragma omp parallel for num_threads(threads) schedule(static)
    for (std::int64_t i = 1; i < n - 1; ++i) out[i] = 0.25 * (in[i - 1] + 2.0 * in[i] + in[i + 1]);
    out[0] = in[0];
    out[n - 1] = in[n - 1];
    std::swap(x, y);
  }
}

/// --planted-costs: a step's cost in ns if a point costs 1 ns and each thread
/// beyond the first 1 µs to wake, per sweep. One thread wins at n = 64; at
/// n = 262144 the most threads offered win, up to 16.
double planted_cost(double n, int sweeps, int threads) { return sweeps * (n / threads + 1000.0 * (threads - 1)); }

}  // namespace

int main(int argc, char** argv) {
  const examples::RunOptions run = examples::parse_run_options(argc, argv, 300, /*plants_costs=*/true);

  const int cores = omp_get_num_procs();
  std::vector<std::int64_t> counts{1, 2};
  for (std::int64_t t = 4; t <= cores; t *= 2) counts.push_back(t);
  std::string list;
  for (const std::int64_t t : counts) list += (list.empty() ? "" : ", ") + std::to_string(t);

  const std::array<double, 2> sizes{64, 1 << 18};  // a sweep of 64 doubles is shorter than waking a second thread
  const int sweeps = 10;
  const int min_train = static_cast<int>(sizes.size() * counts.size());

  // explore_after=0: once trained, never try another thread count (default:
  // one execution in 100), so that a second run only exploits.
  autosched::Region region("examples/region_threads", {.features = {autosched::Feature::log2("n")},
                                                       .knobs = {autosched::Knob::integers("threads", counts)},
                                                       .model = "dtree,depth=2,explore_after=0",
                                                       .min_train = min_train});
  if (!run.quiet) {
    std::printf("region_threads: %d steps of %d sweeps over n in {64, 262144}, threads in {%s} on %d cores%s\n",
                run.steps, sweeps, list.c_str(), cores, cores < 2 ? " (2 is oversubscribed)" : "");
  }

  std::array<std::vector<double>, 2> field, next;
  for (std::size_t k = 0; k < sizes.size(); ++k) {
    const auto n = static_cast<std::size_t>(sizes[k]);
    field[k].resize(n);
    next[k].assign(n, 0.0);
    for (std::size_t i = 0; i < n; ++i) field[k][i] = (i % 64 < 32) ? 1.0 : 0.0;
  }

  examples::RunLog log;
  for (int step = 0; step < run.steps; ++step) {
    const std::size_t k = static_cast<std::size_t>(step) % sizes.size();
    bool explored = false;
    int threads = 0;
    {
      auto scope = region.begin({sizes[k]});
      explored = scope.exploring();
      threads = scope.value<int>("threads");
      smooth(field[k], next[k], sweeps, threads);
      if (run.planted_costs) scope.end(planted_cost(sizes[k], sweeps, threads));
    }
    log.executed(region, explored);
    if (!run.quiet && (explored || step < static_cast<int>(sizes.size())))
      std::printf("step %d: n=%.0f threads=%d (%s)\n", step, sizes[k], threads, explored ? "explore" : "exploit");
  }
  log.report(region, "n", sizes, min_train);
  for (const auto& f : field)
    for (const double v : f)
      if (!std::isfinite(v) || v < 0.0 || v > 1.0) return 1;  // a smoothed 0/1 field stays in [0, 1]
  return 0;
}
