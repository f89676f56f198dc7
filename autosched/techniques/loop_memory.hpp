#pragma once
/// @file
/// What a technique remembers about one loop from one instance to the next.
/// Owned by that loop's record: two loops never share it (LB4OMP's published code shares it between loops).

#include <autosched/techniques/cost_profile.hpp>
#include <cstdint>
#include <optional>
#include <vector>

namespace autosched {

/// Output of the `profiling` technique, input of fsc, fac, mfac, tap and bold.
struct Profile {
  double mu_ns = 0;        ///< mean time of one iteration
  double sigma_ns = 0;     ///< sample standard deviation of iteration times
  double overhead_ns = 0;  ///< mean scheduling overhead per chunk (h)
  std::int64_t samples = 0;
};

/// Time-stepping AWF (Cariño & Banicescu): per-worker history across instances.
struct AwfHistory {
  std::uint64_t steps = 0;            ///< instances run with awf so far
  std::vector<double> weights;        ///< current weights, sum = P
  std::vector<double> weighted_work;  ///< SW_i = Σ_k k · iterations_i(k)
  std::vector<double> weighted_time;  ///< SE_i = Σ_k k · time_i(k)

  /// Starts over for a team of `p` workers with the given initial weights
  /// (all 1 unless `initial` has exactly p entries).
  void reset(int p, const std::vector<double>& initial);
};

struct LoopMemory {
  AwfHistory awf;
  std::optional<Profile> profile;
  std::optional<CostProfile> cost;  ///< the last complete profiling instance's blocks
};

}  // namespace autosched
