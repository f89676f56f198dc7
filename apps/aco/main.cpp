// autosched-aco: the benchmark workload of the thread-pinning experiments
// (issue 16, docs/pinning-bench.md): ant colony optimisation for the
// single-machine total weighted tardiness problem on a fixed team of
// std::threads that split the ants of each iteration statically. Its
// completion time, the time its slowest thread needs, is what a pinning
// policy shortens or not.
//
// Self-checking: the best sequence must be a permutation of the jobs whose
// recomputed cost is the reported one (exit 1 otherwise); --check runs a tiny
// instance and compares with the brute-force optimum.
//
// --pinning runs the autosched pinning manager inside the app, the workers
// beating once per ant (docs/pinning-bench.md).
#include "colony.hpp"
#include "smtwtp.hpp"

#include <autosched/core/error.hpp>
#include <autosched/pinning/manager.hpp>
#include <autosched/pinning/options.hpp>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace aco = autosched::apps::aco;

namespace {

constexpr const char* program = "autosched-aco";

// Defaults of a run: chosen so that 6 threads on this project's 2-core VM
// take about 0.1 s per iteration and 20-30 s in all (docs/pinning-bench.md
// has the measurement).
constexpr int default_jobs = 100;
constexpr int default_ants = 60;
constexpr int default_threads = 6;
constexpr int default_iterations = 250;
constexpr int default_work_scale = 16;
// --check: a tiny instance that 8! = 40320 sequences settle.
constexpr int check_jobs = 8;
constexpr int check_ants = 12;
constexpr int check_iterations = 50;

[[noreturn]] void usage_error(const std::string& message) {
  std::fprintf(stderr, "%s: %s (--help lists the options)\n", program, message.c_str());
  std::exit(2);
}

void print_help() {
  std::printf(
      "%s: ACO for the single-machine total weighted tardiness problem, ants split\n"
      "statically over a fixed team of threads (the thread-pinning benchmark)\n\n"
      "usage: %s [options]\n"
      "instance:\n"
      "  --jobs N            jobs of the generated instance (default %d)\n"
      "  --tf X              tardiness factor, in [0,1] (default 0.6)\n"
      "  --rdd X             relative range of due dates, in [0,1] (default 0.6)\n"
      "  --instance-seed S   seed of the generator (default 1)\n"
      "  --instance FILE     read the instance instead: n, then n p, n w, n d\n"
      "colony:\n"
      "  --ants A            ants per iteration (default %d)\n"
      "  --threads P         threads; each builds ceil(A/P) ants (default %d)\n"
      "  --iterations K      ACO iterations (default %d)\n"
      "  --seed S            thread t draws from seed S + t (default 1)\n"
      "  --alpha X           pheromone exponent, >= 0 (default 1)\n"
      "  --beta X            heuristic exponent, >= 0 (default 2)\n"
      "  --rho X             evaporation, in (0,1] (default 0.1)\n"
      "  --q0 X              probability of the greedy choice, in [0,1] (default 0.9)\n"
      "  --deposit D         best-so-far|iteration-best (default best-so-far)\n"
      "  --work-scale W      constructions per ant, the ant keeps its best (default %d)\n"
      "output:\n"
      "  --verbose           one line per iteration: its wall time and the best cost so far\n"
      "  --trace FILE        CSV, one row per thread per iteration\n"
      "  --output-json FILE  completion time, best cost, per-thread times\n"
      "  --check             tiny instance (%d jobs unless --jobs <= 10) against brute force\n"
      "pinning (docs/pinning.md):\n"
      "  --pinning P         run the pinning manager: learn|o1|o2|round-robin|autopin|off\n"
      "                      [,key=value...]; off measures only (default: AUTOSCHED_PINNING)\n"
      "  --pinning-trace F   the manager's trace, one row per thread per period\n",
      program, program, default_jobs, default_ants, default_threads, default_iterations, default_work_scale,
      check_jobs);
}

double parse_real(const std::string& option, const std::string& text, double lo, double hi, bool lo_open,
                  const std::string& accepted) {
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || errno != 0 || !std::isfinite(v) || v < lo || v > hi || (lo_open && v == lo)) {
    usage_error("--" + option + "=" + text + ": expected " + accepted);
  }
  return v;
}

long parse_integer(const std::string& option, const std::string& text, long lo, long hi) {
  char* end = nullptr;
  errno = 0;
  const long v = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || errno != 0 || v < lo || v > hi) {
    usage_error("--" + option + "=" + text + ": expected an integer in [" + std::to_string(lo) + "," +
                std::to_string(hi) + "]");
  }
  return v;
}

std::uint64_t parse_seed(const std::string& option, const std::string& text) {
  char* end = nullptr;
  errno = 0;
  const unsigned long long v = std::strtoull(text.c_str(), &end, 10);
  if (text.empty() || text[0] == '-' || *end != '\0' || errno != 0) {
    usage_error("--" + option + "=" + text + ": expected a non-negative integer");
  }
  return v;
}

// Thread pinning (issue 16): every worker registers with the manager and
// beats once per ant, so the manager learns from ants per second.
class PinnedProgress final : public aco::Progress {
 public:
  PinnedProgress(autosched::pinning::Manager& manager, int threads) : manager_(manager), handles_(threads) {}
  void thread_started(int t) override { handles_[t] = manager_.register_thread(); }
  void work_done(int t) override { handles_[t].heartbeat(); }
  void thread_finished(int t) override { handles_[t].unregister(); }

 private:
  autosched::pinning::Manager& manager_;
  std::vector<autosched::pinning::ThreadRegistration> handles_;
};

/// The manager's options from --pinning, else AUTOSCHED_PINNING, else none.
std::optional<autosched::pinning::ManagerOptions> pinning_options(const std::string& given) {
  try {
    if (!given.empty()) return autosched::pinning::parse_options(given, "--pinning");
    return autosched::pinning::options_from_environment();
  } catch (const autosched::Error& e) {
    usage_error(e.what());
  }
}

bool write_trace(const std::string& path, const aco::Result& r) {
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (f == nullptr) return false;
  std::fprintf(f, "iteration,thread,start_s,end_s,constructions,constructions_done,rate_per_s\n");
  std::vector<long> done(r.thread_constructions.size(), 0);
  for (std::size_t it = 0; it < r.trace.size(); ++it) {
    for (std::size_t t = 0; t < r.trace[it].size(); ++t) {
      const aco::ThreadIteration& x = r.trace[it][t];
      done[t] += x.constructions;
      const double span = x.end_s - x.start_s;
      std::fprintf(f, "%zu,%zu,%.6f,%.6f,%d,%ld,%.3f\n", it, t, x.start_s, x.end_s, x.constructions, done[t],
                   span > 0 ? x.constructions / span : 0.0);
    }
  }
  return std::fclose(f) == 0;
}

template <class T>
std::string json_list(const std::vector<T>& values, const char* format) {
  std::string s = "[";
  char buffer[64];
  for (std::size_t i = 0; i < values.size(); ++i) {
    std::snprintf(buffer, sizeof buffer, format, values[i]);
    if (i != 0) s += ',';
    s += buffer;
  }
  return s + "]";
}

bool write_json(const std::string& path, const aco::Instance& in, const aco::Params& p, const aco::Result& r,
                double completion, bool verified, long optimum) {
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (f == nullptr) return false;
  std::fprintf(f,
               "{\n  \"app\": \"aco\",\n  \"jobs\": %d,\n  \"ants\": %d,\n  \"threads\": %d,\n  \"iterations\": %d,\n"
               "  \"work_scale\": %d,\n  \"seed\": %llu,\n  \"completion_s\": %.6f,\n  \"wall_s\": %.6f,\n"
               "  \"best_cost\": %ld,\n  \"verified\": %s,\n",
               in.size(), p.ants, p.threads, p.iterations, p.work_scale, static_cast<unsigned long long>(p.seed),
               completion, r.wall_s, r.best_cost, verified ? "true" : "false");
  if (optimum >= 0) std::fprintf(f, "  \"optimum\": %ld,\n", optimum);
  std::fprintf(f, "  \"thread_finish_s\": %s,\n  \"thread_busy_s\": %s,\n  \"thread_constructions\": %s,\n",
               json_list(r.thread_finish_s, "%.6f").c_str(), json_list(r.thread_busy_s, "%.6f").c_str(),
               json_list(r.thread_constructions, "%ld").c_str());
  std::fprintf(f, "  \"iteration_wall_s\": %s,\n  \"best_sequence\": %s\n}\n",
               json_list(r.iteration_wall_s, "%.6f").c_str(), json_list(r.best_sequence, "%d").c_str());
  return std::fclose(f) == 0;
}

}  // namespace

int main(int argc, char** argv) {
  aco::Params params;
  params.ants = default_ants;
  params.threads = default_threads;
  params.iterations = default_iterations;
  params.work_scale = default_work_scale;
  int jobs = default_jobs;
  double tf = 0.6, rdd = 0.6;
  std::uint64_t instance_seed = 1;
  std::string instance_path, trace_path, json_path, pinning_text, pinning_trace_path;
  bool check = false;
  std::set<std::string> given;

  const std::set<std::string> flags = {"verbose", "check", "help"};
  const std::set<std::string> valued = {"jobs",  "tf",          "rdd",        "instance-seed", "instance",
                                        "ants",  "threads",     "iterations", "seed",          "alpha",
                                        "beta",  "rho",         "q0",         "deposit",       "work-scale",
                                        "trace", "output-json", "pinning",    "pinning-trace"};
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "-h") arg = "--help";
    if (arg.rfind("--", 0) != 0) usage_error("unexpected argument '" + arg + "'");
    std::string option = arg.substr(2), value;
    const std::size_t eq = option.find('=');
    const bool inline_value = eq != std::string::npos;
    if (inline_value) {
      value = option.substr(eq + 1);
      option.resize(eq);
    }
    if (flags.count(option) != 0) {
      if (inline_value) usage_error("--" + option + " takes no value");
      if (option == "help") {
        print_help();
        return 0;
      }
      (option == "check" ? check : params.verbose) = true;
      continue;
    }
    if (valued.count(option) == 0) {
      std::string all;
      for (const auto& o : valued) all += " --" + o;
      for (const auto& o : flags) all += " --" + o;
      usage_error("unknown option --" + option + "; accepted:" + all);
    }
    if (!inline_value) {
      if (i + 1 >= argc) usage_error("--" + option + " needs a value");
      value = argv[++i];
    }
    given.insert(option);
    if (option == "jobs")
      jobs = static_cast<int>(parse_integer(option, value, 1, 100000));
    else if (option == "tf")
      tf = parse_real(option, value, 0, 1, false, "a number in [0,1]");
    else if (option == "rdd")
      rdd = parse_real(option, value, 0, 1, false, "a number in [0,1]");
    else if (option == "instance-seed")
      instance_seed = parse_seed(option, value);
    else if (option == "instance")
      instance_path = value;
    else if (option == "ants")
      params.ants = static_cast<int>(parse_integer(option, value, 1, 1000000));
    else if (option == "threads")
      params.threads = static_cast<int>(parse_integer(option, value, 1, 1024));
    else if (option == "iterations")
      params.iterations = static_cast<int>(parse_integer(option, value, 1, 10000000));
    else if (option == "seed")
      params.seed = parse_seed(option, value);
    else if (option == "alpha")
      params.alpha = parse_real(option, value, 0, 100, false, "a number in [0,100]");
    else if (option == "beta")
      params.beta = parse_real(option, value, 0, 100, false, "a number in [0,100]");
    else if (option == "rho")
      params.rho = parse_real(option, value, 0, 1, true, "a number in (0,1]");
    else if (option == "q0")
      params.q0 = parse_real(option, value, 0, 1, false, "a number in [0,1]");
    else if (option == "work-scale")
      params.work_scale = static_cast<int>(parse_integer(option, value, 1, 1000000));
    else if (option == "trace")
      trace_path = value;
    else if (option == "output-json")
      json_path = value;
    else if (option == "pinning")
      pinning_text = value;
    else if (option == "pinning-trace")
      pinning_trace_path = value;
    else if (option == "deposit") {
      if (value == "best-so-far")
        params.deposit = aco::Deposit::best_so_far;
      else if (value == "iteration-best")
        params.deposit = aco::Deposit::iteration_best;
      else
        usage_error("--deposit=" + value + ": expected best-so-far|iteration-best");
    }
  }
  if (check) {
    if (!instance_path.empty()) usage_error("--check generates its own instance: drop --instance");
    if (given.count("jobs") == 0) jobs = check_jobs;
    if (jobs > 10)
      usage_error("--jobs=" + std::to_string(jobs) + ": --check enumerates n! sequences, expected n <= 10");
    if (given.count("ants") == 0) params.ants = check_ants;
    if (given.count("iterations") == 0) params.iterations = check_iterations;
    if (given.count("work-scale") == 0) params.work_scale = 1;
  }

  aco::Instance instance;
  try {
    instance = instance_path.empty() ? aco::generate(jobs, tf, rdd, instance_seed) : aco::read_instance(instance_path);
  } catch (const std::exception& e) {
    usage_error(std::string("--instance=") + e.what());
  }

  std::printf("%s: %d jobs, %d ants x %d iterations (work scale %d), %d threads, seed %llu\n", program, instance.size(),
              params.ants, params.iterations, params.work_scale, params.threads,
              static_cast<unsigned long long>(params.seed));
  std::fflush(stdout);
  const auto pinning = pinning_options(pinning_text);
  if (!pinning_trace_path.empty() && !pinning) usage_error("--pinning-trace needs --pinning (or AUTOSCHED_PINNING)");
  std::unique_ptr<autosched::pinning::Manager> manager;
  std::unique_ptr<PinnedProgress> progress;
  if (pinning) {
    manager = std::make_unique<autosched::pinning::Manager>(*pinning);
    progress = std::make_unique<PinnedProgress>(*manager, params.threads);
    std::printf("pinning: %s\n", manager->status().c_str());
    std::fflush(stdout);
    manager->start();
  }
  const aco::Result result = aco::run_colony(instance, params, progress.get());
  if (manager) manager->stop();

  double completion = 0;
  for (const double t : result.thread_finish_s) completion = std::max(completion, t);
  std::printf("completion %.3f s (slowest thread), wall %.3f s, mean iteration %.4f s\n", completion, result.wall_s,
              result.wall_s / params.iterations);
  std::printf("thread finish s:");
  for (const double t : result.thread_finish_s) std::printf(" %.3f", t);
  std::printf("\nthread busy s:");
  for (const double t : result.thread_busy_s) std::printf(" %.3f", t);
  std::printf("\nbest cost %ld\nbest sequence:", result.best_cost);
  for (const int j : result.best_sequence) std::printf(" %d", j);
  std::printf("\n");

  const bool permutation = aco::is_permutation_of_jobs(instance, result.best_sequence);
  const long recomputed = permutation ? aco::total_weighted_tardiness(instance, result.best_sequence) : -1;
  bool verified = permutation && recomputed == result.best_cost;
  long optimum = -1;
  if (check && verified) {
    optimum = aco::brute_force_optimum(instance);
    const double gap = optimum > 0
                           ? 100.0 * static_cast<double>(result.best_cost - optimum) / static_cast<double>(optimum)
                           : (result.best_cost == 0 ? 0.0 : 100.0);
    std::printf("check: brute-force optimum %ld, ACO best %ld, gap %.2f%%\n", optimum, result.best_cost, gap);
    if (result.best_cost < optimum) verified = false;  // below the optimum: the cost function is broken
  }
  int rc = 0;
  if (!trace_path.empty() && !write_trace(trace_path, result)) {
    std::fprintf(stderr, "%s: --trace=%s: cannot write this file\n", program, trace_path.c_str());
    rc = 1;
  }
  if (manager && !pinning_trace_path.empty()) {
    std::ofstream out(pinning_trace_path);
    manager->write_trace_csv(out);
    if (!out) {
      std::fprintf(stderr, "%s: --pinning-trace=%s: cannot write this file\n", program, pinning_trace_path.c_str());
      rc = 1;
    }
  }
  if (!json_path.empty() && !write_json(json_path, instance, params, result, completion, verified, optimum)) {
    std::fprintf(stderr, "%s: --output-json=%s: cannot write this file\n", program, json_path.c_str());
    rc = 1;
  }
  if (!verified) {
    std::fprintf(stderr, "%s: FAILED: %s\n", program,
                 !permutation ? "the best sequence is not a permutation of the jobs"
                 : recomputed != result.best_cost
                     ? ("recomputed cost " + std::to_string(recomputed) + " differs from the reported best").c_str()
                     : "ACO's best is below the brute-force optimum");
    return 1;
  }
  std::printf("verified: permutation of %d jobs, recomputed cost %ld\n", instance.size(), recomputed);
  return rc;
}
