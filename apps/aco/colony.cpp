#include "colony.hpp"

#include <pthread.h>

#include <algorithm>
#include <barrier>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <thread>

namespace autosched::apps::aco {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

/// tau[position][job], row-major.
struct Pheromone {
  int n = 0;
  std::vector<double> tau;
  double floor = 0;
  [[nodiscard]] double at(int position, int job) const noexcept {
    return tau[static_cast<std::size_t>(position) * static_cast<std::size_t>(n) + static_cast<std::size_t>(job)];
  }
  double& at(int position, int job) noexcept {
    return tau[static_cast<std::size_t>(position) * static_cast<std::size_t>(n) + static_cast<std::size_t>(job)];
  }
};

/// One ant's walk: position by position, among the jobs not yet placed, the
/// desirability of job j is tau[pos][j]^alpha * eta_j^beta with
/// eta_j = w_j / max(p_j, d_j - C) (C: completion time of the jobs placed so
/// far): the weighted modified due date rule, i.e. weighted shortest
/// processing time for jobs that are late anyway, urgency by slack for others. With probability q0 the most desirable
/// job is taken (first in `open` on ties), otherwise one is drawn in proportion to desirability.
void construct(const Instance& in, const Pheromone& ph, const Params& params, Rng& rng, std::vector<int>& open,
               std::vector<double>& weight, std::vector<int>& sequence) {
  const int n = in.size();
  open.resize(static_cast<std::size_t>(n));
  for (int j = 0; j < n; ++j) open[static_cast<std::size_t>(j)] = j;
  sequence.clear();
  weight.resize(static_cast<std::size_t>(n));
  long time = 0;
  for (int pos = 0; pos < n; ++pos) {
    const std::size_t left = open.size();
    double total = 0;
    std::size_t best = 0;
    for (std::size_t k = 0; k < left; ++k) {
      const auto j = static_cast<std::size_t>(open[k]);
      const double eta = static_cast<double>(in.w[j]) / static_cast<double>(std::max(in.p[j], in.d[j] - time));
      const double v = std::pow(ph.at(pos, open[k]), params.alpha) * std::pow(eta, params.beta);
      weight[k] = v;
      total += v;
      if (v > weight[best]) best = k;
    }
    std::size_t pick = best;
    if (rng.uniform() >= params.q0 && total > 0) {
      const double r = rng.uniform() * total;
      double sum = 0;
      pick = left - 1;  // rounding can leave r just above the last partial sum
      for (std::size_t k = 0; k < left; ++k) {
        sum += weight[k];
        if (r < sum) {
          pick = k;
          break;
        }
      }
    }
    const int job = open[pick];
    sequence.push_back(job);
    time += in.p[static_cast<std::size_t>(job)];
    open[pick] = open[left - 1];  // order of `open` stays a function of the draws: deterministic
    open.pop_back();
  }
}

}  // namespace

int ants_of_thread(const Params& params, int thread) noexcept {
  const int chunk = (params.ants + params.threads - 1) / params.threads;
  return std::clamp(params.ants - thread * chunk, 0, chunk);
}

Result run_colony(const Instance& in, const Params& params, Progress* progress) {
  const int n = in.size();
  const auto threads = static_cast<std::size_t>(params.threads);
  const int chunk = (params.ants + params.threads - 1) / params.threads;

  // tau0 = 1 / (n * T_edd): the usual ACS start, from a cheap sequence.
  const long edd_cost = total_weighted_tardiness(in, edd_sequence(in));
  const double tau0 = 1.0 / (static_cast<double>(n) * static_cast<double>(std::max(1L, edd_cost)));
  Pheromone ph{n, std::vector<double>(static_cast<std::size_t>(n) * static_cast<std::size_t>(n), tau0),
               tau0 / static_cast<double>(n)};

  Result result;
  result.best_cost = std::numeric_limits<long>::max();
  result.trace.assign(static_cast<std::size_t>(params.iterations), std::vector<ThreadIteration>(threads));
  result.thread_busy_s.assign(threads, 0.0);
  result.thread_finish_s.assign(threads, 0.0);
  result.thread_constructions.assign(threads, 0);

  // One slot per ant, written by its thread, read at the barrier.
  std::vector<long> ant_cost(static_cast<std::size_t>(params.ants));
  std::vector<std::vector<int>> ant_sequence(static_cast<std::size_t>(params.ants));

  const Clock::time_point start = Clock::now();
  Clock::time_point last_barrier = start;
  int iteration = 0;

  // Runs on one thread once all have arrived; the others wait, so the
  // pheromone and the slots need no other synchronisation.
  auto update = [&]() noexcept {
    std::size_t it_best = 0;
    for (std::size_t a = 1; a < ant_cost.size(); ++a) {
      if (ant_cost[a] < ant_cost[it_best]) it_best = a;
    }
    if (ant_cost[it_best] < result.best_cost) {
      result.best_cost = ant_cost[it_best];
      result.best_sequence = ant_sequence[it_best];
    }
    const bool use_iteration = params.deposit == Deposit::iteration_best;
    const std::vector<int>& seq = use_iteration ? ant_sequence[it_best] : result.best_sequence;
    const long cost = use_iteration ? ant_cost[it_best] : result.best_cost;
    for (double& t : ph.tau) t = std::max(ph.floor, (1 - params.rho) * t);
    const double deposit = params.rho / static_cast<double>(std::max(1L, cost));
    for (int pos = 0; pos < n; ++pos) ph.at(pos, seq[static_cast<std::size_t>(pos)]) += deposit;

    const Clock::time_point now = Clock::now();
    const double wall = std::chrono::duration<double>(now - last_barrier).count();
    last_barrier = now;
    result.iteration_wall_s.push_back(wall);
    result.iteration_best_so_far.push_back(result.best_cost);
    if (params.verbose) {
      std::printf("iteration %d  %.4f s  best %ld\n", iteration, wall, result.best_cost);
      std::fflush(stdout);
    }
    ++iteration;
  };
  std::barrier sync(static_cast<std::ptrdiff_t>(threads), update);

  auto worker = [&](int t) {
    const std::string name = "aco-" + std::to_string(t);
    pthread_setname_np(pthread_self(), name.substr(0, 15).c_str());
    Rng rng(params.seed + static_cast<std::uint64_t>(t));
    std::vector<int> open, sequence;
    std::vector<double> weight;
    const int first = t * chunk;
    const int count = ants_of_thread(params, t);
    const auto ts = static_cast<std::size_t>(t);
    if (progress != nullptr) progress->thread_started(t);
    for (int it = 0; it < params.iterations; ++it) {
      ThreadIteration& rec = result.trace[static_cast<std::size_t>(it)][ts];
      rec.start_s = seconds_since(start);
      for (int a = first; a < first + count; ++a) {
        const auto slot = static_cast<std::size_t>(a);
        ant_cost[slot] = std::numeric_limits<long>::max();
        for (int rep = 0; rep < params.work_scale; ++rep) {
          construct(in, ph, params, rng, open, weight, sequence);
          const long cost = total_weighted_tardiness(in, sequence);
          if (cost < ant_cost[slot]) {
            ant_cost[slot] = cost;
            ant_sequence[slot] = sequence;
          }
          ++rec.constructions;
          // Heartbeat: one unit of useful work done by this thread. A pinning
          // manager's handle.heartbeat() goes here (through Progress).
          if (progress != nullptr) progress->work_done(t);
        }
      }
      rec.end_s = seconds_since(start);
      result.thread_busy_s[ts] += rec.end_s - rec.start_s;
      result.thread_constructions[ts] += rec.constructions;
      result.thread_finish_s[ts] = rec.end_s;
      sync.arrive_and_wait();
    }
    if (progress != nullptr) progress->thread_finished(t);
  };

  std::vector<std::thread> team;
  team.reserve(threads);
  for (int t = 0; t < params.threads; ++t) team.emplace_back(worker, t);
  for (std::thread& th : team) th.join();
  result.wall_s = seconds_since(start);
  return result;
}

}  // namespace autosched::apps::aco
