#pragma once
/// @file
/// auto's settled path. Once no profile, trial, second look or verification
/// is pending, the next choice is a Thompson draw over the arms in play,
/// and an instance's learning touches only those arms. In an application the
/// step between two instances empties the caches, and each entry of the arm
/// table (24 arms) is then a miss: this keeps copies of the arms in play (at
/// most eight) with the draw's parameters in the selector object itself, and
/// decides and learns on them exactly as the full path would (the same
/// draws in the same order, the same clipping, elimination and change test),
/// writing back only the arm that ran.
///
///   if (draw.prepare(book, predicted, guard)) d = draw.choose(rng, stick, tie);
///   … if (!draw.observe(d, o, book, change, …)) { full path }

#include <autosched/core/running_stats.hpp>
#include <autosched/core/split_mix.hpp>
#include <autosched/select/selectors/auto/arm_book.hpp>
#include <autosched/select/selectors/auto/change_test.hpp>
#include <autosched/select/grammar/auto_config.hpp>
#include <autosched/select/grammar/outcome.hpp>

#include <array>
#include <vector>

namespace autosched::autoselect {

class SettledDraw {
 public:
  /// The most arms in play a settled draw takes; with more (a loop whose
  /// arms the samples cannot tell apart yet), the full path draws.
  static constexpr int max_candidates = 8;

  /// Copies the arms in play from `book` (their predictions from
  /// `predicted`, when it has one per arm); false, and not active, when
  /// there are none or more than max_candidates.
  bool prepare(const ArmBook& book, const std::vector<double>& predicted, const AutoConfig& config);
  [[nodiscard]] bool active() const noexcept { return active_; }
  void deactivate() noexcept { active_ = false; }

  /// The draw, as the end of the full path's choose() makes it.
  Decision choose(SplitMix64& rng, const AutoConfig& config);

  /// The full path's learning for an instance that changes nothing but
  /// statistics (no arm retired, no change alarm, no clipped-away history):
  /// computed on the candidates, the one arm written back to `book` and the
  /// test to `change`. False, with nothing changed, for anything else.
  /// `eliminate`: elimination runs (prediction mode); `predicted`: the arms
  /// have predictions (the two-witness test); `two_sided`: the change test
  /// also watches for a loop that became faster.
  bool observe(const Decision& d, const Outcome& o, ArmBook& book, ChangeTest& change, bool eliminate,
               bool predicted, bool two_sided, const AutoConfig& config);

 private:
  /// An arm in play: what choose() draws from, and copies of its
  /// statistics, so that observe() can learn without the arm table.
  struct Candidate {
    int arm = 0;
    bool worse = false;         ///< picking it is exploration
    double root = 1;            ///< √ all.count
    RunningStats all, session;  ///< as in the book
    double predicted = 0;       ///< its prediction; NaN without one
  };

  /// The draw parameters of the candidates (exploration flags, the guard),
  /// given the best one and the pooled spread.
  void arm_draws(const ArmBook& book, int best, double spread, const AutoConfig& config);
  /// The pooled spread from the candidates, candidate `replaced` having
  /// statistics `with` (the arms outside the candidates do not change while
  /// settled: their part is kept in rest_*).
  [[nodiscard]] double candidate_spread(const ArmBook& book, bool session_only, int replaced,
                                        const RunningStats& with) const;

  // What a settled choice reads, first.
  bool active_ = false;
  int best_ = -1;
  int count_ = 0;
  double budget_ = 0;  ///< guard × the best arm's mean
  double spread_ = 0;  ///< the pooled spread when prepared
  // The pooled spread's sums over the arms that are not candidates.
  double rest_all_ = 0, rest_session_ = 0;
  long rest_all_dof_ = 0, rest_session_dof_ = 0;
  std::array<Candidate, max_candidates> candidates_{};
};

}  // namespace autosched::autoselect
