#include <autosched/select/arm_ranking.hpp>
#include <autosched/techniques/loop_simulator.hpp>

#include <algorithm>
#include <limits>
#include <numeric>

namespace autosched {

std::vector<double> predict_arms(const Portfolio& arms, const CostProfile& profile, int workers,
                                 std::span<const double> speeds) {
  std::vector<double> out(arms.size(), std::numeric_limits<double>::infinity());
  try {
    const LoopSimulator once(profile, {.workers = workers, .speeds = speeds});
    // The time-stepping AWF adapts its weights from one instance to the
    // next: its third instance is what a run sees.
    const LoopSimulator thrice(profile, {.workers = workers, .speeds = speeds, .instances = 3});
    for (std::size_t a = 0; a < arms.size(); ++a) {
      out[a] = (arms[a].technique == TechniqueId::awf ? thrice : once).run(arms[a]).time_ns;
    }
  } catch (...) {  // out of memory, or a profile the simulator rejects: what is left stays unpredicted
  }
  return out;
}

std::vector<int> rank_by(const std::vector<double>& predicted) {
  std::vector<int> order(predicted.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int x, int y) {
    return predicted[static_cast<std::size_t>(x)] < predicted[static_cast<std::size_t>(y)];
  });
  return order;
}

}  // namespace autosched
