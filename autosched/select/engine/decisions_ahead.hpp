#pragma once
/// @file
/// Decisions a selector made ahead, and the outcomes held until it learns them.
///
/// A selector that decides ahead (Selector::decides_ahead) is asked for its
/// next decision when an instance completes, while its code and data are
/// still in the caches, or for a batch of them (Selector::ahead_batch; a
/// settled auto takes 8 to 32). The outcomes of a batch are then held and
/// learned together when its last instance completes, so that a cold
/// selector is paid once a batch. A batch ends at its first draw that
/// explores (an arm measured worse than the best), which is thus learned at
/// once; draws of the best's equals (ties) stay in it.
/// Nothing held is lost: next() with no decision made ahead, learn_held()
/// (before a state save) and an outcome that cannot wait (a cut trial, a
/// profile) learn the held ones first, in order.
///
/// The decision engine keeps one per decision point; select-sim runs the
/// same, so that simulated selectors decide as they do in a program.
///
///   DecisionsAhead ahead;
///   const Decision d = ahead.next(point, Context{n, p, {}});
///   // ... the instance runs d ...
///   if (ahead.complete(point, d, outcome, p)) { /* the selector learned */ }
///
/// Not thread-safe: its owner serialises the calls (the engine under its
/// group's lock).

#include <autosched/select/engine/decision_point.hpp>
#include <autosched/select/grammar/outcome.hpp>

#include <array>
#include <memory>
#include <span>

namespace autosched {

class DecisionsAhead {
 public:
  /// The most decisions made ahead at once (Selector::ahead_batch is capped here).
  static constexpr int max_batch = 32;

  /// The next decision made ahead; when none is left, the held outcomes are
  /// learned and `point` chooses for `context` now (its exception propagates).
  Decision next(DecisionPoint& point, const Context& context);

  /// The outcome of a decision next() gave. While its batch has decisions
  /// left, it is held (false), unless it cannot wait (a cut trial, a profile
  /// asked or given). Otherwise the held outcomes and then it are learned,
  /// and, if the selector decides ahead, the next batch is drawn for `p`
  /// workers (true). A draw that throws leaves nothing drawn: next() then
  /// asks the selector again, where the failure reaches the caller.
  bool complete(DecisionPoint& point, const Decision& decision, const Outcome& outcome, int p);

  /// Learns the held outcomes, in order (before the selector's state is read).
  void learn_held(DecisionPoint& point);

  /// Decisions made ahead that next() has not handed out yet.
  [[nodiscard]] int left() const noexcept { return count_ - next_; }
  /// Outcomes waiting for their batch's last.
  [[nodiscard]] int held() const noexcept { return held_count_; }
  /// The batch drawn last, all of it (handed out or not).
  [[nodiscard]] std::span<const Decision> batch() const noexcept {
    if (!store_) return {};
    return {store_->ahead.data(), static_cast<std::size_t>(count_)};
  }
  /// Decisions of the batch handed out so far.
  [[nodiscard]] int handed_out() const noexcept { return next_; }

 private:
  struct Held {
    Decision decision;
    Outcome outcome;
  };
  // Allocated when the selector first decides ahead (auto once it settles):
  // 4.3 KB that a loop which never settles, or a selector that never
  // decides ahead, does not pay.
  struct Store {
    std::array<Decision, max_batch> ahead{};
    std::array<Held, max_batch> held{};
  };
  std::unique_ptr<Store> store_;
  int next_ = 0, count_ = 0;
  int held_count_ = 0;
};

}  // namespace autosched
