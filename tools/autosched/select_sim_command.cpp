// `autosched select-sim`: selectors against simulated loops with known costs
// (no threads, deterministic per seed). Prints, per scenario and selector,
// total cost, regret vs the best fixed arm and vs the per-step oracle,
// exploration share and selector cost per step.
#include "output_file.hpp"
#include "commands.hpp"
#include "subcommands.hpp"
#include "scenario_files.hpp"
#include "worker_speeds.hpp"

#include <autosched/core/error.hpp>
#include <autosched/core/text.hpp>
#include <select_sim/profile_scenario.hpp>
#include <select_sim/simulation.hpp>

#include <campaign/gnuplot.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <memory>
#include <sstream>

namespace autosched::cli {

namespace {

struct Options {
  std::vector<std::string> scenarios;  ///< empty: all shipped ones, unless --profiles is given
  std::string profiles;
  std::string workers = "20,56,128";
  std::string speeds;
  int profile_steps = 200;
  double noise = 0.01;
  double common_noise = 0.03;
  std::string selectors = "all";
  int steps = 0;
  int seeds = 5;
  std::string markdown;
  std::string csv;
  std::string plots;  ///< a directory for the regret-over-steps pictures
};

/// A scenario's regret over the steps, mean over the seeds: at step t, what
/// the selector spent so far minus what the best fixed arm spent, in % of
/// the best fixed arm's whole run (the last point is the table's regret).
using RegretCurves = std::vector<std::vector<double>>;  // [selector][step]

/// Writes <dir>/<scenario>.{dat,gp} and draws <scenario>.png with gnuplot:
/// `auto` and the five other selectors that end lowest, so that the picture
/// stays readable with thirty selectors in the table.
void draw_regret(const std::string& dir, const std::string& scenario, const std::vector<std::string>& selectors,
                 const RegretCurves& curves) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) detail::throw_error("--plots=" + dir + ": cannot create it: " + ec.message());
  std::vector<std::size_t> order(selectors.size());
  for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return curves[a].back() < curves[b].back(); });
  std::vector<std::size_t> shown;
  for (std::size_t k = 0; k < selectors.size(); ++k) {
    if (selectors[k] == "auto") shown.push_back(k);
  }
  for (std::size_t k : order) {
    if (shown.size() >= 6) break;
    if (selectors[k] != "auto") shown.push_back(k);
  }
  std::ostringstream dat;
  dat << "step";
  for (std::size_t k : shown) dat << '\t' << '"' << selectors[k] << '"';
  dat << '\n';
  for (std::size_t t = 0; t < curves[0].size(); ++t) {
    dat << t;
    for (std::size_t k : shown) dat << '\t' << curves[k][t];
    dat << '\n';
  }
  const std::filesystem::path base = std::filesystem::path(dir) / scenario;
  write_output("--plots", base.string() + ".dat", dat.str());
  std::ostringstream gp;
  gp << "# " << scenario << ": regret vs the best fixed arm over the steps. Regenerate: gnuplot " << scenario
     << ".gp\nset terminal pngcairo size 900,480 font 'sans,9'\nset output '" << scenario
     << ".png'\nset datafile separator '\\t'\nset title 'select-sim " << scenario
     << ": regret vs the best fixed arm, mean over the seeds' noenhanced\nset xlabel 'step'\n"
        "set ylabel 'cumulative regret, % of the best fixed arm run'\nset key outside right noenhanced\n"
        "set grid\nplot for [i=2:"
     << shown.size() + 1 << "] '" << scenario << ".dat' using 1:i with lines lw 2 title columnheader(i)\n";
  write_output("--plots", base.string() + ".gp", gp.str());
  if (campaign::have_gnuplot()) {
    if (campaign::run_gnuplot(dir, scenario + ".gp")) {
      std::printf("picture: %s.png\n", base.string().c_str());
      return;
    }
  }
  std::printf("picture: %s.gp (gnuplot did not draw it here)\n", base.string().c_str());
}

struct Row {
  std::string selector;
  double total = 0, fixed = 0, oracle = 0, explore = 0, ns = 0;
  double fixed_ms = 0, oracle_ms = 0;
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

/// The matrix the full tables below it are summarised by: regret vs the best
/// fixed arm, selectors × scenarios, with the best of each column in bold.
std::string summary(const std::vector<std::string>& selectors, const std::vector<std::string>& scenarios,
                    const std::vector<std::vector<double>>& regret, int seeds) {
  std::ostringstream md;
  md << "**Regret vs the best fixed arm** (%, mean of " << seeds << (seeds == 1 ? " seed" : " seeds")
     << "; lower is better, best per scenario in bold)\n\n| selector |";
  for (const auto& s : scenarios) md << ' ' << s << " |";
  md << " sum |\n|---|";
  for (std::size_t j = 0; j <= scenarios.size(); ++j) md << "---:|";
  md << '\n';
  std::vector<double> best(scenarios.size() + 1, std::numeric_limits<double>::infinity());
  for (const auto& row : regret) {
    double sum = 0;
    for (std::size_t j = 0; j < row.size(); ++j) {
      best[j] = std::min(best[j], row[j]);
      sum += row[j];
    }
    best.back() = std::min(best.back(), sum);
  }
  char cell[64];
  for (std::size_t k = 0; k < selectors.size(); ++k) {
    md << "| `" << selectors[k] << "` |";
    double sum = 0;
    for (std::size_t j = 0; j <= scenarios.size(); ++j) {
      const double v = j < scenarios.size() ? regret[k][j] : sum;
      if (j < scenarios.size()) sum += v;
      std::snprintf(cell, sizeof cell, v == best[j] ? " **%.2f** |" : " %.2f |", v);
      md << cell;
    }
    md << '\n';
  }
  return md.str();
}

void run(const Options& o) {
  const auto selectors = selector_list(o.selectors);
  std::vector<SelectorConfig> configs;
  for (const auto& s : selectors) configs.push_back(parse_selector(s, "--selectors"));
  std::ostringstream md, csv;
  std::vector<std::string> scenario_names;
  std::vector<std::vector<double>> regret(configs.size());  ///< per selector, per scenario
  csv << "scenario,selector,seeds,steps,total_ms,best_fixed_ms,oracle_ms,regret_fixed_pct,regret_oracle_pct,"
         "exploration_pct,selector_ns\n";
  std::vector<Scenario> scenarios;
  if (!o.scenarios.empty() || o.profiles.empty()) {
    for (const std::string& file : resolve_scenarios(o.scenarios.empty() ? std::vector<std::string>{"all"} : o.scenarios)) {
      scenarios.push_back(load_scenario(file));
    }
  }
  if (!o.profiles.empty()) {
    // Trace-driven: every recorded loop at every worker count, simulated.
    for (const RecordedProfile& r : load_profiles(o.profiles)) {
      for (const int p : worker_counts(o.workers, "--workers")) {
        const std::vector<double> speeds = worker_speeds(o.speeds, p, "--speeds");
        Scenario s = profile_scenario(r.loop + "@" + std::to_string(p), r.profile,
                                      {.workers = p, .speeds = speeds, .steps = o.profile_steps, .noise = o.noise,
                                       .common_noise = o.common_noise},
                                      auto_portfolio());
        if (!speeds.empty()) s.description += ", speeds " + o.speeds;
        scenarios.push_back(std::move(s));
      }
    }
  }
  for (const Scenario& scenario : scenarios) {
    scenario_names.push_back(scenario.name);
    const int steps = o.steps > 0 ? o.steps : scenario.steps;
    std::printf("\n%s — %s (%d steps, %d seed%s)\n", scenario.name.c_str(), scenario.description.c_str(), steps,
                o.seeds, o.seeds == 1 ? "" : "s");
    std::printf("  %-36s %10s %12s %12s %9s %10s\n", "selector", "total ms", "vs fixed %", "vs oracle %", "explore %",
                "ns/step");
    md << "\n**" << scenario.name << "** — " << scenario.description << " (" << steps << " steps, mean of " << o.seeds
       << (o.seeds == 1 ? " seed" : " seeds")
       << ")\n\n| selector | total (ms) | regret vs best fixed arm | regret vs per-step oracle | exploration | "
          "selector ns/step |\n"
       << "|---|---:|---:|---:|---:|---:|\n";
    RegretCurves curves(configs.size(), std::vector<double>(static_cast<std::size_t>(steps), 0.0));
    for (std::size_t k = 0; k < configs.size(); ++k) {
      Row r{selectors[k]};
      for (int seed = 1; seed <= o.seeds; ++seed) {
        const SimulationResult s = simulate(scenario, configs[k], static_cast<std::uint64_t>(seed), steps);
        double spent = 0, fixed = 0;
        for (std::size_t t = 0; t < s.step_ms.size() && t < curves[k].size(); ++t) {
          spent += s.step_ms[t];
          fixed += s.best_fixed_step_ms[t];
          curves[k][t] += (spent - fixed) / s.best_fixed_ms * 100.0 / o.seeds;
        }
        r.total += s.total_ms / o.seeds;
        r.fixed_ms += s.best_fixed_ms / o.seeds;
        r.oracle_ms += s.oracle_ms / o.seeds;
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
      std::snprintf(line, sizeof line, "%s,\"%s\",%d,%d,%.3f,%.3f,%.3f,%.4f,%.4f,%.2f,%.0f\n", scenario.name.c_str(),
                    r.selector.c_str(), o.seeds, steps, r.total, r.fixed_ms, r.oracle_ms, r.fixed, r.oracle, r.explore,
                    r.ns);
      csv << line;
      regret[k].push_back(r.fixed);
    }
    if (!o.plots.empty()) draw_regret(o.plots, scenario.name, selectors, curves);
  }
  if (!o.markdown.empty()) write_output("--markdown", o.markdown, summary(selectors, scenario_names, regret, o.seeds) + md.str());
  if (!o.csv.empty()) write_output("--csv", o.csv, csv.str());
}

}  // namespace

void add_select_sim_command(CLI::App& app) {
  auto options = std::make_shared<Options>();
  auto* cmd = app.add_subcommand("select-sim", std::string(description("select-sim")));
  cmd->add_option("--scenario", options->scenarios,
                  "Scenario names or .scenario files (default: all shipped scenarios)");
  cmd->add_option("--selectors", options->selectors,
                  "Selector schedules separated by ';' (e.g. \"auto;auto:qlearn,reward=loadimbalance\"), "
                  "or 'published' or 'all' (default)");
  cmd->add_option("--steps", options->steps, "Steps per run (default: the scenario's)")->check(CLI::PositiveNumber);
  cmd->add_option("--seeds", options->seeds, "Seeds per selector; results are their mean (default 5)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--profiles", options->profiles,
                  "Also (or, without --scenario, only) the loops of a file recorded with AUTOSCHED_PROFILES=<file>, "
                  "simulated over auto's 24 arms at each --workers count");
  cmd->add_option("--workers", options->workers, "Worker counts for --profiles, comma separated (default 20,56,128)");
  cmd->add_option("--speeds", options->speeds,
                  "Relative worker speeds for --profiles, ':' separated, repeated over the team (e.g. 1:0.5)");
  cmd->add_option("--profile-steps", options->profile_steps, "Steps of a --profiles scenario (default 200)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--noise", options->noise,
                  "Relative noise of each arm's step time in a --profiles scenario (default 0.01)")
      ->check(CLI::Range(0.0, 5.0));
  cmd->add_option("--common-noise", options->common_noise,
                  "Relative noise shared by all arms at a step in a --profiles scenario (default 0.03)")
      ->check(CLI::Range(0.0, 5.0));
  cmd->add_option("--markdown", options->markdown, "Also write the tables as Markdown to this file");
  cmd->add_option("--csv", options->csv, "Also write the rows as CSV to this file");
  cmd->add_option("--plots", options->plots,
                  "Draw each scenario's regret over the steps into this directory (<scenario>.png with gnuplot; "
                  ".dat and .gp always)");
  cmd->callback([options] { run(*options); });
}

}  // namespace autosched::cli
