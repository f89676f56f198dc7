#pragma once
/// @file
/// The single-machine total weighted tardiness problem (SMTWTP): n jobs with
/// processing time p_j, weight w_j and due date d_j run one after the other
/// on one machine; a sequence costs sum_j w_j * max(0, C_j - d_j), C_j the
/// completion time of job j. Instances, their cost function, a brute-force
/// solver for tiny instances and a reader for a small text format.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

namespace autosched::apps::aco {

/// A deterministic 64-bit stream (splitmix64): one per thread, seeded by the
/// caller, identical on every compiler and standard library (the standard
/// distributions are not).
class Rng {
 public:
  explicit Rng(std::uint64_t seed) noexcept : state_(seed) {}
  std::uint64_t next() noexcept {
    std::uint64_t x = (state_ += 0x9e3779b97f4a7c15ULL);
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
  }
  /// Uniform in [0, 1).
  double uniform() noexcept { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  /// Uniform integer in [lo, hi] (hi - lo small: the modulo bias is negligible).
  long between(long lo, long hi) noexcept {
    return lo + static_cast<long>(next() % static_cast<std::uint64_t>(hi - lo + 1));
  }

 private:
  std::uint64_t state_;
};

struct Instance {
  std::vector<long> p;  ///< processing times
  std::vector<long> w;  ///< weights
  std::vector<long> d;  ///< due dates
  [[nodiscard]] int size() const noexcept { return static_cast<int>(p.size()); }
};

/// Generator in the OR-library style (Potts and Van Wassenhove's scheme):
/// p_j uniform in [1, 100], w_j uniform in [1, 10], and with P = sum p_j,
/// d_j uniform in [P(1 - tf - rdd/2), P(1 - tf + rdd/2)] (clamped at 0).
/// tf, the tardiness factor, moves the due dates earlier (more tardy jobs);
/// rdd, the relative range of due dates, spreads them.
inline Instance generate(int n, double tf, double rdd, std::uint64_t seed) {
  Rng rng(seed);
  Instance in;
  in.p.resize(static_cast<std::size_t>(n));
  in.w.resize(static_cast<std::size_t>(n));
  in.d.resize(static_cast<std::size_t>(n));
  for (auto& p : in.p) p = rng.between(1, 100);
  for (auto& w : in.w) w = rng.between(1, 10);
  const double total = static_cast<double>(std::accumulate(in.p.begin(), in.p.end(), 0L));
  const long lo = std::max(0L, std::lround(total * (1 - tf - rdd / 2)));
  const long hi = std::max(lo, std::lround(total * (1 - tf + rdd / 2)));
  for (auto& d : in.d) d = rng.between(lo, hi);
  return in;
}

/// Reads "n, then n processing times, n weights, n due dates", whitespace
/// separated (one instance of an OR-library wt file preceded by its n).
inline Instance read_instance(const std::string& path) {
  std::ifstream file(path);
  if (!file) throw std::runtime_error(path + ": cannot read this file");
  long n = 0;
  if (!(file >> n) || n < 1) throw std::runtime_error(path + ": expected the job count n >= 1 first");
  Instance in;
  for (auto* column : {&in.p, &in.w, &in.d}) {
    column->resize(static_cast<std::size_t>(n));
    for (auto& v : *column) {
      if (!(file >> v) || v < 0) {
        throw std::runtime_error(path + ": expected 3 x " + std::to_string(n) + " non-negative integers after n");
      }
    }
  }
  return in;
}

/// Total weighted tardiness of a sequence (job indices, in order).
inline long total_weighted_tardiness(const Instance& in, const std::vector<int>& sequence) {
  long time = 0, cost = 0;
  for (const int j : sequence) {
    const auto k = static_cast<std::size_t>(j);
    time += in.p[k];
    cost += in.w[k] * std::max(0L, time - in.d[k]);
  }
  return cost;
}

/// True when `sequence` holds every job of `in` exactly once.
inline bool is_permutation_of_jobs(const Instance& in, const std::vector<int>& sequence) {
  if (static_cast<int>(sequence.size()) != in.size()) return false;
  std::vector<char> seen(sequence.size(), 0);
  for (const int j : sequence) {
    if (j < 0 || j >= in.size() || seen[static_cast<std::size_t>(j)]) return false;
    seen[static_cast<std::size_t>(j)] = 1;
  }
  return true;
}

/// Earliest due date order (ties by index): the start value of the pheromone.
inline std::vector<int> edd_sequence(const Instance& in) {
  std::vector<int> s(static_cast<std::size_t>(in.size()));
  std::iota(s.begin(), s.end(), 0);
  std::stable_sort(s.begin(), s.end(),
                   [&](int a, int b) { return in.d[static_cast<std::size_t>(a)] < in.d[static_cast<std::size_t>(b)]; });
  return s;
}

/// The optimum by enumerating all n! sequences: tiny instances only (n <= 10).
inline long brute_force_optimum(const Instance& in) {
  std::vector<int> s(static_cast<std::size_t>(in.size()));
  std::iota(s.begin(), s.end(), 0);
  long best = total_weighted_tardiness(in, s);
  while (std::next_permutation(s.begin(), s.end())) best = std::min(best, total_weighted_tardiness(in, s));
  return best;
}

}  // namespace autosched::apps::aco
