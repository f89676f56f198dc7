// `autosched dag simulate`: one graph scheduled on a simulated CPU+GPU
// platform by each scheduler: makespans against the lower bound, and the
// schedule as CSV or Gantt charts.
#include "dag_arguments.hpp"
#include "dag_options.hpp"
#include "dag_output.hpp"

#include <autosched/dag/ranks.hpp>
#include <autosched/dag/scheduler.hpp>
#include <autosched/dag/simulator.hpp>

#include <cstdio>

namespace autosched::cli::dag_cli {

using namespace autosched::dag;

void simulate_command(const SimulateOptions& o) {
  const int tiles = is_family(o.graph) ? tiles_value(o.tiles, "--tiles", o.tiles) : 0;
  const GraphFlavour flavour = o.readys_compat ? GraphFlavour::readys : GraphFlavour::correct;
  const TaskGraph graph = make_graph(o.graph, tiles, flavour, "--graph");
  const Platform plat = platform_value(o.platform, "--platform", o.platform);
  const DurationTable table = for_option("--durations", o.durations, [&] { return duration_table(o.durations); });
  const Problem problem = for_option("--durations", o.durations, [&] { return Problem(graph, plat, table); });
  const std::vector<std::string> names = scheduler_list(o.schedulers, "--scheduler");
  const double sigma = sigma_value(o.sigma, "--sigma", o.sigma);

  SimulationOptions options;
  options.noise = Noise{sigma, o.readys_compat};
  options.seed = o.seed;
  options.keep_schedule = true;
  const LowerBound lb = lower_bound(problem);
  std::printf("%s on %s: %zu tasks, %zu edges; durations %s (%s); %s, seed %llu\n", graph.name().c_str(),
              plat.describe().c_str(), graph.size(), graph.edge_count(), table.name.c_str(), problem.time_unit.c_str(),
              noise_text(sigma, o.readys_compat).c_str(), static_cast<unsigned long long>(o.seed));
  std::printf("lower bound %s (critical path %s, area %s), on expected durations\n\n", number(lb.value()).c_str(),
              number(lb.critical_path).c_str(), number(lb.area).c_str());
  const int width = name_width(names);
  std::printf("  %-*s %10s %9s %10s %7s %7s\n", width, "scheduler", "makespan", "vs bound", "decisions", "passes",
              "forced");
  std::vector<Episode> episodes;
  for (const std::string& name : names) {
    auto scheduler = make_scheduler(name);
    Episode e{name, simulate(problem, *scheduler, options)};
    std::printf("  %-*s %10s %+8.1f%% %10zu %7zu %7zu\n", width, name.c_str(), number(e.result.makespan).c_str(),
                (e.result.makespan / lb.value() - 1) * 100, e.result.decisions, e.result.passes, e.result.forced);
    episodes.push_back(std::move(e));
  }
  std::fflush(stdout);
  if (!o.csv.empty()) {
    write_schedule_csv(o.csv, problem, episodes);
    std::printf("schedule: %s\n", o.csv.c_str());
  }
  if (!o.gantt.empty()) {
    for (const Episode& e : episodes) {
      const std::string title = e.scheduler + ": " + graph.name() + " on " + plat.describe() + ", " +
                                noise_text(sigma, o.readys_compat) + ", makespan " + number(e.result.makespan) + " " +
                                problem.time_unit;
      draw_gantt(per_scheduler_path(o.gantt, e.scheduler, episodes.size() > 1), problem, e, title);
    }
  }
}

}  // namespace autosched::cli::dag_cli
