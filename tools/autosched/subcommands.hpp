#pragma once
// The tool's subcommands in `autosched --help` order: the program that runs
// each one and its description. The front `autosched` runs `run` itself and
// hands every other subcommand to its helper program in libexec/autosched/
// (helper_programs.hpp), so that `autosched run` maps nothing the others
// need (the DAG executor's CUDA and LAPACK, PAPI, SQLite, ...). The front
// lists the descriptions without starting a helper; each helper registers
// its subcommand with the same description.
#include <string_view>

namespace autosched::cli {

struct Subcommand {
  std::string_view name;
  std::string_view program;  ///< the helper program, or empty: the front runs it
  std::string_view description;
};

inline constexpr Subcommand subcommands[] = {
    {"info", "autosched-info", "Show version, system, OpenMP runtime, configuration and optional components"},
    {"select-sim", "autosched-select-sim", "Run selectors against simulated loops with known costs"},
    {"simulate", "autosched-simulate",
     "Predict every arm's loop time on recorded cost profiles (AUTOSCHED_PROFILES) at any worker count"},
    {"db", "autosched-db", "Inspect and manage the store of what decision points learned"},
    {"bench", "autosched-campaign", "Run an Oracle campaign: every app under every arm, reference and method"},
    {"report", "autosched-campaign", "Write summary.md, CSVs and pictures for a campaign directory"},
    {"demo", "autosched-campaign",
     "The main job: a small campaign (2 apps, 1 repetition, Oracle arms, ExhaustiveSel, Q-Learn, auto) and its "
     "report"},
    {"run", "",
     "run an unmodified OpenMP program with autosched scheduling its schedule(runtime) loops (the drop-in, "
     "docs/dropin.md)"},
    {"dag", "autosched-dag",
     "Task graphs on CPU+GPU platforms: simulate schedulers, sweep tables, run factorisations for real"},
    {"pin", "autosched-pin",
     "manage the threads of a program from outside with the pinning manager (docs/pinning.md): launch it after --, "
     "or attach with --pid"},
};

/// The description of subcommand `name` (one of the above).
constexpr std::string_view description(std::string_view name) {
  for (const Subcommand& s : subcommands) {
    if (s.name == name) return s.description;
  }
  return {};
}

}  // namespace autosched::cli
