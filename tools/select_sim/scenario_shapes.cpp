#include <select_sim/scenario_shapes.hpp>

#include <autosched/core/error.hpp>
#include <autosched/core/text.hpp>
#include <autosched/techniques/loop_simulator.hpp>
#include <autosched/techniques/profiling.hpp>

#include <algorithm>
#include <cmath>
#include <numbers>

namespace autosched {

CostProfile ShapeRule::profile(int t, int steps, std::int64_t n, int workers) const {
  const int count = static_cast<int>(std::min<std::int64_t>(blocks, n));
  std::vector<double> block(static_cast<std::size_t>(count), 1.0);
  const double position = steps > 1 ? static_cast<double>(t) / static_cast<double>(steps) : 0.0;
  for (int b = 0; b < count; ++b) {
    const double x = (b + 0.5) / count;
    double& c = block[static_cast<std::size_t>(b)];
    if (kind == Kind::band) {
      const double amplitude = peak * (1.0 - std::cos(2.0 * std::numbers::pi * t / period)) / 2.0;
      const double centre = std::fmod(t * move, 1.0);
      double d = std::abs(x - centre);
      d = std::min(d, 1.0 - d);  // the band wraps around the iteration space
      c = 1.0 + amplitude * std::exp(-d * d / (2.0 * width * width));
    } else if (kind == Kind::ramp) {
      c = 1.0 + slope * (position < flip ? x : 1.0 - x);
    }
  }
  // A block of the balanced loop costs time_ms · workers / blocks.
  const double unit = time_ms * 1e6 * workers / count;
  for (double& c : block) c *= unit;
  return CostProfile::from_blocks(n, std::move(block), overhead_ns);
}

ShapeRule parse_shape(const std::vector<std::string_view>& words, const std::string& where) {
  ShapeRule r;
  auto number = [&](std::size_t k, double low) {
    auto v = k < words.size() ? text::to_double(words[k]) : std::nullopt;
    if (!v || !(*v >= low) || !std::isfinite(*v)) {
      detail::throw_error(where + ": shape expects `band <width> <peak> <period> <move>` or `ramp <slope> <flip>` "
                                  "with non-negative numbers (width and period > 0)");
    }
    return *v;
  };
  const std::string_view kind = words.empty() ? std::string_view{} : words[0];
  if (kind == "band" && words.size() == 5) {
    r.kind = ShapeRule::Kind::band;
    r.width = number(1, 1e-6);
    r.peak = number(2, 0);
    r.period = number(3, 1e-6);
    r.move = number(4, 0);
  } else if (kind == "ramp" && words.size() == 3) {
    r.kind = ShapeRule::Kind::ramp;
    r.slope = number(1, 0);
    r.flip = number(2, 0);
  } else {
    number(words.size(), 0);  // throws with the usage
  }
  return r;
}

GeneratedSteps generate_steps(const ShapeRule& rule, const Portfolio& arms, int steps, std::int64_t n, int workers) {
  GeneratedSteps g;
  const LoopSimulationOptions options{.workers = workers};
  for (int t = 0; t < steps; ++t) {
    CostProfile p = rule.profile(t, steps, n, workers);
    std::vector<double> row;
    row.reserve(arms.size());
    for (const TechniqueSpec& arm : arms) {
      LoopSimulationOptions o = options;
      o.instances = arm.technique == TechniqueId::awf ? 3 : 1;
      row.push_back(simulate_loop(p, arm, o).time_ns / 1e6);
    }
    const TechniqueSpec profiling{TechniqueId::profiling, ceil_div(p.n(), profile_blocks), false, {}};
    g.profiling_ms.push_back(simulate_loop(p, profiling, options).time_ns / 1e6);
    g.arm_ms.push_back(std::move(row));
    g.profiles.push_back(std::move(p));
  }
  return g;
}

}  // namespace autosched
