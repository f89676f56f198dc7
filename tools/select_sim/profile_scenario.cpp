#include <select_sim/profile_scenario.hpp>

#include <autosched/core/error.hpp>
#include <autosched/core/text.hpp>
#include <autosched/techniques/loop_simulator.hpp>
#include <autosched/techniques/profiling.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

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

std::vector<RecordedProfile> average_profiles(const std::vector<RecordedProfile>& profiles) {
  struct Sum {
    RecordedProfile first;
    std::vector<double> blocks;
    double h = 0;
    int count = 0;
  };
  std::vector<Sum> sums;
  for (const RecordedProfile& r : profiles) {
    auto it = std::find_if(sums.begin(), sums.end(), [&](const Sum& s) {
      return s.first.loop == r.loop && s.first.workers == r.workers;
    });
    if (it == sums.end()) {
      sums.push_back({r, std::vector<double>(r.profile.blocks(), 0.0), 0.0, 0});
      it = sums.end() - 1;
    }
    if (r.profile.n() != it->first.profile.n() || r.profile.blocks() != it->blocks.size()) continue;
    for (std::size_t b = 0; b < it->blocks.size(); ++b) it->blocks[b] += r.profile.block(b);
    it->h += r.profile.overhead_ns();
    ++it->count;
  }
  std::vector<RecordedProfile> out;
  for (Sum& s : sums) {
    for (double& b : s.blocks) b /= s.count;
    out.push_back({s.first.loop, s.first.workers,
                   CostProfile::from_blocks(s.first.profile.n(), std::move(s.blocks), s.h / s.count)});
  }
  return out;
}

std::vector<RecordedProfile> load_profiles(const std::string& path) {
  std::ifstream in(path);
  if (!in) detail::throw_error("profiles: cannot read " + path);
  std::ostringstream text;
  text << in.rdbuf();
  std::vector<RecordedProfile> profiles = average_profiles(read_profiles(text.str(), path));
  if (profiles.empty()) detail::throw_error("profiles: " + path + " holds no profile (record some with AUTOSCHED_PROFILES)");
  return profiles;
}

Scenario profile_scenario(std::string name, const CostProfile& profile, const ProfileScenarioOptions& o,
                          const Portfolio& arms) {
  if (o.steps < 1) detail::throw_error("profile scenario " + name + ": steps must be >= 1");
  if (!(o.noise >= 0 && o.noise <= 5 && o.common_noise >= 0 && o.common_noise <= 5)) {
    detail::throw_error("profile scenario " + name + ": noise and common noise must be in [0, 5]");
  }
  if (arms.empty()) detail::throw_error("profile scenario " + name + ": no arms");
  Scenario s;
  s.name = std::move(name);
  s.description = "simulated: a measured cost profile at P = " + std::to_string(o.workers);
  s.steps = o.steps;
  s.noise = o.noise;
  s.common_noise = o.common_noise;
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
