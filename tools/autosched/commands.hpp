#pragma once
// Each subcommand of the `autosched` tool registers itself on the app.
#include <CLI/CLI.hpp>

namespace autosched::cli {

void add_info_command(CLI::App& app);
void add_select_sim_command(CLI::App& app);
void add_db_command(CLI::App& app);

}  // namespace autosched::cli
