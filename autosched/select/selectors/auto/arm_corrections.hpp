#pragma once
/// @file
/// The cross-loop prior of `auto`: how far the loop simulator was off for
/// each arm on the loops this machine already ran. On one loop, each tried
/// arm's measured/predicted ratio is taken relative to the loop's median
/// ratio (the level is the loop's, the deviation the arm's: ss's extra
/// contention on this machine, static's better cache reuse); the mean log
/// deviation per arm over loops corrects the next loop's predictions before
/// they are ranked. Kept in the store (a blob per machine), so that a new
/// loop, or a new program, starts from what other loops taught.
///
///   ArmCorrections prior;
///   prior.learn(arms, predicted, measured);            // after a loop's trials
///   double t = predicted[a] * prior.factor(arms[a]);   // the next loop's ranking

#include <autosched/core/running_stats.hpp>
#include <autosched/select/grammar/arm.hpp>

#include <array>
#include <cmath>
#include <cstddef>
#include <map>
#include <mutex>
#include <span>
#include <string>
#include <string_view>

namespace autosched {

class ArmCorrections {
 public:
  /// A correction is applied once this many loops measured the arm.
  static constexpr int min_loops = 2;

  /// One loop's evidence: `predicted[a]` and the samples `measured[a]` of
  /// the arms it ran. Needs at least two measured arms with predictions.
  void learn(const Portfolio& arms, std::span<const double> predicted, std::span<const RunningStats> measured);
  /// The same with the arms' labels made beforehand (prepare()): allocates
  /// nothing, so a selector can teach it on a program's thread while the
  /// program's heap is in use (docs/dropin.md, "The heap").
  void learn(std::span<const std::string> labels, std::span<const double> predicted,
             std::span<const RunningStats> measured) {
    learn_each(labels, predicted, measured.size(), [&](std::size_t a) -> const RunningStats& { return measured[a]; });
  }
  /// The same reading arm a's samples as `measured(a)`, a < arms, where
  /// they are kept (a selector's book): no copy of them to hold or make.
  template <class Measured>
  void learn_each(std::span<const std::string> labels, std::span<const double> predicted, std::size_t arms,
                  const Measured& measured) {
    // On the stack: at most `most` arms teach at once (auto's portfolio has 24).
    std::array<std::size_t, most> arm{};
    std::array<double, most> ratio{};
    std::size_t count = 0;
    for (std::size_t a = 0; a < labels.size() && a < predicted.size() && a < arms && count < most; ++a) {
      const RunningStats& m = measured(a);
      if (m.count > 0 && m.mean > 0 && std::isfinite(predicted[a]) && predicted[a] > 0) {
        arm[count] = a;
        ratio[count] = std::log(m.mean / predicted[a]);  // log(measured / predicted)
        ++count;
      }
    }
    teach(labels, std::span<const std::size_t>(arm.data(), count), std::span<const double>(ratio.data(), count));
  }
  /// Makes room for these arms' evidence ahead of time (a selector's
  /// portfolio, when the selector is made).
  void prepare(std::span<const std::string> labels);

  /// The factor to multiply arm's prediction by (1 without enough evidence).
  [[nodiscard]] double factor(const TechniqueSpec& arm) const;

  /// Loops that taught something since the last text() or parse().
  [[nodiscard]] bool changed() const;

  /// `auto-corrections 1` then `label count mean m2` per arm.
  [[nodiscard]] std::string text() const;
  /// Merges a text() (from the store); false, with nothing changed, when it
  /// is not one (a damaged blob is ignored, not fatal).
  bool parse(std::string_view text);

 private:
  mutable std::mutex mutex_;
  static constexpr std::size_t most = 64;
  /// ratio[k] = log(measured / predicted) of arm[k], about the loop's median.
  void teach(std::span<const std::string> labels, std::span<const std::size_t> arm, std::span<const double> ratio);

  std::map<std::string, RunningStats, std::less<>> log_deviation_;  ///< per arm label (count 0: prepared only)
  mutable bool changed_ = false;
};

}  // namespace autosched
