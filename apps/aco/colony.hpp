#pragma once
/// @file
/// Ant colony optimisation for the SMTWTP (docs/pinning-bench.md gives the
/// formulas): a pheromone matrix tau[position][job], a modified-due-date
/// heuristic, ants that build sequences position by position with the
/// pseudo-random proportional rule, and after every iteration evaporation plus
/// a deposit on the best ant's sequence.
///
/// Threads: a fixed team of std::threads; the ants of an iteration are split
/// statically, ceil(ants / threads) consecutive ants per thread; each thread
/// draws from its own stream seeded with seed + thread id, and one thread
/// updates the pheromone at a barrier between iterations. So a seed and a
/// thread count fix the result, whatever the OS does with the threads.

#include "smtwtp.hpp"

#include <cstdint>
#include <vector>

namespace autosched::apps::aco {

/// Which ant deposits pheromone after an iteration.
enum class Deposit : std::uint8_t { best_so_far, iteration_best };

struct Params {
  int ants = 60;           ///< ants per iteration
  int threads = 6;         ///< team size
  int iterations = 250;    ///< ACO iterations (time steps)
  double alpha = 1.0;      ///< weight of the pheromone
  double beta = 2.0;       ///< weight of the heuristic
  double rho = 0.1;        ///< evaporation rate, in (0, 1]
  double q0 = 0.9;         ///< probability of the greedy choice, in [0, 1]
  int work_scale = 16;     ///< constructions per ant (the ant keeps its best)
  std::uint64_t seed = 1;  ///< thread t draws from seed + t
  Deposit deposit = Deposit::best_so_far;
  bool verbose = false;  ///< one line per iteration on stdout
};

/// Per-thread progress hook, called from the worker threads themselves.
/// This is where a thread-pinning manager attaches (see main.cpp): register
/// the calling thread in thread_started, heartbeat in work_done.
class Progress {
 public:
  virtual ~Progress() = default;
  /// On the worker thread, before its first ant.
  virtual void thread_started(int thread) = 0;
  /// On the worker thread, once per ant construction finished.
  virtual void work_done(int thread) = 0;
  /// On the worker thread, after its last ant of the last iteration.
  virtual void thread_finished(int thread) = 0;
};

/// What one thread did in one iteration (seconds since the run's start).
struct ThreadIteration {
  double start_s = 0;
  double end_s = 0;
  int constructions = 0;
};

struct Result {
  long best_cost = 0;
  std::vector<int> best_sequence;
  std::vector<double> iteration_wall_s;  ///< barrier to barrier
  std::vector<long> iteration_best_so_far;
  std::vector<std::vector<ThreadIteration>> trace;  ///< [iteration][thread]
  std::vector<double> thread_busy_s;                ///< time spent building ants
  std::vector<double> thread_finish_s;              ///< end of the thread's last ant
  std::vector<long> thread_constructions;
  double wall_s = 0;  ///< threads' launch to join
};

/// Ants thread t builds: ceil(ants / threads), fewer for the last threads.
[[nodiscard]] int ants_of_thread(const Params& params, int thread) noexcept;

/// Runs the colony; `progress` may be null (no hook).
[[nodiscard]] Result run_colony(const Instance& instance, const Params& params, Progress* progress);

}  // namespace autosched::apps::aco
