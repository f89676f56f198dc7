#include <autosched/core/decision_path.hpp>
#include <autosched/select/selectors/auto/settled_draw.hpp>

#include <cmath>
#include <limits>

namespace autosched::autoselect {

bool SettledDraw::prepare(const ArmBook& book, const std::vector<double>& predicted, const AutoConfig& config) {
  active_ = false;
  const int best = book.best();
  if (best < 0) return false;
  const bool with_predictions = predicted.size() == static_cast<std::size_t>(book.size());
  int count = 0, best_candidate = 0;
  rest_all_ = rest_session_ = 0;
  rest_all_dof_ = rest_session_dof_ = 0;
  for (int i = 0; i < book.size(); ++i) {
    const ArmState& a = book[i];
    if (a.retired || a.all.count == 0) {
      ArmBook::add_spread_term(a.all, rest_all_, rest_all_dof_);
      ArmBook::add_spread_term(a.session, rest_session_, rest_session_dof_);
      continue;
    }
    if (count == max_candidates) return false;  // the full path draws
    if (i == best) best_candidate = count;
    Candidate& c = candidates_[static_cast<std::size_t>(count++)];
    c.arm = i;
    c.all = a.all;
    c.session = a.session;
    c.predicted = with_predictions ? predicted[static_cast<std::size_t>(i)] : std::numeric_limits<double>::quiet_NaN();
  }
  count_ = count;
  arm_draws(book, best_candidate, book.spread(), config);
  active_ = true;
  return true;
}

AUTOSCHED_DECISION_PATH void SettledDraw::arm_draws(const ArmBook& book, int best, double spread,
                                                    const AutoConfig& config) {
  const Candidate& b = candidates_[static_cast<std::size_t>(best)];
  for (int k = 0; k < count_; ++k) {
    Candidate& c = candidates_[static_cast<std::size_t>(k)];
    c.worse = book.counts_as_exploration(c.all, b.all, book.tie_predicted(c.predicted, b.predicted), spread);
    c.root = std::sqrt(static_cast<double>(c.all.count));
  }
  best_ = b.arm;
  budget_ = config.guard * b.all.mean;
  spread_ = spread;
}

AUTOSCHED_DECISION_PATH Decision SettledDraw::choose(SplitMix64& rng, const AutoConfig& config) {
  // The same draw as the full path's, in the same order and with the same
  // arithmetic, so that the random stream and the picks are those it would
  // make.
  int pick = best_;
  bool worse = false;
  double lowest = std::numeric_limits<double>::infinity();
  double best_draw = lowest;
  for (int k = 0; k < count_; ++k) {
    const Candidate& c = candidates_[static_cast<std::size_t>(k)];
    const double draw = c.all.mean * (1.0 + spread_ * sum_of_twelve_normal(rng) / c.root);
    if (c.arm == best_) best_draw = draw;
    if (draw < lowest) {
      lowest = draw;
      pick = c.arm;
      worse = c.worse;
    }
  }
  if (config.stick && lowest > (1.0 - config.tie) * best_draw) {  // not worth a switch
    pick = best_;
    worse = false;
  }
  Decision d{pick, 0, -1, worse};
  if (pick != best_) {
    d.budget_ns = budget_;
    d.fallback = best_;
  }
  return d;
}

AUTOSCHED_DECISION_PATH double SettledDraw::candidate_spread(const ArmBook& book, bool session_only, int replaced,
                                                             const RunningStats& with) const {
  double sum = session_only ? rest_session_ : rest_all_;
  long dof = session_only ? rest_session_dof_ : rest_all_dof_;
  for (int k = 0; k < count_; ++k) {
    const Candidate& c = candidates_[static_cast<std::size_t>(k)];
    ArmBook::add_spread_term(k == replaced ? with : session_only ? c.session : c.all, sum, dof);
  }
  return book.pooled_spread(sum, dof);
}

AUTOSCHED_DECISION_PATH bool SettledDraw::observe(const Decision& d, const Outcome& o, ArmBook& book,
                                                  ChangeTest& change, bool eliminate, bool predicted,
                                                  bool two_sided, const AutoConfig& config) {
  // The full path's learning, step for step, for the one case that keeps
  // the state settled.
  if (!active_ || d.profile || o.cut_short) return false;
  int k = 0;
  while (k < count_ && candidates_[static_cast<std::size_t>(k)].arm != d.arm) ++k;
  if (k == count_) return false;
  Candidate& c = candidates_[static_cast<std::size_t>(k)];
  double time = o.time_ns;
  if (config.clip > 0 && time * config.clip < c.all.mean) return false;  // the full path forgets the arm's samples
  if (c.session.count >= 2 && config.clip > 0) {
    time = std::min(time, book.clip_limit(candidate_spread(book, true, -1, {})) * c.session.mean);
  }
  RunningStats all = c.all, session = c.session;
  all.add(time);
  session.add(time);
  const auto stats = [&](int j) -> const RunningStats& {
    return j == k ? all : candidates_[static_cast<std::size_t>(j)].all;
  };
  int best = 0;
  for (int j = 1; j < count_; ++j) {
    if (stats(j).mean < stats(best).mean) best = j;
  }
  const double spread = candidate_spread(book, false, k, all);
  if (eliminate) {
    // An arm elimination would retire leaves the settled state.
    const RunningStats& b = stats(best);
    const double best_predicted = candidates_[static_cast<std::size_t>(best)].predicted;
    for (int j = 0; j < count_; ++j) {
      if (j == best) continue;
      if (book.measured_worse(stats(j), b, spread)) return false;
      if (predicted && book.twice_worse(candidates_[static_cast<std::size_t>(j)].predicted, best_predicted, stats(j), b)) {
        return false;
      }
    }
  }
  // The change test on a copy; an alarm leaves the settled state.
  ChangeTest next = change;
  const int best_arm = candidates_[static_cast<std::size_t>(best)].arm;
  if (next.observe(d.arm, best_arm, session, time, config, [&] { return candidate_spread(book, true, k, session); },
                   two_sided)) {
    return false;
  }
  ArmState& a = book[d.arm];
  a.all = c.all = all;
  a.session = c.session = session;
  change = next;
  arm_draws(book, best, spread, config);
  return true;
}

}  // namespace autosched::autoselect
