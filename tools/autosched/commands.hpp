#pragma once
// Each subcommand of the `autosched` tool registers itself on the app.
#include <CLI/CLI.hpp>

namespace autosched::cli {

void add_info_command(CLI::App& app);
void add_select_sim_command(CLI::App& app);
void add_db_command(CLI::App& app);
void add_campaign_commands(CLI::App& app);
/// The command line, for the metadata campaigns write.
void set_command_line(int argc, char** argv);

}  // namespace autosched::cli
