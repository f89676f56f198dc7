#include <autosched/select/engine/decision_point.hpp>
#include <autosched/select/engine/decisions_ahead.hpp>
#include <select_sim/scenario.hpp>
#include <select_sim/simulation.hpp>

#include <autosched/select/engine/selector_factory.hpp>

#include <autosched/measure/clock.hpp>
#include <autosched/core/error.hpp>
#include <autosched/core/text.hpp>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>

namespace autosched {

double Curve::value(int step, int steps) const noexcept {
  const double f = steps > 1 ? static_cast<double>(step) / static_cast<double>(steps - 1) : 0.0;
  if (ramp) return start + (end - start) * f;
  return f < at ? start : end;
}

Portfolio Scenario::portfolio() const {
  Portfolio p;
  for (const ScenarioArm& a : arms) p.push_back(a.arm);
  return p;
}

namespace {

Curve parse_curve(const std::vector<std::string_view>& words, std::size_t& i, std::string_view origin, int line) {
  auto number = [&](std::size_t k) {
    auto v = k < words.size() ? text::to_double(words[k]) : std::nullopt;
    if (!v || *v < 0) {
      detail::throw_error(std::string(origin) + ":" + std::to_string(line) +
                          ": expected a non-negative number after '" + std::string(words[k - 1]) + "'");
    }
    return *v;
  };
  Curve c;
  c.start = c.end = number(i++);
  if (i < words.size() && (words[i] == "->" || words[i] == "~>")) {
    c.ramp = words[i] == "~>";
    ++i;
    c.end = number(i++);
    if (!c.ramp) {
      if (i >= words.size() || words[i] != "at") {
        detail::throw_error(std::string(origin) + ":" + std::to_string(line) + ": a step change needs 'at <fraction>'");
      }
      ++i;
      c.at = number(i++);
    }
  }
  return c;
}

}  // namespace

Scenario parse_scenario(std::string_view text, std::string_view origin) {
  Scenario s;
  int line_number = 0;
  for (auto raw : text::split(text, '\n')) {
    ++line_number;
    std::string_view line = raw.substr(0, raw.find('#'));
    std::vector<std::string_view> words;
    for (auto w : text::split(text::trim(line), ' ')) {
      if (!w.empty()) words.push_back(w);
    }
    if (words.empty()) continue;
    const std::string where = std::string(origin) + ":" + std::to_string(line_number);
    const std::string key(words[0]);
    auto int_value = [&](long low) {
      auto v = words.size() == 2 ? text::to_int(words[1]) : std::nullopt;
      if (!v || *v < low) detail::throw_error(where + ": " + key + " expects one integer >= " + std::to_string(low));
      return *v;
    };
    if (key == "name") {
      s.name = words.size() > 1 ? std::string(words[1]) : "";
    } else if (key == "description") {
      s.description = std::string(text::trim(line.substr(line.find("description") + 11)));
    } else if (key == "steps") {
      s.steps = static_cast<int>(int_value(1));
    } else if (key == "workers") {
      s.workers = static_cast<int>(int_value(1));
    } else if (key == "iterations") {
      s.iterations = int_value(1);
    } else if (key == "noise") {
      auto v = words.size() == 2 ? text::to_double(words[1]) : std::nullopt;
      if (!v || *v < 0 || *v > 5) detail::throw_error(where + ": noise expects one number in [0, 5]");
      s.noise = *v;
    } else if (key == "common-noise") {
      auto v = words.size() == 2 ? text::to_double(words[1]) : std::nullopt;
      if (!v || *v < 0 || *v > 5) detail::throw_error(where + ": common-noise expects one number in [0, 5]");
      s.common_noise = *v;
    } else if (key == "cold" || key == "outliers") {
      const bool cold = key == "cold";
      const double first = words.size() == 3 ? text::to_double(words[1]).value_or(-1) : -1;
      const double factor = words.size() == 3 ? text::to_double(words[2]).value_or(-1) : -1;
      if (factor < 1 || first < 0 || (cold ? first != std::floor(first) : first > 1)) {
        detail::throw_error(where + (cold ? ": cold expects <instances> <factor >= 1>"
                                          : ": outliers expects <rate in [0, 1]> <factor >= 1>"));
      }
      if (cold) {
        s.cold_steps = static_cast<int>(first);
        s.cold_factor = factor;
      } else {
        s.outlier_rate = first;
        s.outlier_factor = factor;
      }
    } else if (key == "shape") {
      const ShapeRule previous = s.shape.value_or(ShapeRule{});
      ShapeRule rule = parse_shape({words.begin() + 1, words.end()}, where);
      rule.time_ms = previous.time_ms;
      s.shape = rule;
    } else if (key == "loop-time") {
      auto v = words.size() == 2 ? text::to_double(words[1]) : std::nullopt;
      if (!v || !(*v > 0) || !std::isfinite(*v)) detail::throw_error(where + ": loop-time expects one number of ms > 0");
      if (!s.shape) s.shape = ShapeRule{};
      s.shape->time_ms = *v;
    } else if (key == "arms") {
      if (words.size() != 2 || words[1] != "auto") detail::throw_error(where + ": arms expects `auto` (auto's 24 arms)");
      for (const TechniqueSpec& arm : auto_portfolio()) s.arms.push_back({arm, Curve{1, 1, 1.0, false}, Curve{}});
    } else if (key == "store") {
      if (words.size() != 2 || words[1] != "warm") detail::throw_error(where + ": store expects `warm`");
      s.warm = true;
    } else if (key == "arm") {
      if (words.size() >= 4 && words[2] == "factor") {  // a generated scenario's arm, corrected
        const TechniqueSpec arm = parse_technique_spec(words[1], where);
        auto it = std::find_if(s.arms.begin(), s.arms.end(), [&](const ScenarioArm& a) { return a.arm == arm; });
        if (it == s.arms.end()) detail::throw_error(where + ": arm " + std::string(words[1]) + " is not among the arms (give `arms auto` first)");
        std::size_t i = 3;
        it->factor = parse_curve(words, i, origin, line_number);
        if (i != words.size() || !(it->factor.start > 0) || !(it->factor.end > 0)) {
          detail::throw_error(where + ": arm <name> factor <curve> expects one positive curve");
        }
        continue;
      }
      if (words.size() < 4) detail::throw_error(where + ": arm <name> time <ms> [lib <percent>] (or factor <curve>)");
      ScenarioArm a;
      a.arm = parse_technique_spec(words[1], where);
      std::size_t i = 2;
      bool have_time = false;
      while (i < words.size()) {
        if (words[i] == "time") {
          ++i;
          a.time_ms = parse_curve(words, i, origin, line_number);
          have_time = true;
        } else if (words[i] == "lib") {
          ++i;
          a.lib = parse_curve(words, i, origin, line_number);
        } else {
          detail::throw_error(where + ": unexpected '" + std::string(words[i]) + "'; expected time or lib");
        }
      }
      if (!have_time || a.time_ms.start <= 0 || a.time_ms.end <= 0) {
        detail::throw_error(where + ": arm " + std::string(words[1]) + " needs a positive time");
      }
      s.arms.push_back(a);
    } else {
      detail::throw_error(where + ": unknown key '" + key +
                          "'; expected name, description, steps, noise, common-noise, cold, outliers, workers, iterations, arm, "
                          "arms, shape, loop-time or store");
    }
  }
  if (s.arms.empty()) detail::throw_error(std::string(origin) + ": a scenario needs at least one arm");
  if (s.name.empty()) s.name = std::string(origin);
  if (s.shape) {
    if (s.shape->kind == ShapeRule::Kind::none) detail::throw_error(std::string(origin) + ": loop-time needs a shape");
    s.generated = std::make_shared<GeneratedSteps>(generate_steps(*s.shape, s.portfolio(), s.steps, s.iterations, s.workers));
  }
  return s;
}

namespace {

/// The generated steps of `s` for a run of `steps` (those made at parsing,
/// or made now for another length); nullptr for other scenarios.
std::shared_ptr<const GeneratedSteps> generated_for(const Scenario& s, int steps) {
  if (!s.shape) return nullptr;
  if (s.generated && static_cast<int>(s.generated->arm_ms.size()) == steps) return s.generated;
  return std::make_shared<GeneratedSteps>(generate_steps(*s.shape, s.portfolio(), steps, s.iterations, s.workers));
}

}  // namespace

std::vector<std::vector<double>> scenario_costs(const Scenario& s, std::uint64_t seed, int steps) {
  const auto generated = generated_for(s, steps);
  std::mt19937_64 rng(seed * 0x9e3779b97f4a7c15ULL + 17);
  std::normal_distribution<double> z(0.0, 1.0);
  std::uniform_real_distribution<double> hit(0.0, 1.0);
  std::vector<std::vector<double>> cost(static_cast<std::size_t>(steps), std::vector<double>(s.arms.size()));
  // Lognormal with mean 1: exp(σZ − σ²/2).
  const double sigma = std::sqrt(std::log(1.0 + s.noise * s.noise));
  // The shared factor has its own stream: scenarios without it draw exactly
  // what they drew before it existed.
  std::mt19937_64 common_rng(seed * 0xbf58476d1ce4e5b9ULL + 29);
  const double common_sigma = std::sqrt(std::log(1.0 + s.common_noise * s.common_noise));
  // An interruption (a preempted thread, a daemon) is an event in time: it
  // hits the step whatever arm runs then, so every selector meets the same
  // ones and none is charged for a hit that fell on an arm it happened to
  // try (drawn per arm, an 8x hit on one arm's cold first step once made a
  // selector's whole run 40% dearer). Its own stream, as the shared factor.
  std::mt19937_64 outlier_rng(seed * 0x94d049bb133111ebULL + 43);
  for (int t = 0; t < steps; ++t) {
    const double common =
        s.common_noise > 0 ? std::exp(common_sigma * z(common_rng) - common_sigma * common_sigma / 2) : 1.0;
    const bool interrupted = s.outlier_rate > 0 && hit(outlier_rng) < s.outlier_rate;
    for (std::size_t a = 0; a < s.arms.size(); ++a) {
      const double base = generated ? generated->arm_ms[static_cast<std::size_t>(t)][a] * s.arms[a].factor.value(t, steps)
                                    : s.arms[a].time_ms.value(t, steps);
      cost[t][a] = base * std::exp(sigma * z(rng) - sigma * sigma / 2) * common;
      if (t < s.cold_steps) cost[t][a] *= s.cold_factor;
      if (interrupted) cost[t][a] *= s.outlier_factor;
    }
  }
  return cost;
}

const std::vector<std::string>& published_selector_schedules() {
  static const std::vector<std::string> list = {"auto:random",
                                                "auto:exhaustive",
                                                "auto:binary",
                                                "auto:expert",
                                                "auto:qlearn",
                                                "auto:sarsa",
                                                "auto:doubleq",
                                                "auto:qv",
                                                "auto:expected-sarsa",
                                                "auto:qlearn,reward=loadimbalance",
                                                "auto:sarsa,reward=loadimbalance",
                                                "auto:qlearn,policy=epsilon-greedy",
                                                "auto:qlearn,policy=softmax"};
  return list;
}

SimulationResult simulate(const Scenario& s, const SelectorConfig& config, std::uint64_t seed, int steps,
                          std::string_view warm_state) {
  if (s.warm && warm_state.empty()) {
    // The first run learns; the second, on other noise, starts from what it
    // left, and is the one reported.
    Scenario once = s;
    once.warm = false;
    const SimulationResult cold = simulate(once, config, seed, steps);
    return simulate(once, config, seed + 0x9e37, steps, cold.state.empty() ? std::string_view{} : cold.state);
  }
  if (steps <= 0) steps = s.steps;
  const auto cost = scenario_costs(s, seed, steps);
  const auto generated = generated_for(s, steps);
  const Context context{s.profile ? s.profile->n() : s.iterations, s.workers, {}};
  SelectorConfig c = config;
  // A selector runs its own portfolio when the scenario has every arm of it
  // (a trace-driven scenario holds auto's 24; the published selectors run
  // their 12 of them), else the scenario's arms in the scenario's order. The
  // chunk selector's inner agent runs over the scenario's arms too (its own
  // chunk arms need a real loop).
  Portfolio arms;
  std::vector<std::size_t> to_scenario;  ///< selector arm → scenario arm
  const Portfolio scenario_arms = s.portfolio();
  if (c.selector != "chunk") {
    arms = selector_portfolio(c, context);
    for (const TechniqueSpec& a : arms) {
      const int i = find_arm(scenario_arms, a);
      if (i < 0) {
        to_scenario.clear();
        break;
      }
      to_scenario.push_back(static_cast<std::size_t>(i));
    }
  }
  if (to_scenario.empty()) {
    if (c.portfolio.empty() && c.selector != "chunk") c.portfolio = scenario_arms;
    arms = c.selector == "chunk" ? scenario_arms : selector_portfolio(c, context);
    if (arms.size() != s.arms.size()) {
      detail::throw_error("select-sim: scenario " + s.name + " has " + std::to_string(s.arms.size()) +
                          " arms but the selector's portfolio has " + std::to_string(arms.size()));
    }
    for (std::size_t i = 0; i < arms.size(); ++i) to_scenario.push_back(i);
  }
  DecisionPoint point(s.name, arms, make_selector(c, arms, seed, nullptr, s.name));
  if (!warm_state.empty() && !point.selector().load_state(warm_state)) {
    detail::throw_error("select-sim: scenario " + s.name + ": the warm state does not fit the selector");
  }

  SimulationResult r;
  std::vector<double> per_arm(s.arms.size(), 0.0);
  long exploring = 0;
  double selector_ns = 0;
  // Decisions made ahead and learned in batches as the decision engine does
  // in a program (a settled auto), so the simulated selector is the one
  // that runs.
  DecisionsAhead ahead;
  for (int t = 0; t < steps; ++t) {
    const Decision d = ahead.next(point, context);
    const auto& row = cost[static_cast<std::size_t>(t)];
    const bool profiling = d.profile && (s.profile.has_value() || generated);
    // A profiling step costs what the profiling instance would, with the
    // noise the chosen arm drew at this step.
    const std::size_t arm = to_scenario[static_cast<std::size_t>(d.arm)];
    const double arm_ms = row[arm];
    const auto step = static_cast<std::size_t>(t);
    double full = arm_ms;
    if (profiling && generated) {
      full = generated->profiling_ms[step] * arm_ms / (generated->arm_ms[step][arm] * s.arms[arm].factor.value(t, steps));
    } else if (profiling) {
      full = s.profiling_ms * arm_ms / s.arms[arm].time_ms.value(t, steps);
    }
    Outcome o;
    o.time_ns = full * 1e6;
    if (profiling) o.profile = generated ? &generated->profiles[step] : &*s.profile;
    if (d.budget_ns > 0 && d.fallback >= 0 && o.time_ns > d.budget_ns) {
      const double done = d.budget_ns / o.time_ns;
      o.time_ns = d.budget_ns + (1.0 - done) * row[to_scenario[static_cast<std::size_t>(d.fallback)]] * 1e6;
      o.cut_short = true;
    }
    o.metrics.loop_time_ns = o.time_ns;
    o.metrics.lib = s.arms[arm].lib.value(t, steps);
    ahead.complete(point, d, o, context.p);
    selector_ns += point.take_cost_ns();
    r.total_ms += o.time_ns / 1e6;
    r.oracle_ms += *std::min_element(row.begin(), row.end());
    for (std::size_t a = 0; a < row.size(); ++a) per_arm[a] += row[a];
    exploring += d.exploring ? 1 : 0;
    r.choices.push_back(static_cast<int>(arm));
    r.step_ms.push_back(o.time_ns / 1e6);
  }
  const auto best = std::min_element(per_arm.begin(), per_arm.end());
  r.best_fixed_ms = *best;
  r.best_fixed_arm = static_cast<int>(best - per_arm.begin());
  r.best_fixed_step_ms.reserve(static_cast<std::size_t>(steps));
  for (int t = 0; t < steps; ++t) {
    r.best_fixed_step_ms.push_back(cost[static_cast<std::size_t>(t)][static_cast<std::size_t>(r.best_fixed_arm)]);
  }
  r.exploration_share = static_cast<double>(exploring) / steps;
  r.selector_ns = selector_ns / steps;
  ahead.learn_held(point);  // what ran is part of the state
  r.state = point.selector().save_state();
  return r;
}

}  // namespace autosched
