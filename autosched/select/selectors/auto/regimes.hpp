#pragma once
/// @file
/// auto's regimes: the phases of a loop, told apart by the shape of its cost
/// profile (where along the iteration space the time goes), each with what
/// was learned in it. A loop whose heavy rows move from the front to the
/// back has two; the arm that is best in one may be 15% behind in the
/// other, while the arms' predictions hardly differ (the simulator does not
/// see what makes them differ). So when a profile shows another shape, the
/// regime that ends is archived with its arm book, and a later profile of
/// an archived shape brings its arm book back: no trials. A warm start of a
/// loop known to have phases profiles first and starts in the right one.
///
/// A loop that keeps changing shape (imbalance that grows and fades while a
/// heavy band moves) has no regimes to come back to: after `unsteady_changes`
/// changes within `unsteady_window` instances it is unsteady, and auto
/// settles on the arm that is good over every regime seen (the lowest total
/// predicted time over them) instead of profiling
/// and trying again at every swing.
///
///   RegimeBook regimes;
///   regimes.current(RegimeBook::shape_of(profile), profile.total_ns());
///   … a change alarm, a profile of another shape …
///   regimes.archive(predicted, book);                  // what this phase learned
///   int r = regimes.find(RegimeBook::shape_of(next), 0.2);

#include <autosched/select/selectors/auto/arm_book.hpp>
#include <autosched/techniques/cost_profile.hpp>

#include <cstdint>
#include <iosfwd>
#include <vector>

namespace autosched::autoselect {

struct Regime {
  std::vector<double> shape;      ///< shares of the time in equal slices (RegimeBook::shape_of)
  double profile_ns = 0;          ///< the profile's total body time: its level
  std::vector<double> predicted;  ///< the arms' predictions on it
  std::vector<ArmState> arms;     ///< what each arm measured in it
};

class RegimeBook {
 public:
  static constexpr int max_archived = 4;
  static constexpr int shape_parts = 32;
  static constexpr int unsteady_changes = 2;
  static constexpr std::int64_t unsteady_window = 300;

  /// A profile's shape, as regimes keep it.
  static std::vector<double> shape_of(const CostProfile& profile);
  /// Half the L1 distance of two shapes, in [0, 1]; 1 when either is missing.
  static double distance(const std::vector<double>& a, const std::vector<double>& b);

  /// The shape and level of the loop as last profiled (the current regime).
  void set_current(std::vector<double> shape, double profile_ns);
  [[nodiscard]] const std::vector<double>& current_shape() const noexcept { return current_.shape; }
  [[nodiscard]] double current_level() const noexcept { return current_.profile_ns; }
  /// Keeps the current regime with `predicted` and the arm book's
  /// statistics (the oldest archived regime goes beyond max_archived).
  void archive(const std::vector<double>& predicted, const ArmBook& book);
  /// The archived regime whose shape is within `threshold` of `shape`
  /// (the closest), -1 when none is.
  [[nodiscard]] int find(const std::vector<double>& shape, double threshold) const;
  /// Removes archived regime `index` and returns it.
  Regime take(int index);
  [[nodiscard]] bool phased() const noexcept { return !archived_.empty(); }

  /// The loop changed shape at instance `instance`; true when it has now
  /// changed unsteady_changes times within unsteady_window instances.
  bool changed_at(std::int64_t instance);
  [[nodiscard]] bool unsteady() const noexcept { return unsteady_; }
  void set_unsteady(bool u) noexcept { unsteady_ = u; }
  /// Each arm's total predicted time over the archived regimes and
  /// `predicted` (+∞ where unpredicted in one): lower is better.
  [[nodiscard]] std::vector<double> robust_scores(const std::vector<double>& predicted) const;

  /// ` <unsteady> <count>` then the current shape and level and each
  /// archived regime (shape, level, predictions, arm fields); `arms` per regime.
  void write(std::ostream& out) const;
  bool read(std::istream& in, std::size_t arms);

 private:
  Regime current_;  ///< shape and level only: its predictions and arms are the selector's
  std::vector<Regime> archived_;
  std::vector<std::int64_t> changes_;  ///< instances of the last shape changes
  bool unsteady_ = false;
};

}  // namespace autosched::autoselect
