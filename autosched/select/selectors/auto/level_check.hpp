#pragma once
/// @file
/// auto's level check: is the loop in front of us the one the samples
/// describe? Asked in two places. After a warm start the stored best runs
/// `verify` instances and their mean is compared with the stored mean
/// (verify()). When the level differs, or the change test raised an alarm,
/// the loop is profiled and the new ranking is compared with the last one
/// (same_loop()): the same shape is the same loop in a slower or faster
/// process, and every sample is moved to the new level; another shape is
/// another loop, and the samples go.
///
///   LevelCheck check;
///   check.begin(best, book[best].all.mean, config.verify);
///   … each instance of `best`: if (check.add(time) != LevelCheck::Verdict::pending) …

#include <autosched/core/running_stats.hpp>
#include <autosched/select/grammar/auto_config.hpp>

#include <vector>

namespace autosched::autoselect {

struct LevelCheck {
  enum class Verdict { pending, same_level, other_level };

  /// The stored best `arm`, whose stored mean is `mean`, runs `instances`
  /// instances to be compared with it.
  void begin(int arm, double mean, int instances);
  /// One verify instance of the arm; the verdict once the last is in,
  /// tolerating `match` or three standard errors at the pooled `spread`.
  Verdict add(double time_ns, double spread, const AutoConfig& config);
  /// Instances still to compare.
  [[nodiscard]] bool pending() const noexcept { return left > 0; }

  /// After the profile a level mismatch or a change alarm asked for: is it
  /// the loop whose predictions were `stored`? The arm checked must still be
  /// one a fresh ranking would try (within `margin` of the best prediction),
  /// and the arms' predictions relative to it must be those the stored
  /// profile gave (median log difference within `match`): the same shape of
  /// loop, at whatever level this process runs.
  [[nodiscard]] bool same_loop(const std::vector<double>& predicted, const std::vector<double>& stored,
                               const AutoConfig& config) const;
  /// Forgets the check.
  void clear() noexcept;
  /// Whether the witness moved with the checked arm (`ratio`: the checked
  /// arm's new mean over its old), within `match`.
  [[nodiscard]] bool witness_agrees(double witness_time, double ratio, const AutoConfig& config) const;

  /// A witness: when the profile shows another shape but the same
  /// predictions, the runner-up runs once. If it moved by the checked arm's
  /// factor the whole process moved (the same loop at another level); if not,
  /// the loop changed under the checked arm (another phase). What the verdict
  /// needs is kept until the witness's instance is in.
  struct Witness {
    int arm = -1;                   ///< the runner-up; -1: no witness pending
    double mean = 0;                ///< its mean before
    std::vector<double> predicted;  ///< the predictions before the profile
    std::vector<double> shape;      ///< the new profile's shape and level
    double level = 0;
  };
  Witness witness;

  int arm = -1;               ///< the arm checked (the stored or watched best); -1: none
  int left = 0;               ///< verify instances still to come
  double stored_mean = 0;     ///< its mean before the check
  RunningStats samples;       ///< what it measures now (kept apart until the verdict)
  bool compare_profile = false;  ///< the next profile is compared with the last ranking's predictions
  bool samples_counted = false;  ///< `samples` are in the arm's statistics already (a change alarm)
};

}  // namespace autosched::autoselect
