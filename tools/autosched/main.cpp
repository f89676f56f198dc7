// autosched — inspect the runtime, run the demo campaign, manage what it learned.
// This is the front command: it runs `autosched run` itself and hands every
// other subcommand, command line unchanged, to its helper program
// (subcommands.hpp), so that launching a program maps nothing more than
// this small executable before the exec.
#include "cli_app.hpp"
#include "commands.hpp"
#include "helper_programs.hpp"
#include "subcommands.hpp"

namespace {

using namespace autosched::cli;

/// The subcommand a helper runs: listed with its description, and what
/// follows it left for the helper to parse (its own --help included).
void add_helper_subcommand(CLI::App& app, const Subcommand& s) {
  auto* sub = app.add_subcommand(std::string(s.name), std::string(s.description));
  sub->set_help_flag();
  sub->prefix_command();
  sub->allow_extras();
  sub->callback([&s] { exec_helper(s.program, s.name); });
}

/// Parsing stopped (an error, --help, --version) after a helper's
/// subcommand: the helper parses the command line again and reports it as
/// the whole tool did, with that subcommand's full definition.
void hand_over_to_helper(CLI::App& app) {
  for (const CLI::App* chosen : app.get_subcommands()) {
    for (const Subcommand& s : subcommands) {
      if (!s.program.empty() && chosen->get_name() == s.name) exec_helper(s.program, s.name);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  return run_cli(
      argc, argv, Program::front,
      [](CLI::App& app) {
        for (const Subcommand& s : subcommands) {
          if (s.program.empty()) {
            add_run_command(app);
          } else {
            add_helper_subcommand(app, s);
          }
        }
      },
      &hand_over_to_helper);
}
