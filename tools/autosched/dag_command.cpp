// `autosched dag simulate|run|bench|train`: task graphs (tiled factorisations
// or a graph file) scheduled by every scheduler of autosched::dag.
// `simulate` runs one episode per scheduler and can draw its Gantt chart;
// `bench` sweeps graphs × tiles × platforms × noise with many noise samples
// per point and writes tables; both are simulated (the event simulator of
// autosched/dag/simulator.hpp), never measured. `run` executes a
// factorisation for real. This file registers them (dag_options.hpp).
#include "cli_app.hpp"
#include "commands.hpp"
#include "dag_options.hpp"
#include "subcommands.hpp"

#include <autosched/dag/scheduler.hpp>

#include <memory>
#include <string>

namespace autosched::cli {

using namespace dag_cli;

namespace {
/// What `all` stands for in the help: the list scheduler_list expands it to.
std::string all_schedulers() {
  std::string names;
  for (const std::string& n : dag::scheduler_names()) names += (names.empty() ? "" : ", ") + n;
  return "= " + names + "; smallest-id, readys:<model> by name";
}
}  // namespace

void add_dag_command(CLI::App& app) {
  register_learned_plugin();  // readys:<model>, when built
  auto* dag = app.add_subcommand("dag", std::string(description("dag")));
  dag->require_subcommand(1);

  auto so = std::make_shared<SimulateOptions>();
  auto* sim =
      dag->add_subcommand("simulate", "Simulate one graph under each scheduler: makespans, lower bound, schedule");
  sim->add_option("--graph", so->graph, "cholesky, lu, qr or a graph file (autosched task graph v1)")
      ->capture_default_str();
  sim->add_option("--tiles", so->tiles, "Tiles per matrix side T for cholesky/lu/qr")->capture_default_str()->type_name("INT");
  sim->add_option("--platform", so->platform, "Processors, e.g. 2cpu+2gpu, 4cpu, 3cpu+1gpu")->capture_default_str();
  sim->add_option("--durations", so->durations, "readys, mirage or a duration table file")->capture_default_str();
  sim->add_option("--scheduler,--schedulers", so->schedulers, "Schedulers separated by ',', or all (" + all_schedulers() + ")")
      ->capture_default_str();
  sim->add_option("--sigma", so->sigma, "Noise level σ (relative; absolute with --readys-compat)")
      ->capture_default_str();
  sim->add_option("--seed", so->seed, "Noise seed")->capture_default_str()->check(seed_check());
  sim->add_flag("--readys-compat", so->readys_compat, "READYS's graphs (its labels, its QR) and additive GPU noise");
  sim->add_option("--csv", so->csv, "Write the schedule: scheduler,task,kernel,processor,kind,start,end");
  sim->add_option(
      "--gantt", so->gantt,
      "Draw a Gantt chart PNG with gnuplot (with several schedulers: one per scheduler, <name>-<scheduler>.png)");
  sim->callback([so] { simulate_command(*so); });

  auto ro = std::make_shared<RunOptions>();
  auto* run = dag->add_subcommand("run", "Run a tiled factorisation for real on worker threads under each scheduler");
  run->add_option("--graph", ro->graph, "cholesky, lu or qr")->capture_default_str();
  run->add_option("--tiles", ro->tiles, "Tiles per matrix side T")->capture_default_str();
  run->add_option("--tile-size", ro->tile_size, "Rows (= columns) of a tile")->capture_default_str();
  run->add_option("--workers", ro->workers, "CPU worker threads")->capture_default_str();
  run->add_option("--gpus", ro->gpus, "GPU workers (builds with CUDA, where a GPU is present)")->capture_default_str();
  run->add_option("--durations", ro->durations, "calibrate (measure the kernels here first) or a duration table file")
      ->capture_default_str();
  run->add_option("--scheduler,--schedulers", ro->schedulers, "Schedulers separated by ',', or all (" + all_schedulers() + ")")
      ->capture_default_str();
  run->add_option("--runs", ro->runs, "Runs per scheduler (the median is shown)")->capture_default_str();
  run->add_option("--seed", ro->seed, "Matrix and scheduler seed")->capture_default_str()->check(seed_check());
  run->add_option("--csv", ro->csv, "Write the measured schedule: scheduler,task,kernel,processor,kind,start,end (ms)");
  run->add_option("--gantt", ro->gantt, "Draw the measured schedule as a Gantt chart PNG (one per scheduler)");
  run->callback([ro] { run_command(*ro); });

  auto bo = std::make_shared<BenchOptions>();
  auto* bench = dag->add_subcommand("bench", "Mean makespan of every scheduler over noise samples, as tables");
  bench->add_option("--graphs", bo->graphs, "cholesky, lu, qr or graph files, separated by ','")->capture_default_str();
  bench->add_option("--tiles", bo->tiles, "Tile counts: 8, 4,6,8 or 4..12")->capture_default_str()->type_name("LIST");
  bench->add_option("--platforms", bo->platforms, "Platforms separated by ','")->capture_default_str();
  bench->add_option("--sigmas", bo->sigmas, "Noise levels separated by ','")->capture_default_str();
  bench->add_option("--samples", bo->samples, "Noise samples per point (seeds seed .. seed+samples-1)")
      ->capture_default_str();
  bench->add_option("--schedulers", bo->schedulers, "Schedulers separated by ',', or all (" + all_schedulers() + ")")->capture_default_str();
  bench->add_option("--durations", bo->durations, "readys, mirage or a duration table file")->capture_default_str();
  bench->add_option("--seed", bo->seed, "The first noise seed")->capture_default_str()->check(seed_check());
  bench->add_flag("--readys-compat", bo->readys_compat, "READYS's graphs and additive GPU noise");
  bench->add_option("--jobs", bo->jobs, "Threads over points (results do not depend on it)")->capture_default_str();
  bench->add_flag("--no-progress", bo->no_progress, "No progress on stderr");
  bench->add_option("--out", bo->out, "Directory for makespans.csv and makespans.md")->required();
  bench->callback([bo] { bench_command(*bo); });
  add_dag_train_command(*dag);  // says so when this build has no libtorch
}

}  // namespace autosched::cli
