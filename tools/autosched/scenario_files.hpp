#pragma once
// Where the CLI finds scenario files: a path as given, else a name in
// $AUTOSCHED_SCENARIOS, the source tree's share/autosched/scenarios (running
// from a build) or the installed one.
#include <select_sim/scenario.hpp>

#include <string>
#include <vector>

namespace autosched::cli {

/// Files for the given names or paths; "all" = every shipped scenario.
std::vector<std::string> resolve_scenarios(const std::vector<std::string>& names);
Scenario load_scenario(const std::string& path);

}  // namespace autosched::cli
