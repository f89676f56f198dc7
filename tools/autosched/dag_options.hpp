#pragma once
// The options of `autosched dag simulate|run|bench` and the functions that
// run them (dag_command.cpp registers them). `run` executes for real in the
// autosched-dag-run helper (dag_run_command.cpp, with the executor's LAPACK
// and CUDA); the autosched-dag helper hands it over (dag_run_handover.cpp).
#include <cstdint>
#include <string>

namespace autosched::cli::dag_cli {

struct SimulateOptions {
  std::string graph = "cholesky";
  std::string tiles = "8";
  std::string platform = "2cpu+2gpu";
  std::string durations = "readys";
  std::string schedulers = "heft,mct";
  std::string sigma = "0";
  std::uint64_t seed = 1;
  bool readys_compat = false;
  std::string gantt, csv;
};

struct RunOptions {
  std::string graph = "cholesky";
  int tiles = 8;
  int tile_size = 512;
  int workers = 2;
  int gpus = 0;
  std::string durations = "calibrate";
  std::string schedulers = "mct-prio";
  int runs = 1;
  std::uint64_t seed = 1;
  std::string gantt, csv;
};

struct BenchOptions {
  std::string graphs = "cholesky,lu,qr";
  std::string tiles = "4,6,8,10,12";
  std::string platforms = "2cpu+2gpu,4cpu,4gpu";
  std::string sigmas = "0,0.1,0.3,0.5";
  int samples = 100;
  std::string schedulers = "all";
  std::string durations = "readys";
  std::uint64_t seed = 1;
  bool readys_compat = false;
  int jobs = 2;
  bool no_progress = false;
  std::string out;
};


void simulate_command(const SimulateOptions& o);
void run_command(const RunOptions& o);
void bench_command(const BenchOptions& o);

}  // namespace autosched::cli::dag_cli
