#pragma once
// Each subcommand of the `autosched` tool registers itself on the app.
#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace autosched::cli {

void add_info_command(CLI::App& app);
void add_select_sim_command(CLI::App& app);
void add_db_command(CLI::App& app);
void add_campaign_commands(CLI::App& app);
void add_run_command(CLI::App& app);
void add_simulate_command(CLI::App& app);
void add_dag_command(CLI::App& app);
void add_pin_command(CLI::App& app);
/// For `autosched run|pin … -- program args`: keeps what follows `--` for the
/// command and returns the argc CLI11 should parse.
int set_aside_run_program(int argc, char** argv);
/// The program and its arguments set aside above (CLI11 would take them for
/// the tool's own options); empty when there was no `--`.
std::vector<std::string>& program_after_separator();
/// Path of libautosched-omp.so for `autosched run`, or empty when not found.
std::string dropin_library();
/// readys:<model> in the dag commands, when the learned policy is built:
/// registers the "readys" scheduler family, which loads
/// libautosched-dag-learn.so (autosched::dag_learn and libtorch) on first
/// use, so that other commands do not pay for loading libtorch.
void register_learned_plugin();
/// Path of libautosched-dag-learn.so, or empty when not built or not found.
std::string learned_plugin_library();
/// A symbol of libautosched-dag-learn.so (loaded on the first call), or
/// null with the reason in `problem`.
void* learned_plugin_symbol(const char* name, std::string* problem);
/// The command line, for the metadata campaigns write.
void set_command_line(int argc, char** argv);
/// That command line as one shell-quoted string.
std::string recorded_command_line();
/// `autosched dag train` (built with libtorch): called by add_dag_command.
void add_dag_train_command(CLI::App& dag);

}  // namespace autosched::cli
