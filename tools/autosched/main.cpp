// autosched — inspect the runtime, run the demo campaign, manage what it learned.
#include "commands.hpp"

#include <autosched/core/error.hpp>
#include <autosched/core/version.hpp>

#include <cstdio>

int main(int argc, char** argv) {
  CLI::App app{"autosched " AUTOSCHED_VERSION_STRING " — self-scheduling loops for repetitive HPC codes"};
  app.require_subcommand(1);
  app.set_version_flag("--version", AUTOSCHED_VERSION_STRING);
  autosched::cli::add_info_command(app);
  autosched::cli::add_select_sim_command(app);
  autosched::cli::add_simulate_command(app);
  autosched::cli::add_db_command(app);
  autosched::cli::add_campaign_commands(app);
  autosched::cli::add_run_command(app);
  autosched::cli::add_dag_command(app);
  autosched::cli::add_pin_command(app);
  autosched::cli::set_command_line(argc, argv);
  autosched::cli::register_learned_plugin();  // readys:<model> in the dag commands, when built
  try {
    app.parse(autosched::cli::set_aside_run_program(argc, argv), argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const autosched::Error& e) {
    std::fprintf(stderr, "autosched: error: %s\n", e.what());
    return 1;
  }
  return 0;
}
