#include <autosched/select/engine/selector_factory.hpp>

#include <autosched/core/error.hpp>
#include <autosched/select/grammar/rl_names.hpp>
#include <autosched/select/selectors/auto/auto_selector.hpp>
#include <autosched/select/selectors/expert/binary_selector.hpp>
#include <autosched/select/selectors/expert/exhaustive_selector.hpp>
#include <autosched/select/selectors/expert/expert_selector.hpp>
#include <autosched/select/selectors/expert/random_selector.hpp>
#include <autosched/select/selectors/rl/rl_agent.hpp>

#include <string>

namespace autosched {

std::unique_ptr<Selector> make_selector(const SelectorConfig& c, const Portfolio& arms, std::uint64_t seed,
                                        SelectorLog* log, std::string_view point) {
  return make_selector(c, share_portfolio(arms), seed, log, point);
}

std::unique_ptr<Selector> make_selector(const SelectorConfig& c, const std::shared_ptr<const SharedPortfolio>& shared,
                                        std::uint64_t seed, SelectorLog* log, std::string_view point) {
  const Portfolio& arms = shared->arms;
  const int n = static_cast<int>(arms.size());
  const std::uint64_t s = c.seed.value_or(seed);
  if (c.selector == "auto") {
    AutoConfig a = c.automatic;
    a.seed = s;
    if (!a.predict) return std::make_unique<autosched::detail::AutoSelector>(n, a);
    return std::make_unique<autosched::detail::AutoSelector>(shared, a);
  }
  if (c.selector == "random") return std::make_unique<RandomSelector>(n, s);
  if (c.selector == "exhaustive") return std::make_unique<ExhaustiveSelector>(n, c.lib_rise, c.drift);
  if (c.selector == "binary") return std::make_unique<BinarySelector>(n);
  if (c.selector == "expert") return std::make_unique<ExpertSelector>(n);
  RlConfig rl = c.rl;
  rl.seed = s;
  const std::string agent = c.selector == "chunk" ? c.chunk_agent : c.selector;
  rl.learner = find_rl_learner(agent).value_or(RlLearner::qlearn);
  // parse_selector checked the arms against a fixed portfolio; the chunk
  // selector's arms depend on the loop, and an arm beyond them is skipped with
  // a warning (a setting must not abort the program at its first loop).
  for (const std::string& label : c.replay_arms) {
    const int index = replay_index(label, arms);
    if (index < 0) {
      detail::warn("replay: arm '" + label + "' is not among the " + std::to_string(n) + " arms of " +
                   std::string(point) + "; skipping it");
      continue;
    }
    rl.replay.push_back(index);
  }
  return std::make_unique<RlAgent>(n, rl, log, std::string(point), c.selector == "chunk" ? "chunk" : "");
}

}  // namespace autosched
