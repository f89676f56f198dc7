#pragma once
/// @file
/// The process's decision points, in one registry every front-end shares.
///
/// A decision point is keyed by the identity of what repeats (a loop's name,
/// later an MPI loop's or an OpenMP call site's), its size class
/// (⌊log2 N⌋ + 1), the team size P and the selector configuration. It is
/// created on first use, warm-started from the StateStore the session
/// connected (the store implements it; this layer never includes the store),
/// and saved back to it now and then and at exit.
///
///   DecisionGroup& g = DecisionEngine::instance().group("solver/L2");  // once per loop
///   Ticket t = g.decide(config, n, p);          // once per instance, off the iteration path
///   … run t.arm …
///   g.complete(t, outcome);                     // or g.abandon(t) when the instance failed
///
/// Every decide() that decided (Ticket::owns) is followed by exactly one
/// complete() or abandon(): while an instance carrying a decision runs, a second instance
/// of the same point (the loop called from two threads at once) follows the
/// last decision without asking the selector.
///
/// A selector that decides ahead (Selector::decides_ahead) is asked for the
/// next decision, or a batch of them, at complete(); the outcomes of a batch
/// are held and learned together when its last instance completes
/// (DecisionsAhead). Nothing held is lost: a state save learns them first.

#include <autosched/select/grammar/arm.hpp>
#include <autosched/select/grammar/outcome.hpp>
#include <autosched/select/selectors/auto/arm_corrections.hpp>
#include <autosched/select/engine/decision_point.hpp>
#include <autosched/select/engine/decisions_ahead.hpp>
#include <autosched/select/grammar/selector_config.hpp>
#include <autosched/select/engine/state_store.hpp>

#include <array>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <vector>

namespace autosched {

namespace detail {
class DecisionEngine;
}  // namespace detail

/// ⌊log2 n⌋ + 1 (0 for n ≤ 0): instances of one size class share a point.
int size_class(std::int64_t n) noexcept;

/// One decision point and what the engine keeps beside it.
struct DecisionSlot {
  int bucket = 0;
  int p = 0;
  std::shared_ptr<const SelectorConfig> shared_config;  ///< share_selector_config()
  std::unique_ptr<DecisionPoint> point;
  [[nodiscard]] const SelectorConfig& config() const noexcept { return *shared_config; }
  /// The arm labels, comma separated (the store's key).
  [[nodiscard]] const std::string& portfolio() const noexcept { return point->shared_arms().key; }
  bool in_flight = false;  ///< a decision is being carried out (guarded by its group)
  int last_arm = 0;

  /// Decisions made ahead and outcomes held (guarded by the group).
  DecisionsAhead ahead;
  /// Instances observed when the next store snapshot is due, and the
  /// earliest time (steady clock, ns) of a snapshot after the first.
  std::uint64_t next_snapshot = 64;
  std::int64_t next_snapshot_ns = 0;
};

/// What decide() hands the front-end for one instance.
struct Ticket {
  /// The decision point of the instance (null only for a default Ticket).
  DecisionSlot* slot = nullptr;
  /// The instance carries out a decision of its own; false when it follows
  /// an in-flight one (it then teaches nothing, but is recorded like any other).
  bool owns = false;
  Decision decision;
  TechniqueSpec arm;           ///< the arm to run
  std::string_view selector;   ///< the selector's name, for records
  bool explored = false;
  /// The arm to finish on when a guarded trial is cut (valid when
  /// decision.budget_ns > 0 and decision.fallback >= 0).
  TechniqueSpec fallback;
};

/// The decision points of one identity. Thread-safe; addresses are stable
/// for the life of the process, so front-ends keep references.
class DecisionGroup {
 public:
  DecisionGroup(std::string identity, detail::DecisionEngine& engine) : identity_(std::move(identity)), engine_(engine) {}

  [[nodiscard]] const std::string& identity() const noexcept { return identity_; }

  /// The decision for the next instance of (n, p) under `config`.
  /// `hint`, when given, is the caller's memory of the slot its previous
  /// decision used; the caller clears it whenever its `config` may have
  /// changed. A slot of the same size class and team is then taken without
  /// comparing the configuration (a 600-byte comparison per instance).
  Ticket decide(const SelectorConfig& config, std::int64_t n, int p, DecisionSlot** hint = nullptr);
  /// What the selector made of an outcome, for the instance's record.
  struct Learned {
    /// The selector's time since the last complete(): this instance's
    /// observe, the choose at its decide() or, for a selector that decides
    /// ahead, the next instance's choose.
    double cost_ns = 0;
    double reward = std::numeric_limits<double>::quiet_NaN();
  };
  /// Feeds the finished instance's outcome and, for a selector that decides
  /// ahead, makes the next decisions (Selector::ahead_batch of them); saves
  /// a snapshot every 64 instances. The outcome of a decision made ahead
  /// that is not its batch's last is held and learned with the batch's last
  /// (Learned is then empty: nothing ran). Does nothing for a ticket that
  /// does not own its decision.
  Learned complete(const Ticket& ticket, const Outcome& outcome);
  /// The instance that carried `ticket` failed: it teaches nothing (a
  /// ticket that does not own its decision: nothing to do).
  void abandon(const Ticket& ticket);

  /// Calls `f(slot)` under the group's lock (records read slots' selectors).
  template <class F>
  void with_slot(const DecisionSlot& slot, F&& f) const {
    std::lock_guard lock(mutex_);
    f(slot);
  }

  /// The selector state of the point for (n, p), empty if there is none.
  [[nodiscard]] std::string selector_state(std::int64_t n, int p) const;
  /// Hands every point's selector state to the store.
  void save_states() const;
  /// The store key of `slot`.
  [[nodiscard]] PointKey key(const DecisionSlot& slot) const;

 private:
  DecisionSlot& slot_for(const SelectorConfig& config, std::int64_t n, int p);
  /// A new point without a stored state starts from the nearest size class
  /// of this identity (in this process, else in the store), if its selector takes one.
  void adopt_neighbour(DecisionSlot& slot, StateStore* store);
  /// "<identity>#<size class>/<P>": a point's name, the store's key.
  [[nodiscard]] std::string name_of(int bucket, int p) const;

  const std::string identity_;
  detail::DecisionEngine& engine_;
  mutable std::mutex mutex_;
  std::vector<std::unique_ptr<DecisionSlot>> slots_;
};

namespace detail {

class DecisionEngine {
 public:
  /// Returns the store to warm-start from and save to (nullptr: none). Called
  /// when the first decision point is created, so a program with fixed
  /// schedules only never opens a store.
  using StoreSource = std::function<StateStore*()>;

  /// The process's engine; never destroyed (loops may run during static destruction).
  static DecisionEngine& instance();

  /// Where points resume from and save to, and where selectors log. The
  /// session calls this once, before the first decision.
  void connect(StoreSource store, SelectorLog* logs);

  /// The group of `identity`, created on first use.
  DecisionGroup& group(std::string_view identity);

  /// Saves every point's selector state (at exit, on flush).
  void save_states();

  /// The connected store, opened on first call; nullptr when none.
  StateStore* store();
  [[nodiscard]] SelectorLog* logs() const noexcept { return logs_; }

  /// auto's cross-loop prior (select/selectors/auto/arm_corrections.hpp), loaded from the
  /// store on first use and saved with the states; nullptr without a store
  /// (tests and simulations stay independent of earlier runs).
  ArmCorrections* corrections();

 private:
  DecisionEngine() = default;

  std::once_flag corrections_once_;
  ArmCorrections corrections_;
  bool have_corrections_ = false;

  std::shared_mutex mutex_;
  std::map<std::string, std::unique_ptr<DecisionGroup>, std::less<>> groups_;
  std::mutex connect_mutex_;
  StoreSource store_source_;
  SelectorLog* logs_ = nullptr;
  std::once_flag store_once_;
  StateStore* store_ = nullptr;
};

}  // namespace detail

}  // namespace autosched
