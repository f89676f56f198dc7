#include <autosched/select/engine/decision_point.hpp>

#include <autosched/measure/clock.hpp>
#include <autosched/core/decision_path.hpp>

#include <algorithm>

namespace autosched {

DecisionPoint::DecisionPoint(std::string name, const Portfolio& arms, std::unique_ptr<Selector> selector)
    : DecisionPoint(std::move(name), share_portfolio(arms), std::move(selector)) {}

DecisionPoint::DecisionPoint(std::string name, std::shared_ptr<const SharedPortfolio> arms,
                             std::unique_ptr<Selector> selector)
    : name_(std::move(name)), arms_(std::move(arms)), selector_(std::move(selector)), summaries_(arms_->arms.size()) {}

AUTOSCHED_DECISION_PATH DecisionPoint::Span::Span(DecisionPoint& point) noexcept : outermost_(point.in_span_ ? nullptr : &point) {
  if (outermost_ == nullptr) return;
  point.in_span_ = true;
  start_ns_ = host_now_ns();
}

AUTOSCHED_DECISION_PATH DecisionPoint::Span::~Span() {
  if (outermost_ == nullptr) return;
  outermost_->unreported_ns_ += static_cast<double>(host_now_ns() - start_ns_);
  outermost_->in_span_ = false;
}

AUTOSCHED_DECISION_PATH Decision DecisionPoint::choose(const Context& context) {
  const Span span(*this);
  Decision d = selector_->choose(context);
  d.arm = std::clamp(d.arm, 0, static_cast<int>(arms_->arms.size()) - 1);
  return d;
}

AUTOSCHED_DECISION_PATH void DecisionPoint::observe(const Decision& decision, const Outcome& outcome) {
  const Span span(*this);
  selector_->observe(decision, outcome);
  ++instances_;
  if (decision.exploring) ++explored_;
  if (!outcome.cut_short) {
    ArmSummary& s = summaries_[static_cast<std::size_t>(decision.arm)];
    ++s.count;
    s.mean_ns += (outcome.time_ns - s.mean_ns) / static_cast<double>(s.count);
    s.min_ns = s.count == 1 ? outcome.time_ns : std::min(s.min_ns, outcome.time_ns);
  }
}

}  // namespace autosched
