// `autosched dag run`: a tiled factorisation executed for real on worker
// threads (and GPUs where built and present) under each scheduler. Built
// into the autosched-dag-run helper only, which links the executor and its
// LAPACK and CUDA libraries (dag_options.hpp).
#include "dag_arguments.hpp"
#include "dag_options.hpp"
#include "dag_output.hpp"

#include <autosched/dag/executor.hpp>
#include <autosched/dag/ranks.hpp>
#include <autosched/dag/scheduler.hpp>
#include <autosched/dag/tiled_factorization.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

namespace autosched::cli::dag_cli {

using namespace autosched::dag;

void run_command(const RunOptions& o) {
  if (!is_family(o.graph))
    detail::throw_error(text::bad_value("--graph", o.graph, "cholesky, lu or qr (the executor has their kernels)"));
  if (o.tiles < 2 || o.tiles > 64) detail::throw_error(text::bad_value("--tiles", std::to_string(o.tiles), "an integer in [2, 64]"));
  if (o.tile_size < 1 || o.tile_size > 4096)
    detail::throw_error(text::bad_value("--tile-size", std::to_string(o.tile_size), "an integer in [1, 4096]"));
  if (o.workers < 1 || o.workers > 256)
    detail::throw_error(text::bad_value("--workers", std::to_string(o.workers), "an integer in [1, 256]"));
  if (o.runs < 1 || o.runs > 1000) detail::throw_error(text::bad_value("--runs", std::to_string(o.runs), "an integer in [1, 1000]"));
  const std::vector<std::string> names = scheduler_list(o.schedulers, "--scheduler");
  {
    // The matrix and its original (kept for reset), then three n² copies
    // while the residual is checked; QR adds T factors and A^T A.
    const double n = static_cast<double>(o.tiles) * o.tile_size;
    const double matrices = text::lower(o.graph) == "qr" ? 7 : 5;
    refuse_beyond_memory("--tile-size", std::to_string(o.tile_size), matrices * n * n * sizeof(double),
                         "a " + std::to_string(o.tiles) + "×" + std::to_string(o.tiles) + "-tile " + text::lower(o.graph) +
                             " of order n = " + std::to_string(static_cast<long long>(n)));
  }
  TiledFactorization f(o.graph, o.tiles, o.tile_size, o.seed);
  if (o.gpus < 0 || o.gpus > 64) detail::throw_error(text::bad_value("--gpus", std::to_string(o.gpus), "an integer in [0, 64]"));
  // Before the calibration, which takes a while and would end in an empty table.
  if (o.gpus > 0 && gpu_workers() == 0) {
    detail::throw_error("--gpus=" + std::to_string(o.gpus) +
                        ": the CUDA runtime sees no GPU here; run with --gpus 0 (dag simulate --platform "
                        "models GPUs without one)");
  }
  const Platform plat = platform(std::to_string(o.workers) + "cpu" + (o.gpus > 0 ? std::string("+") + std::to_string(o.gpus) + "gpu" : ""));
  std::fprintf(stderr, "calibrating the %s kernels at tile size %d...\n", o.graph.c_str(), o.tile_size);
  const DurationTable table = o.durations == "calibrate"
                                  ? calibrate(o.graph, o.tile_size)
                                  : for_option("--durations", o.durations, [&] { return duration_table(o.durations); });
  const Problem problem = for_option("--durations", o.durations, [&] { return Problem(f.graph(), plat, table); });
  std::printf("%s, %d×%d tiles of %d² (n = %d), workers %s; durations %s (%s):", f.graph().name().c_str(), o.tiles,
              o.tiles, o.tile_size, o.tiles * o.tile_size, plat.describe().c_str(), table.name.c_str(),
              table.unit.c_str());
  for (const auto& [kernel, d] : table.kernels) {
    std::printf(" %s %s", kernel.c_str(), number(d[0], 2).c_str());
    if (d[1] != not_available) std::printf("/%s", number(d[1], 2).c_str());
  }
  std::printf("\nlower bound %s %s on those durations\n\n", number(lower_bound(problem).value()).c_str(),
              table.unit.c_str());
  const int width = name_width(names);
  std::printf("  %-*s %12s %9s %10s %9s %14s\n", width, "scheduler", "makespan ms", "GFlop/s", "residual", "verified",
              "overhead µs/t");
  std::vector<Episode> episodes;
  bool all_verified = true;
  for (const std::string& name : names) {
    std::vector<double> makespans;
    ExecutionResult kept;
    int verified = 0;
    double worst = 0, overhead = 0;
    for (int r = 0; r < o.runs; ++r) {
      f.reset();
      auto scheduler = make_scheduler(name);
      ExecutionResult e = execute(f, plat, *scheduler, table, {.seed = o.seed});
      makespans.push_back(e.makespan);
      verified += e.verified ? 1 : 0;
      worst = std::max(worst, e.residual);
      overhead += e.overhead_per_task_us / o.runs;
      std::vector<double> sorted = makespans;
      std::sort(sorted.begin(), sorted.end());
      // Keep the run closest to the median for the Gantt chart and the CSV.
      if (r == 0 || std::abs(e.makespan - sorted[sorted.size() / 2]) < std::abs(kept.makespan - sorted[sorted.size() / 2]))
        kept = std::move(e);
    }
    std::sort(makespans.begin(), makespans.end());
    const double median = makespans[makespans.size() / 2];
    all_verified = all_verified && verified == o.runs;
    std::printf("  %-*s %12s %9s %10.2e %6d/%-2d %14s\n", width, name.c_str(), number(median).c_str(),
                number(f.flops() / (median * 1e6)).c_str(), worst, verified, o.runs, number(overhead).c_str());
    SimulationResult as_run;
    as_run.makespan = kept.makespan;
    as_run.decisions = kept.decisions;
    as_run.passes = kept.passes;
    as_run.forced = kept.forced;
    as_run.schedule = std::move(kept.schedule);
    episodes.push_back({name, std::move(as_run)});
  }
  std::fflush(stdout);
  const Problem in_ms(f.graph(), plat, table.expected(f.graph()), "ms");
  if (!o.csv.empty()) {
    write_schedule_csv(o.csv, in_ms, episodes);
    std::printf("schedule: %s\n", o.csv.c_str());
  }
  if (!o.gantt.empty()) {
    for (const Episode& e : episodes) {
      const std::string title = e.scheduler + ": " + f.graph().name() + " n=" + std::to_string(o.tiles * o.tile_size) +
                                " on " + plat.describe() + ", measured makespan " +
                                number(e.result.makespan) + " ms";
      draw_gantt(per_scheduler_path(o.gantt, e.scheduler, episodes.size() > 1), in_ms, e, title);
    }
  }
  if (!all_verified) detail::throw_error("a factorisation failed its residual check (see the table above)");
}

}  // namespace autosched::cli::dag_cli
