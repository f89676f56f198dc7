#pragma once
// Each subcommand of the `autosched` tool registers itself on the app; the
// front registers `run`, and each helper program its own (subcommands.hpp).
#include <CLI/CLI.hpp>

#include <string>

namespace autosched::cli {

void add_info_command(CLI::App& app);
void add_select_sim_command(CLI::App& app);
void add_db_command(CLI::App& app);
void add_campaign_commands(CLI::App& app);
void add_run_command(CLI::App& app);
void add_simulate_command(CLI::App& app);
void add_dag_command(CLI::App& app);
void add_pin_command(CLI::App& app);
/// readys:<model> in the dag commands, when the learned policy is built:
/// registers the "readys" scheduler family, which loads
/// libautosched-dag-learn.so (autosched::dag_learn and libtorch) on first
/// use, so that other commands do not pay for loading libtorch.
void register_learned_plugin();
/// A symbol of libautosched-dag-learn.so (loaded on the first call), or
/// null with the reason in `problem`.
void* learned_plugin_symbol(const char* name, std::string* problem);
/// `autosched dag train` (built with libtorch): called by add_dag_command.
void add_dag_train_command(CLI::App& dag);

}  // namespace autosched::cli
