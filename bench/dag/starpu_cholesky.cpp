// Tiled Cholesky on StarPU's CPU workers: StarPU's own policies against our
// schedulers run as a StarPU policy, all on the same real kernels
// (TiledFactorization) and the same calibrated duration table (the one our
// executor plans with, so the model-based policies see the same numbers).
//
// A policy `exec:<scheduler>` runs our own executor (autosched::dag_exec's
// worker threads, no StarPU) in the same rounds, so the comparison of our
// executor with StarPU's policies sees the same machine load.
//
// `runs` rounds, each one run of every policy in turn: a fresh factorisation
// of the same matrix (reset()), its makespan (release to
// starpu_task_wait_for_all) and its residual checked against the
// factorisation's tolerance. Prints the median and smallest makespan and
// the median's GFlop/s (n^3/3 flops) per policy; --csv writes every run.
//
//   bench_dag_starpu [--n 4096] [--tile 512] [--workers 2] [--runs 5]
//                    [--policies starpu:dm,starpu:dmdas,...,mct-prio,heft]
//                    [--table file] [--save-table file] [--csv file]
#include <autosched/core/system_info.hpp>
#if AUTOSCHED_BENCH_LEARNED
#include <autosched/dag/learned/register.hpp>
#endif
#include <autosched/dag/durations.hpp>
#include <autosched/dag/executor.hpp>
#include <autosched/dag/starpu/starpu_runner.hpp>
#include <autosched/dag/tiled_factorization.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using namespace autosched::dag;

struct Options {
  int n = 4096, tile = 512, workers = 2, runs = 5;
  std::vector<std::string> policies = {"starpu:dm",     "starpu:dmdas",  "starpu:heteroprio", "starpu:lws",
                                       "starpu:eager",  "mct-prio",      "heft",              "exec:mct-prio",
                                       "exec:heft",     "exec:eager"};
  std::string table, save_table, csv;
};

std::vector<std::string> split(const std::string& list) {
  std::vector<std::string> out;
  std::stringstream in(list);
  for (std::string item; std::getline(in, item, ',');) {
    if (!item.empty()) out.push_back(item);
  }
  return out;
}

int to_int(const std::string& flag, const std::string& value) {
  try {
    std::size_t used = 0;
    const int v = std::stoi(value, &used);
    if (used == value.size() && v > 0) return v;
  } catch (const std::exception&) {
  }
  throw std::invalid_argument(flag + "=" + value + ": expected a positive integer");
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (flag == "--help" || flag == "-h") {
      std::printf(
          "bench_dag_starpu [--n 4096] [--tile 512] [--workers 2] [--runs 5] [--policies a,b,...]\n"
          "                 [--table file] [--save-table file] [--csv file]\n"
          "policies: starpu:<name> (StarPU's), an autosched scheduler name (ours, as a StarPU policy),\n"
          "          or exec:<scheduler> (ours on autosched's own executor, without StarPU)\n");
      std::exit(0);
    }
    if (i + 1 >= argc) throw std::invalid_argument(flag + ": expected a value after it");
    const std::string value = argv[++i];
    if (flag == "--n") o.n = to_int(flag, value);
    else if (flag == "--tile") o.tile = to_int(flag, value);
    else if (flag == "--workers") o.workers = to_int(flag, value);
    else if (flag == "--runs") o.runs = to_int(flag, value);
    else if (flag == "--policies") o.policies = split(value);
    else if (flag == "--table") o.table = value;
    else if (flag == "--save-table") o.save_table = value;
    else if (flag == "--csv") o.csv = value;
    else throw std::invalid_argument(flag + ": unknown option (--n, --tile, --workers, --runs, --policies, --table, "
                                     "--save-table, --csv)");
  }
  if (o.n % o.tile != 0)
    throw std::invalid_argument("--n=" + std::to_string(o.n) + " is not a multiple of --tile=" + std::to_string(o.tile));
  return o;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.size() % 2 == 1 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

int run(const Options& o) {
  const int tiles = o.n / o.tile;
  const DurationTable table = o.table.empty() ? calibrate("cholesky", o.tile) : duration_table_file(o.table);
  if (!o.save_table.empty()) {
    std::ofstream out(o.save_table);
    out << to_text(table);
  }
  TiledFactorization f("cholesky", tiles, o.tile);
  const autosched::SystemInfo& sys = autosched::system_info();
  std::printf("# tiled Cholesky n=%d tile=%d (T=%d, %zu tasks), %d StarPU CPU workers, %d runs per policy\n", o.n,
              o.tile, tiles, f.graph().size(), o.workers, o.runs);
  std::printf("# machine: %s, %d cores; table %s (%s):", sys.cpu_model.c_str(), sys.physical_cores,
              table.name.c_str(), table.unit.c_str());
  for (const auto& [kernel, d] : table.kernels) std::printf(" %s %.2f", kernel.c_str(), d[0]);
  std::printf("\n");

  std::ofstream csv;
  if (!o.csv.empty()) {
    csv.open(o.csv);
    csv << "policy,run,n,tile,workers,makespan_ms,gflops,residual,verified,decisions,passes,machine\n";
  }
  // Rounds: run r of every policy, then run r + 1, so that a change in the
  // machine's load (it is shared) spreads over all policies alike.
  struct Samples {
    std::vector<double> makespans;
    double worst_residual = 0;
    bool verified = true;
  };
  std::vector<Samples> samples(o.policies.size());
  for (int r = 0; r < o.runs; ++r) {
    for (std::size_t p = 0; p < o.policies.size(); ++p) {
      const std::string& policy = o.policies[p];
      f.reset();
      starpu::RunResult result;
      if (policy.rfind("exec:", 0) == 0) {
        auto scheduler = make_scheduler(policy.substr(5));
        const ExecutionResult e = execute(f, platform(std::to_string(o.workers) + "cpu"), *scheduler, table,
                                          {.verify = false, .keep_schedule = false});
        result.makespan_ms = e.makespan;
        result.decisions = e.decisions;
        result.passes = e.passes;
      } else {
        result = starpu::run_on_starpu(f.graph(), table, [&](TaskId t) { f.run(t); },
                                       {.policy = policy, .workers = o.workers});
      }
      const double residual = f.residual();
      const bool ok = residual < f.tolerance();
      Samples& s = samples[p];
      s.verified = s.verified && ok;
      s.worst_residual = std::max(s.worst_residual, residual);
      s.makespans.push_back(result.makespan_ms);
      if (csv) {
        csv << policy << ',' << r << ',' << o.n << ',' << o.tile << ',' << o.workers << ',' << result.makespan_ms << ','
            << f.flops() / (result.makespan_ms * 1e6) << ',' << residual << ',' << (ok ? 1 : 0) << ','
            << result.decisions << ',' << result.passes << ",\"" << sys.cpu_model << "\"\n";
        csv.flush();
      }
    }
  }
  std::printf("%-20s %12s %10s %12s %12s %s\n", "policy", "median_ms", "GFlop/s", "min_ms", "max_residual",
              "verified");
  bool all_verified = true;
  for (std::size_t p = 0; p < o.policies.size(); ++p) {
    const Samples& s = samples[p];
    const double m = median(s.makespans);
    std::printf("%-20s %12.1f %10.2f %12.1f %12.2e %s\n", o.policies[p].c_str(), m, f.flops() / (m * 1e6),
                *std::min_element(s.makespans.begin(), s.makespans.end()), s.worst_residual,
                s.verified ? "yes" : "NO");
    all_verified = all_verified && s.verified;
  }
  return all_verified ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  try {
#if AUTOSCHED_BENCH_LEARNED
    autosched::dag::learned::register_learned_schedulers();  // readys:<model>
#endif
    return run(parse(argc, argv));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_dag_starpu: %s\n", e.what());
    return 2;
  }
}
