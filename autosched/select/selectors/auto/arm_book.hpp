#pragma once
/// @file
/// auto's arm book: what each arm of a decision point has measured (every
/// sample across runs, and this process's alone), which arms are retired,
/// and the statistical tests every phase of the selector asks of them. It
/// holds no phase: AutoSelector decides when to add, retire or forget.
///
///   ArmBook book(24, config);
///   book.add(3, 1.2e6);                       // arm 3 ran 1.2 ms
///   int best = book.best();                   // lowest mean in play
///   double s = book.spread();                 // pooled relative spread

#include <autosched/core/running_stats.hpp>
#include <autosched/select/grammar/auto_config.hpp>

#include <iosfwd>
#include <vector>

namespace autosched::autoselect {

struct ArmState {
  RunningStats all;  ///< every sample, across runs (saved)
  /// This process's samples only (not saved): robustness limits and the
  /// change test compare the loop with itself in this run, so a run that is
  /// uniformly slower than the one that saved the state (another input, a
  /// busier node) is neither clipped nor taken for a change.
  RunningStats session;
  bool retired = false;
  double prior = 0;  ///< mean before the last change, to order the next sweep
};

class ArmBook {
 public:
  ArmBook(int arms, const AutoConfig& config);

  [[nodiscard]] int size() const noexcept { return static_cast<int>(arms_.size()); }
  [[nodiscard]] ArmState& operator[](int arm) noexcept { return arms_[static_cast<std::size_t>(arm)]; }
  [[nodiscard]] const ArmState& operator[](int arm) const noexcept { return arms_[static_cast<std::size_t>(arm)]; }
  [[nodiscard]] std::vector<ArmState>& states() noexcept { return arms_; }
  [[nodiscard]] const std::vector<ArmState>& states() const noexcept { return arms_; }

  /// The arm with the lowest mean among those in play, -1 before any sample.
  [[nodiscard]] int best() const;
  /// Relative spread pooled over the arms (every sample, or this run's).
  [[nodiscard]] double spread(bool session_only = false) const;
  /// A sample of `arm`, winsorized against this run's mean once it has two
  /// (a preempted instance moves the estimate a little, not by orders of
  /// magnitude). A sample far below every earlier one first forgets them:
  /// they were inflated (a cold start) or the loop became much faster.
  /// Returns the value learned; `forgot` says whether the history went.
  double clipped(int arm, double time_ns, bool& forgot);
  /// Every arm's samples scaled by `factor` (the same loop in a process
  /// running at another level).
  void scale(double factor);
  /// Forgets every sample and retirement.
  void clear();

  /// One arm's part of the pooled spread: (n−1)·relative variance, n−1.
  static void add_spread_term(const RunningStats& a, double& sum, long& dof);
  /// The pooled relative spread from those parts, with the noise floor.
  [[nodiscard]] double pooled_spread(double sum, long dof) const;
  /// A pick counts as exploration when its mean is worse than the best's by
  /// more than a tie, or, for arms the simulator calls equal, by more than
  /// two standard errors.
  [[nodiscard]] bool counts_as_exploration(const RunningStats& pick, const RunningStats& best, bool predicted_tie,
                                           double spread) const;
  /// Retired: worse than the best by more than two standard errors (and a tie).
  [[nodiscard]] bool measured_worse(const RunningStats& a, const RunningStats& best, double spread) const;
  /// Retired: predicted worse than the best (beyond a tie) and measured worse
  /// by more than a tie, two independent witnesses.
  [[nodiscard]] bool twice_worse(double predicted, double best_predicted, const RunningStats& a,
                                 const RunningStats& best) const;
  /// Both predictions finite and within a tie of each other.
  [[nodiscard]] bool tie_predicted(double x, double y) const;
  /// The limit a sample of an arm with two or more samples this run is
  /// winsorized at, × its session mean, given this run's pooled spread.
  [[nodiscard]] double clip_limit(double session_spread) const;

  /// Writes `count mean m2 retired` per arm, each followed by its predicted
  /// time when `predicted` is given (0: none).
  void write(std::ostream& out, const std::vector<double>* predicted) const;
  /// Reads write()'s fields for `arms` arms; false on anything malformed.
  static bool read(std::istream& in, std::size_t arms, std::vector<ArmState>& states, std::vector<double>* predicted);
  /// Only statistics a run could have produced: anything else (a damaged
  /// or hand-edited store) would turn every draw into NaN.
  static bool valid(const std::vector<ArmState>& states);
  /// At least one arm with samples is not retired.
  static bool in_play(const std::vector<ArmState>& states);
  static bool plausible(const std::vector<ArmState>& states) { return valid(states) && in_play(states); }

 private:
  std::vector<ArmState> arms_;
  double tie_, noise_floor_, clip_;
};

}  // namespace autosched::autoselect
