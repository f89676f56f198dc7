#pragma once
/// @file
/// The one interface every selector implements. The runtime calls choose()
/// once per instance (on one thread, off the iteration path) and observe()
/// when that instance has finished; both are timed and reported.

#include <autosched/select/grammar/outcome.hpp>

#include <limits>
#include <string>
#include <string_view>

namespace autosched {

/// Where selectors write optional logs (agent statistics, Q-tables): the loop
/// runtime queues the lines to a background writer, the simulator writes them
/// directly. Selectors never open files themselves.
class SelectorLog {
 public:
  virtual ~SelectorLog() = default;
  virtual void append(const std::string& path, std::string line) = 0;
};

class Selector {
 public:
  virtual ~Selector() = default;

  /// The selector's name as written after `auto:` (e.g. "qlearn").
  [[nodiscard]] virtual std::string_view name() const noexcept = 0;

  /// The arm for the next instance.
  virtual Decision choose(const Context& context) = 0;

  /// Learns from the instance that carried out `decision`.
  virtual void observe(const Decision& decision, const Outcome& outcome) = 0;

  /// True when choose() ignores its Context: the next decision depends only
  /// on what was observed. The decision engine then makes it at the end of
  /// the instance before, right after observe(), while the selector's memory
  /// is still in the caches: on an MPI coordinator whose caches the ranks
  /// have emptied, a choose() a whole loop after the observe() pays every
  /// page it touches a second time (docs/mpi.md, "What a decision costs").
  /// A decision made ahead may never be observed (the instance failed, or a
  /// run saved its state in between), and the next choose() must cope: the
  /// RL agents repeat it (their pending state and action wait for it), a
  /// settled auto draws again (its draw leaves nothing pending). It may vary
  /// from one instance to the next (auto decides ahead once settled).
  [[nodiscard]] virtual bool decides_ahead() const noexcept { return false; }

  /// Deciding ahead, how many decisions it may make at once, learning their
  /// outcomes together when the last of them completes (1: one at a time).
  /// Only a selector whose draws do not depend on each other's outcomes
  /// within a few instances may say more: the application's step between two
  /// instances evicts the selector's memory and code, and a batch of k pays
  /// for them once instead of k times. Delays what it learns by up to k − 1
  /// instances; the engine caps k (DecisionsAhead::max_batch).
  [[nodiscard]] virtual int ahead_batch() const noexcept { return 1; }

  /// The learned state as text (store snapshots); empty when there is nothing
  /// worth keeping.
  [[nodiscard]] virtual std::string save_state() const { return {}; }

  /// Restores save_state()'s text; false when it does not fit this selector
  /// (other arms, other version), in which case nothing changed.
  virtual bool load_state(std::string_view /*state*/) { return false; }
  /// Where a neighbour's state comes from (adopt_state).
  enum class Neighbour {
    this_process,  ///< a point of this process, learned on this machine a moment ago
    store,         ///< an earlier run's, from the store
  };
  /// Starts from the state of a neighbouring decision point (the same loop
  /// at another size class): a starting point to check, not to trust.
  /// False, with nothing changed, when the selector does not take one (the
  /// default: it starts cold).
  virtual bool adopt_state(std::string_view /*state*/, Neighbour /*from*/) { return false; }

  /// How many earlier instances the state restored by load_state() had
  /// learned from (0: this run started cold). Reports say "resumed" with it.
  [[nodiscard]] virtual long resumed_instances() const noexcept { return 0; }

  /// The reward derived from the last observed outcome, for traces; NaN for
  /// selectors that compare loop times directly rather than a reward signal.
  [[nodiscard]] virtual double last_reward() const noexcept { return std::numeric_limits<double>::quiet_NaN(); }

  /// One line describing the current state, for traces (e.g. "exploit gss").
  [[nodiscard]] virtual std::string summary() const { return {}; }
};

}  // namespace autosched
