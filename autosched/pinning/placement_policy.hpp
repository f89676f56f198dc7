#pragma once
/// @file
/// How the pinning manager chooses where each thread runs next, one policy
/// each behind one interface: the learning automata (learn-o1, learn-o2,
/// strategy.hpp), round-robin, autopin's search of candidate placements, and
/// off. The manager measures the threads' speeds every period and applies
/// the placement a policy returns; the policy only decides.

#include <autosched/pinning/options.hpp>
#include <autosched/pinning/strategy.hpp>

#include <cstddef>
#include <limits>
#include <memory>
#include <span>
#include <vector>

namespace autosched::pinning {

/// What a policy sees of one managed thread at the end of a period.
struct PolicyThread {
  Strategy* strategy = nullptr;  ///< the thread's automaton: the learning policies update it
  int pinned = -1;               ///< the core index applied last; -1: none
  int played = -1;               ///< the core index in force during the period that ended
  double speed = std::numeric_limits<double>::quiet_NaN();  ///< normalised speed of that period; NaN: unmeasured
  double utility = 0;            ///< what a learning policy credited the thread with (kept otherwise)
};

/// The period that ended, for every thread together.
struct PeriodView {
  std::size_t cores = 1;  ///< allowed cores; a choice is an index into them
  bool changed = false;   ///< the set of threads changed this period
  double mean = std::numeric_limits<double>::quiet_NaN();  ///< the mean normalised speed; NaN: none measured
  double elapsed = 0;     ///< seconds
};

class PlacementPolicy {
 public:
  virtual ~PlacementPolicy() = default;
  /// Learns from the period that ended and returns each thread's core index
  /// for the next one (-1: leave the thread where it is).
  virtual std::vector<int> choose(std::span<PolicyThread> threads, const PeriodView& period) = 0;
};

/// The policy `policy` with the manager's options; `sampler` (the manager's
/// random source, for the learning policies) outlives it.
std::unique_ptr<PlacementPolicy> make_placement_policy(Policy policy, const ManagerOptions& options, Sampler& sampler);

}  // namespace autosched::pinning
