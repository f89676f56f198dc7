#include <autosched/select/profile_scenario.hpp>

#include <autosched/core/error.hpp>
#include <autosched/core/text.hpp>
#include <autosched/techniques/loop_simulator.hpp>
#include <autosched/techniques/profiling.hpp>

#include <cmath>

namespace autosched {

std::vector<RecordedProfile> read_profiles(std::string_view text, std::string_view origin) {
  std::vector<RecordedProfile> out;
  int number = 0;
  for (std::string_view line : text::split(text, '\n')) {
    ++number;
    const std::string where = std::string(origin) + ":" + std::to_string(number);
    if (text::trim(line).empty() || text::trim(line).front() == '#') continue;
    const auto tab1 = line.find('\t');
    const auto tab2 = tab1 == std::string_view::npos ? tab1 : line.find('\t', tab1 + 1);
    if (tab2 == std::string_view::npos) {
      detail::throw_error(where + ": expected `loop<TAB>P<TAB>n h block...`");
    }
    const auto p = text::to_int(line.substr(tab1 + 1, tab2 - tab1 - 1));
    if (!p || *p < 1) detail::throw_error(where + ": P must be an integer >= 1");
    out.push_back({std::string(line.substr(0, tab1)), static_cast<int>(*p), CostProfile::parse(line.substr(tab2 + 1), where)});
  }
  return out;
}

Scenario profile_scenario(std::string name, const CostProfile& profile, const ProfileScenarioOptions& o,
                          const Portfolio& arms) {
  if (o.steps < 1) detail::throw_error("profile scenario " + name + ": steps must be >= 1");
  if (!(o.noise >= 0 && o.noise <= 5)) detail::throw_error("profile scenario " + name + ": noise must be in [0, 5]");
  if (arms.empty()) detail::throw_error("profile scenario " + name + ": no arms");
  Scenario s;
  s.name = std::move(name);
  s.description = "simulated: a measured cost profile at P = " + std::to_string(o.workers);
  s.steps = o.steps;
  s.noise = o.noise;
  s.workers = o.workers;
  s.iterations = profile.n();
  const LoopSimulationOptions sim{.workers = o.workers, .speeds = o.speeds};
  for (const TechniqueSpec& arm : arms) {
    LoopSimulationOptions options = sim;
    options.instances = arm.technique == TechniqueId::awf ? 3 : 1;
    const double ms = simulate_loop(profile, arm, options).time_ns / 1e6;
    ScenarioArm a;
    a.arm = arm;
    a.time_ms = Curve{ms, ms, 1.0, false};
    s.arms.push_back(a);
  }
  const TechniqueSpec profiling{TechniqueId::profiling, ceil_div(profile.n(), profile_blocks), false, {}};
  s.profiling_ms = simulate_loop(profile, profiling, sim).time_ns / 1e6;
  s.profile = profile;
  return s;
}

}  // namespace autosched
