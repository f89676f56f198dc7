#include <autosched/select/engine/decisions_ahead.hpp>

#include <algorithm>

namespace autosched {

Decision DecisionsAhead::next(DecisionPoint& point, const Context& context) {
  if (left() > 0) return store_->ahead[static_cast<std::size_t>(next_++)];
  const DecisionPoint::Span span(point);  // the held outcomes and the choice, timed as one
  learn_held(point);  // a batch whose last instance failed: learn the rest first
  return point.choose(context);
}

bool DecisionsAhead::complete(DecisionPoint& point, const Decision& decision, const Outcome& outcome, int p) {
  // Not the batch's last: the outcome waits for the others, so that the
  // selector's memory and code, which the application's step between two
  // instances evicts, are fetched once a batch rather than once an
  // instance. A cut trial or a profile cannot wait (they change what the
  // selector does next).
  if (left() > 0 && !outcome.cut_short && outcome.profile == nullptr && !decision.profile) {
    store_->held[static_cast<std::size_t>(held_count_++)] = {decision, outcome};  // left() > 0: store_ exists
    return false;
  }
  // The batch's outcomes and the next batch's draws, timed as one: on a
  // VM two clock reads a call were a fifth of a batch's cost.
  const DecisionPoint::Span span(point);
  learn_held(point);
  point.observe(decision, outcome);
  // Now, not at the next next(): the selector's pages are still cached (such
  // a selector ignores the context).
  next_ = count_ = 0;
  Selector& selector = point.selector();
  if (!selector.decides_ahead()) return true;
  try {
    const int batch = std::clamp(selector.ahead_batch(), 1, max_batch);
    if (!store_) store_ = std::make_unique<Store>();  // bad_alloc: nothing drawn, as below
    while (count_ < batch && selector.decides_ahead()) {
      const Decision d = point.choose(Context{0, p, {}});
      store_->ahead[static_cast<std::size_t>(count_++)] = d;
      // A draw that explores ends the batch: its outcome is then learned as
      // soon as it completes and reaches the next draw, as without a batch
      // (held outcomes of draws that explore kept trying an arm whose first
      // samples already said no). A draw of an equal of the best (a tie,
      // not exploring) does not: among arms that measure alike the draws
      // switch every few instances, and ending a batch at each switch paid
      // the cold selector every 2-4 instances (3-5 µs each in the apps).
      if (d.exploring) break;
    }
  } catch (...) {
    // Front-ends complete instances where nothing may throw (a loop's close
    // is noexcept; on MPI only rank 0 would fail): next() asks again, and
    // there a failure reaches the caller on every rank.
    count_ = 0;
  }
  return true;
}

void DecisionsAhead::learn_held(DecisionPoint& point) {
  if (held_count_ == 0) return;
  const DecisionPoint::Span span(point);
  for (int i = 0; i < held_count_; ++i) {
    const Held& h = store_->held[static_cast<std::size_t>(i)];
    point.observe(h.decision, h.outcome);
  }
  held_count_ = 0;
}

}  // namespace autosched
