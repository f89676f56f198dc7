// How fast the task-graph simulator runs whole episodes: scheduler
// decisions per second (choose() calls, passes included) on tiled Cholesky
// T = 12 (364 tasks) with READYS's durations and σ = 0.3 noise, every
// episode from start() (HEFT's planning and the ranks included) to the last
// completion. Issue 14's goal: >= 10^6 decisions/s for the list heuristics.
// Run: bench/dag/throughput.sh, or bench_dag_simulator directly.
#include <autosched/dag/factorizations.hpp>
#include <autosched/dag/simulator.hpp>

#include <benchmark/benchmark.h>

#include <string>

namespace {

namespace dag = autosched::dag;

void episodes(benchmark::State& state, const std::string& scheduler_name, const std::string& platform_spec) {
  const dag::TaskGraph graph = dag::cholesky(12);
  const dag::Problem problem(graph, dag::platform(platform_spec), dag::duration_table("readys"));
  const auto scheduler = dag::make_scheduler(scheduler_name);
  dag::SimulationOptions options;
  options.noise.sigma = 0.3;
  options.keep_schedule = false;
  // A handful of noise samples, drawn outside the timed loop.
  std::vector<std::vector<dag::KindDurations>> actual;
  for (std::uint64_t s = 1; s <= 8; ++s) actual.push_back(dag::sample_durations(problem.expected, options.noise, s));
  std::size_t decisions = 0, episodes_run = 0;
  for (auto _ : state) {
    const auto r = dag::simulate(problem, *scheduler, actual[episodes_run % actual.size()], options);
    decisions += r.decisions;
    ++episodes_run;
    benchmark::DoNotOptimize(r.makespan);
  }
  state.counters["decisions/s"] = benchmark::Counter(static_cast<double>(decisions), benchmark::Counter::kIsRate);
  state.counters["tasks/s"] =
      benchmark::Counter(static_cast<double>(episodes_run * graph.size()), benchmark::Counter::kIsRate);
  state.counters["decisions/episode"] = static_cast<double>(decisions) / static_cast<double>(episodes_run);
}

}  // namespace

int main(int argc, char** argv) {
  for (const char* platform : {"2cpu+2gpu", "4cpu"}) {
    for (const char* scheduler : {"eager", "mct", "heft", "heteroprio", "mct-prio", "readys-heft", "random"}) {
      benchmark::RegisterBenchmark((std::string("cholesky12/") + platform + "/" + scheduler).c_str(),
                                   [=](benchmark::State& s) { episodes(s, scheduler, platform); })
          ->Unit(benchmark::kMicrosecond);
    }
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
