// `autosched select-sim`: selectors against simulated loops with known costs
// (no threads, deterministic per seed). Prints, per scenario and selector,
// total cost, regret vs the best fixed arm and vs the per-step oracle,
// exploration share and selector cost per step.
#include "commands.hpp"
#include "scenario_files.hpp"

#include <autosched/core/error.hpp>
#include <autosched/core/text.hpp>
#include <autosched/select/simulation.hpp>

#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>

namespace autosched::cli {

namespace {

struct Options {
  std::vector<std::string> scenarios{"all"};
  std::string selectors = "all";
  int steps = 0;
  int seeds = 5;
  std::string markdown;
  std::string csv;
};

struct Row {
  std::string selector;
  double total = 0, fixed = 0, oracle = 0, explore = 0, ns = 0;
};

std::vector<std::string> selector_list(const std::string& spec) {
  if (spec == "all") {
    auto list = published_selector_schedules();
    list.emplace_back("auto");
    return list;
  }
  if (spec == "published") return published_selector_schedules();
  std::vector<std::string> out;
  for (auto s : text::split(spec, ';')) {
    if (!s.empty()) out.emplace_back(s);
  }
  return out;
}

void run(const Options& o) {
  const auto selectors = selector_list(o.selectors);
  std::vector<SelectorConfig> configs;
  for (const auto& s : selectors) configs.push_back(parse_selector(s, "--selectors"));
  std::ostringstream md, csv;
  csv << "scenario,selector,seeds,steps,total_ms,best_fixed_ms,oracle_ms,regret_fixed_pct,regret_oracle_pct,"
         "exploration_pct,selector_ns\n";
  for (const std::string& file : resolve_scenarios(o.scenarios)) {
    const Scenario scenario = load_scenario(file);
    const int steps = o.steps > 0 ? o.steps : scenario.steps;
    std::printf("\n%s — %s (%d steps, %d seeds)\n", scenario.name.c_str(), scenario.description.c_str(), steps,
                o.seeds);
    std::printf("  %-36s %10s %12s %12s %9s %10s\n", "selector", "total ms", "vs fixed %", "vs oracle %", "explore %",
                "ns/step");
    md << "\n**" << scenario.name << "** — " << scenario.description << " (" << steps << " steps, mean of " << o.seeds
       << " seeds)\n\n| selector | total (ms) | regret vs best fixed arm | regret vs per-step oracle | exploration | "
          "selector ns/step |\n"
       << "|---|---:|---:|---:|---:|---:|\n";
    for (std::size_t k = 0; k < configs.size(); ++k) {
      Row r{selectors[k]};
      for (int seed = 1; seed <= o.seeds; ++seed) {
        const SimulationResult s = simulate(scenario, configs[k], static_cast<std::uint64_t>(seed), steps);
        r.total += s.total_ms / o.seeds;
        r.fixed += s.regret_vs_fixed_pct() / o.seeds;
        r.oracle += s.regret_vs_oracle_pct() / o.seeds;
        r.explore += s.exploration_share * 100.0 / o.seeds;
        r.ns += s.selector_ns / o.seeds;
      }
      std::printf("  %-36s %10.1f %12.2f %12.2f %9.1f %10.0f\n", r.selector.c_str(), r.total, r.fixed, r.oracle,
                  r.explore, r.ns);
      char line[320];
      std::snprintf(line, sizeof line, "| `%s` | %.1f | %.2f%% | %.2f%% | %.1f%% | %.0f |\n", r.selector.c_str(),
                    r.total, r.fixed, r.oracle, r.explore, r.ns);
      md << line;
      std::snprintf(line, sizeof line, "%s,\"%s\",%d,%d,%.3f,,,%.4f,%.4f,%.2f,%.0f\n", scenario.name.c_str(),
                    r.selector.c_str(), o.seeds, steps, r.total, r.fixed, r.oracle, r.explore, r.ns);
      csv << line;
    }
  }
  auto write = [](const std::string& path, const std::string& content) {
    if (path.empty()) return;
    std::ofstream f(path);
    f << content;
    if (!f) detail::throw_error("select-sim: cannot write " + path);
  };
  write(o.markdown, md.str());
  write(o.csv, csv.str());
}

}  // namespace

void add_select_sim_command(CLI::App& app) {
  auto options = std::make_shared<Options>();
  auto* cmd = app.add_subcommand("select-sim", "Run selectors against simulated loops with known costs");
  cmd->add_option("--scenario", options->scenarios,
                  "Scenario names or .scenario files (default: all shipped scenarios)");
  cmd->add_option("--selectors", options->selectors,
                  "Selector schedules separated by ';' (e.g. \"auto;auto:qlearn,reward=loadimbalance\"), "
                  "or 'published' or 'all' (default)");
  cmd->add_option("--steps", options->steps, "Steps per run (default: the scenario's)")->check(CLI::PositiveNumber);
  cmd->add_option("--seeds", options->seeds, "Seeds per selector; results are their mean (default 5)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--markdown", options->markdown, "Also write the tables as Markdown to this file");
  cmd->add_option("--csv", options->csv, "Also write the rows as CSV to this file");
  cmd->callback([options] { run(*options); });
}

}  // namespace autosched::cli
