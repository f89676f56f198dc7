#pragma once
/// @file
/// Runs a selector against a Scenario. Costs are drawn once per seed for every
/// (step, arm) pair, so every selector faces the same costs and the best fixed
/// arm and the per-step oracle are exact. A guarded trial that overruns its
/// budget is charged as the runtime runs it: the budget, then the rest of the
/// work at the fallback's cost, (1 − budget/cost) · cost_fallback.

#include <select_sim/scenario.hpp>
#include <autosched/select/grammar/selector_config.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace autosched {

struct SimulationResult {
  double total_ms = 0;       ///< what the selector's choices cost
  double best_fixed_ms = 0;  ///< the best single arm for the whole run
  double oracle_ms = 0;      ///< the best arm at every step
  int best_fixed_arm = 0;
  double exploration_share = 0;  ///< steps the selector marked as exploring
  double selector_ns = 0;        ///< mean cost of choose + observe per step
  std::vector<int> choices;
  std::vector<double> step_ms;             ///< what each step cost the selector
  std::vector<double> best_fixed_step_ms;  ///< what each step cost the best fixed arm
  std::string state;  ///< the selector's save_state() after the last step (a warm start's input)

  [[nodiscard]] double regret_vs_fixed_pct() const noexcept {
    return (total_ms - best_fixed_ms) / best_fixed_ms * 100.0;
  }
  [[nodiscard]] double regret_vs_oracle_pct() const noexcept { return (total_ms - oracle_ms) / oracle_ms * 100.0; }
};

/// The published selectors as select-sim compares them, each in its
/// published configuration (explore-first and the looptime reward unless
/// stated), with the LIB-reward and other-policy variants the papers ran.
const std::vector<std::string>& published_selector_schedules();

/// `steps` <= 0: the scenario's own length. `warm_state` (a previous
/// result's `state`) is loaded into the selector first, as the store does
/// for a second run; empty: a cold start.
SimulationResult simulate(const Scenario& scenario, const SelectorConfig& config, std::uint64_t seed, int steps = 0,
                          std::string_view warm_state = {});

/// The cost matrix of a scenario for one seed: cost[t][a] in ms.
std::vector<std::vector<double>> scenario_costs(const Scenario& scenario, std::uint64_t seed, int steps);

}  // namespace autosched
