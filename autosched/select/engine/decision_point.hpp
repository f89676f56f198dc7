#pragma once
/// @file
/// A decision point: one repeated choice (a loop, for one size class and
/// team size), its arms, its selector, and what each arm has measured. The
/// runtime asks it once per instance; both calls are timed, and their cost
/// is reported with the instance. A run of calls made together (a batch of
/// decisions made ahead, learned at once) is timed as one Span: two clock
/// reads instead of two per call, which on a VM cost 25 ns each and were a
/// fifth of a settled auto's batch.

#include <autosched/select/grammar/arm.hpp>
#include <autosched/select/selectors/selector.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace autosched {

class DecisionPoint {
 public:
  struct ArmSummary {
    long count = 0;
    double mean_ns = 0;
    double min_ns = 0;
  };

  DecisionPoint(std::string name, const Portfolio& arms, std::unique_ptr<Selector> selector);
  /// The same with a portfolio shared with other points (share_portfolio()).
  DecisionPoint(std::string name, std::shared_ptr<const SharedPortfolio> arms, std::unique_ptr<Selector> selector);

  /// The decision for the next instance (timed).
  Decision choose(const Context& context);
  /// Feeds the outcome of the instance that carried out `decision` (timed).
  void observe(const Decision& decision, const Outcome& outcome);

  [[nodiscard]] const std::string& name() const noexcept { return name_; }
  [[nodiscard]] const Portfolio& arms() const noexcept { return arms_->arms; }
  /// The arms with their labels and the store's key.
  [[nodiscard]] const SharedPortfolio& shared_arms() const noexcept { return *arms_; }
  [[nodiscard]] Selector& selector() noexcept { return *selector_; }
  [[nodiscard]] const Selector& selector() const noexcept { return *selector_; }
  [[nodiscard]] const std::vector<ArmSummary>& summaries() const noexcept { return summaries_; }
  /// Every choose() and observe() since the last call, ns (so that a
  /// decision made ahead is counted once, whether or not it is carried out).
  [[nodiscard]] double take_cost_ns() noexcept { return std::exchange(unreported_ns_, 0.0); }
  [[nodiscard]] std::uint64_t instances() const noexcept { return instances_; }
  [[nodiscard]] std::uint64_t explored() const noexcept { return explored_; }

  /// While one lives, the point's choose() and observe() calls are timed
  /// together, from its construction to its end, and their time is reported
  /// by take_cost_ns() as one. Nested spans (the calls make their own) add
  /// nothing.
  ///
  ///   { DecisionPoint::Span span(point); point.observe(d1, o1); point.observe(d2, o2); }
  class Span {
   public:
    explicit Span(DecisionPoint& point) noexcept;
    ~Span();
    Span(const Span&) = delete;
    Span& operator=(const Span&) = delete;

   private:
    DecisionPoint* outermost_;  ///< null when nested: another span times these calls
    std::int64_t start_ns_ = 0;
  };

 private:
  std::string name_;
  std::shared_ptr<const SharedPortfolio> arms_;
  std::unique_ptr<Selector> selector_;
  std::vector<ArmSummary> summaries_;
  double unreported_ns_ = 0;
  bool in_span_ = false;
  std::uint64_t instances_ = 0;
  std::uint64_t explored_ = 0;
};

}  // namespace autosched
