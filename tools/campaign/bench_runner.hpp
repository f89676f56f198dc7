#pragma once
/// @file
/// `autosched bench`: runs every (app, configuration) pair R times as separate
/// processes of the benchmark apps, interleaved in a shuffled order per
/// repetition so machine drift spreads over all configurations, and appends
/// every loop instance to `runs.csv` as each run finishes.

#include "configurations.hpp"
#include "runs_table.hpp"

#include <map>
#include <string>
#include <vector>

namespace autosched::campaign {

struct BenchPlan {
  std::vector<std::string> apps;
  std::vector<Configuration> configs;       ///< arms, references and methods of the cold phase
  std::vector<Configuration> warm_methods;  ///< run twice on a fresh store; the second run is recorded
  int reps = 3;
  int steps = 200;
  int threads = 0;  ///< 0: OpenMP's default in this process
  std::string out_dir;
  std::string bin_dir;  ///< where the autosched-<app> executables are
  std::string launcher;  ///< the `autosched` that runs the dropin: methods (empty: bin_dir/autosched)
  /// libautosched-omp.so, preloaded into autosched-plain-<app> for the
  /// Configuration::dropin methods; needed only when there are any.
  std::string dropin_library;
  /// Extra app arguments, e.g. {"pisolver", {"--n", "3000"}} for small runs.
  std::map<std::string, std::vector<std::string>> app_args;
  unsigned seed = 1;
  /// Pass --level-reference to every app: loops the app declares idempotent
  /// are measured a second time under a fixed schedule after each instance,
  /// so the report can divide out the level each process ran at.
  bool level_reference = true;
  std::string command_line;
  bool progress = true;  ///< a progress bar with ETA on stderr
  /// Continue a stopped campaign in out_dir: keep the complete runs of its
  /// runs.csv (same machine, build and plan, or an error) and run the rest.
  bool resume = false;
};

struct BenchOutcome {
  int runs = 0;
  int failed = 0;  ///< runs whose app exited non-zero (listed in failures.csv, logs kept)
  int kept = 0;    ///< complete runs a resumed campaign found in runs.csv and did not run again
  double seconds = 0;
};

/// Checks the plan (executables present, sizes positive) with errors naming
/// the bad value, then runs it into plan.out_dir (created; runs.csv replaced,
/// or continued with plan.resume).
BenchOutcome run_bench(const BenchPlan& plan);
/// The metadata every output carries: fingerprint, CPU, threads, build, a
/// digest of the programs the plan runs (its apps must exist), command
/// line, date and the plan's shape.
[[nodiscard]] Metadata campaign_metadata(const BenchPlan& plan);

}  // namespace autosched::campaign
