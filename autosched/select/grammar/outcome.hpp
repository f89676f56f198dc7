#pragma once
/// @file
/// What a selector sees: the context of a decision, its answer, and the
/// outcome of the instance that carried the answer out.

#include <autosched/measure/metrics.hpp>
#include <autosched/techniques/cost_profile.hpp>

#include <cstdint>
#include <span>

namespace autosched {

/// The circumstances of one decision.
struct Context {
  std::int64_t n = 0;                  ///< iterations (or work items)
  int p = 1;                           ///< threads or ranks
  std::span<const double> features{};  ///< user features (regions)
};

/// A selector's answer for the next instance.
struct Decision {
  int arm = 0;
  /// When > 0: the selector is trying an arm it has not seen or trusts little;
  /// the instance may stop running `arm` once it has taken this long and
  /// finish on `fallback` (where the runtime can split the work).
  double budget_ns = 0;
  int fallback = -1;
  bool exploring = false;  ///< counted in the exploration share
  /// Asks the front-end to run this instance as a profiling instance (the
  /// `profiling` technique, one timed chunk per block) and to hand the
  /// measured CostProfile back in the Outcome. Front-ends that cannot (tunable
  /// regions, the select-sim scenarios) run `arm` and return no profile.
  bool profile = false;
};

/// What one instance cost and how it behaved.
struct Outcome {
  double time_ns = 0;      ///< the quantity to minimise: loop time (T_par)
  LoopMetrics metrics;     ///< imbalance and spread of the threads' finishing times
  bool cut_short = false;  ///< the trial ran past its budget; the rest ran on the fallback
  /// Where this instance's time went, when the Decision asked for a profile
  /// and the front-end measured one; valid during observe() only.
  const CostProfile* profile = nullptr;
  /// The iterations the instance ran (0: not known). `auto` compares the
  /// times of a loop whose trip count changes per iteration.
  std::int64_t n = 0;
};

}  // namespace autosched
