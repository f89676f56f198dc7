// The real executor of tiled factorisations under several schedulers: the
// median makespan of `runs` runs, GFlop/s, the worst residual, and the
// scheduling overhead the executor measured per task. The schedulers plan
// with kernel durations calibrated on this machine first.
//
// Usage: bench_dag_executor [key=value ...]
//   family=cholesky  n=4096  tile=512  workers=2  runs=5  schedulers=mct-prio,heft,eager  out=<dir>
// With out=<dir>: <dir>/executor.csv (one row per run, with machine context),
// <dir>/calibration.txt (the duration table), <dir>/gantt-<scheduler>.csv
// (the median run's schedule).
#include <autosched/core/error.hpp>
#include <autosched/core/system_info.hpp>
#if AUTOSCHED_BENCH_LEARNED
#include <autosched/dag/learned/register.hpp>
#endif
#include <autosched/dag/executor.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace {

using namespace autosched::dag;

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.size() % 2 == 1 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  std::stringstream in(s);
  for (std::string part; std::getline(in, part, sep);)
    if (!part.empty()) parts.push_back(part);
  return parts;
}

int to_int(const std::map<std::string, std::string>& args, const std::string& key) {
  const std::string& v = args.at(key);
  char* end = nullptr;
  const long x = std::strtol(v.c_str(), &end, 10);
  if (end == v.c_str() || *end != '\0' || x < 1)
    throw std::invalid_argument(key + "=" + v + ": expected a positive integer");
  return static_cast<int>(x);
}

int run(int argc, char** argv) {
  std::map<std::string, std::string> args{{"family", "cholesky"}, {"n", "4096"},       {"tile", "512"},
                                          {"workers", "2"},       {"runs", "5"},        {"out", ""},
                                          {"schedulers", "mct-prio,heft,eager"}};
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const auto eq = a.find('=');
    if (eq == std::string::npos || !args.count(a.substr(0, eq)))
      throw std::invalid_argument(a + ": expected key=value with key family, n, tile, workers, runs, schedulers or out");
    args[a.substr(0, eq)] = a.substr(eq + 1);
  }
  const int n = to_int(args, "n"), b = to_int(args, "tile"), workers = to_int(args, "workers");
  const int runs = to_int(args, "runs");
  if (n % b != 0) throw std::invalid_argument("n=" + args["n"] + " is not a multiple of tile=" + args["tile"]);
  const std::string family = args["family"];
  const std::filesystem::path out = args["out"];

  const auto& sys = autosched::system_info();
  TiledFactorization f(family, n / b, b);
  const Platform plat = platform(std::to_string(workers) + "cpu");
  std::printf("%s n=%d tile=%d (T=%d, %zu tasks), %d workers, %d runs; %s, %d hardware threads\n", family.c_str(), n,
              b, n / b, f.graph().size(), workers, runs, sys.cpu_model.c_str(), sys.hardware_threads);
  const DurationTable table = calibrate(family, b, 5);
  std::printf("calibrated (median of 5, ms):");
  for (const auto& [kernel, d] : table.kernels) std::printf(" %s %.2f", kernel.c_str(), d[0]);
  std::printf("\n\n%-10s %12s %9s %11s %8s %14s %14s %12s\n", "scheduler", "makespan ms", "GFlop/s", "residual",
              "verified", "overhead us/t", "scheduler us/t", "wake us/t");

  std::ofstream csv;
  if (!out.empty()) {
    std::filesystem::create_directories(out);
    std::ofstream(out / "calibration.txt") << autosched::dag::to_text(table);
    csv.open(out / "executor.csv");
    csv << "family,n,tile,workers,scheduler,run,makespan_ms,gflops,residual,tolerance,verified,decisions,passes,forced,"
           "scheduler_ms,wake_ms,runtime_ms,overhead_per_task_us,cpu_model,hardware_threads,compiler\n";
  }
  const double tasks = static_cast<double>(f.graph().size());
  for (const std::string& name : split(args["schedulers"], ',')) {
    std::vector<double> makespans, overheads, in_scheduler, waking;
    std::vector<ExecutionResult> results;
    double worst_residual = 0;
    int verified = 0;
    for (int r = 0; r < runs; ++r) {
      f.reset();
      auto scheduler = make_scheduler(name);
      ExecutorOptions options;
      options.seed = static_cast<std::uint64_t>(r + 1);
      ExecutionResult res = execute(f, plat, *scheduler, table, options);
      makespans.push_back(res.makespan);
      overheads.push_back(res.overhead_per_task_us);
      in_scheduler.push_back(res.scheduler_ms * 1e3 / tasks);
      waking.push_back(res.wake_ms * 1e3 / tasks);
      worst_residual = std::max(worst_residual, res.residual);
      verified += res.verified ? 1 : 0;
      if (csv.is_open())
        csv << family << ',' << n << ',' << b << ',' << workers << ',' << name << ',' << r << ',' << res.makespan << ','
            << f.flops() / (res.makespan * 1e6) << ',' << res.residual << ',' << res.tolerance << ','
            << (res.verified ? 1 : 0) << ',' << res.decisions << ',' << res.passes << ',' << res.forced << ','
            << res.scheduler_ms << ',' << res.wake_ms << ',' << res.runtime_ms << ',' << res.overhead_per_task_us
            << ",\"" << sys.cpu_model << "\"," << sys.hardware_threads << ",\"" << sys.compiler << "\"\n";
      results.push_back(std::move(res));
    }
    const double m = median(makespans);
    std::printf("%-10s %12.1f %9.2f %11.2e %5d/%-2d %14.1f %14.1f %12.1f\n", name.c_str(), m, f.flops() / (m * 1e6),
                worst_residual, verified, runs, median(overheads), median(in_scheduler), median(waking));
    if (!out.empty()) {  // the Gantt chart of the run closest to the median
      const auto closest = std::min_element(results.begin(), results.end(), [&](const auto& x, const auto& y) {
        return std::abs(x.makespan - m) < std::abs(y.makespan - m);
      });
      std::ofstream gantt(out / ("gantt-" + name + ".csv"));
      gantt << "task,kernel,worker,start_ms,end_ms\n";
      for (const ScheduledTask& s : closest->schedule)
        gantt << s.task << ',' << f.graph().kernel_name(s.task) << ',' << s.processor << ',' << s.start << ','
              << s.end << '\n';
    }
  }
  if (!out.empty()) std::printf("\nCSV in %s\n", out.c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
#if AUTOSCHED_BENCH_LEARNED
    autosched::dag::learned::register_learned_schedulers();  // readys:<model>
#endif
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_dag_executor: %s\n", e.what());
    return 1;
  }
}
