#include <autosched/dag/policy/readys_scheduler.hpp>

#include <autosched/core/error.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>

namespace autosched::dag::policy {

ReadysScheduler::ReadysScheduler(std::shared_ptr<const PolicyWeights> weights, ReadysOptions options)
    : weights_(std::move(weights)), options_(options), evaluator_(*weights_) {}

void ReadysScheduler::start(const Problem& problem, std::uint64_t seed) {
  builder_ = std::make_unique<ObservationBuilder>(problem, weights_->shape.window);
  rng_.seed(seed * 0x9e3779b97f4a7c15ULL + 17);
}

TaskId ReadysScheduler::choose(const SchedulingView& view, std::size_t p) {
  if (!builder_) autosched::detail::throw_error("readys: choose() before start()");
  using Clock = std::chrono::steady_clock;
  const auto t0 = Clock::now();
  builder_->build(view, p, obs_);
  if (obs_.candidates.empty()) {  // nothing here can run on p
    decision_seconds_ += std::chrono::duration<double>(Clock::now() - t0).count();
    ++decisions_timed_;
    return pass;
  }
  const auto t1 = Clock::now();
  const PolicyOutput& out = evaluator_.evaluate(obs_);
  evaluation_seconds_ += std::chrono::duration<double>(Clock::now() - t1).count();
  ++evaluations_;
  const auto& logits = out.logits;
  const std::size_t n = logits.size();
  // Softmax (only what sampling and the log need).
  const float top = *std::max_element(logits.begin(), logits.end());
  double total = 0;
  for (float l : logits) total += std::exp(static_cast<double>(l - top));
  std::size_t action = static_cast<std::size_t>(std::max_element(logits.begin(), logits.end()) - logits.begin());
  if (options_.sample) {
    double u = std::uniform_real_distribution<double>(0, total)(rng_);
    for (std::size_t i = 0; i < n; ++i) {
      u -= std::exp(static_cast<double>(logits[i] - top));
      if (u <= 0 || i + 1 == n) {
        action = i;
        break;
      }
    }
  }
  decision_seconds_ += std::chrono::duration<double>(Clock::now() - t0).count();
  ++decisions_timed_;
  std::int32_t label = -1;
  if (options_.teacher) {
    const TaskId wanted = options_.teacher->choose(view, p);
    label = static_cast<std::int32_t>(obs_.candidates.size());  // pass
    for (std::size_t j = 0; j < obs_.candidates.size(); ++j) {
      if (obs_.task[static_cast<std::size_t>(obs_.candidates[j])] == wanted) label = static_cast<std::int32_t>(j);
    }
    if (options_.follow_teacher > 0 &&
        std::uniform_real_distribution<double>(0, 1)(rng_) < options_.follow_teacher)
      action = static_cast<std::size_t>(label);
  }
  if (options_.log) {
    Decision d;
    d.observation = obs_;
    d.action = static_cast<std::int32_t>(action);
    d.label = label;
    d.log_prob = static_cast<float>(static_cast<double>(logits[action] - top) - std::log(total));
    d.value = out.value;
    d.now = view.now;
    options_.log->push_back(std::move(d));
  }
  return action < obs_.candidates.size() ? obs_.task[static_cast<std::size_t>(obs_.candidates[action])] : pass;
}

}  // namespace autosched::dag::policy
