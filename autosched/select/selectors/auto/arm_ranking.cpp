#include <autosched/select/selectors/auto/arm_ranking.hpp>
#include <autosched/techniques/loop_simulator.hpp>

#include <algorithm>
#include <limits>
#include <numeric>
#include <optional>

namespace autosched {

namespace {
/// Units of the process level's fine simulation: single iterations up to
/// 2^16 of them (a few ms for 24 arms on the coordinator, once per profile).
constexpr std::int64_t fine_units = std::int64_t{1} << 16;
}  // namespace

std::vector<double> predict_arms(const Portfolio& arms, const CostProfile& profile, int workers,
                                 std::span<const double> speeds, std::vector<std::int64_t>* dispatches) {
  std::vector<double> out(arms.size(), std::numeric_limits<double>::infinity());
  if (dispatches != nullptr) dispatches->assign(arms.size(), 0);
  try {
    const LoopSimulator once(profile, {.workers = workers, .speeds = speeds});
    // The time-stepping AWF adapts its weights from one instance to the
    // next: its third instance is what a run sees.
    const LoopSimulator thrice(profile, {.workers = workers, .speeds = speeds, .instances = 3});
    // Where every dispatch waits in rank 0's queue (process level), the tail
    // of small chunks decides the loop time: simulate single iterations
    // (up to a bound), except for the fixed-chunk techniques, whose coarse
    // units already count every real dispatch.
    std::optional<LoopSimulator> fine;
    if (profile.dispatches_queue()) {
      fine.emplace(profile, LoopSimulationOptions{.workers = workers, .speeds = speeds, .max_units = fine_units});
    }
    for (std::size_t a = 0; a < arms.size(); ++a) {
      const TechniqueId t = arms[a].technique;
      const LoopSimulator& simulator = t == TechniqueId::awf                                    ? thrice
                                       : fine && t != TechniqueId::ss && t != TechniqueId::static_steal ? *fine
                                                                                                  : once;
      const SimulatedInstance s = simulator.run(arms[a]);
      out[a] = s.time_ns;
      if (dispatches != nullptr) (*dispatches)[a] = s.chunks;
    }
  } catch (...) {  // out of memory, or a profile the simulator rejects: what is left stays unpredicted
  }
  return out;
}

std::vector<double> predict_arms_robust(const Portfolio& arms, const CostProfile& profile, int workers, double jitter,
                                        std::vector<std::int64_t>* dispatches) {
  if (workers < 2 || !(jitter > 0)) return predict_arms(arms, profile, workers, {}, dispatches);
  std::vector<double> speeds(static_cast<std::size_t>(workers), 1.0);
  speeds.front() = 1.0 - std::min(jitter, 0.9);
  std::vector<double> out = predict_arms(arms, profile, workers, speeds, dispatches);
  std::swap(speeds.front(), speeds.back());
  const std::vector<double> last = predict_arms(arms, profile, workers, speeds);
  for (std::size_t a = 0; a < out.size(); ++a) out[a] = (out[a] + last[a]) / 2;  // an unpredicted arm stays +inf
  return out;
}

std::vector<int> rank_by(const std::vector<double>& predicted, std::span<const std::int64_t> dispatches) {
  std::vector<int> order(predicted.size());
  std::iota(order.begin(), order.end(), 0);
  const bool counted = dispatches.size() == predicted.size();
  std::stable_sort(order.begin(), order.end(), [&](int x, int y) {
    const auto a = static_cast<std::size_t>(x), b = static_cast<std::size_t>(y);
    if (predicted[a] != predicted[b] || !counted) return predicted[a] < predicted[b];
    return dispatches[a] < dispatches[b];
  });
  return order;
}

}  // namespace autosched
