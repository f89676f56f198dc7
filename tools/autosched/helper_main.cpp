// main() of the helper programs in libexec/autosched/ (subcommands.hpp):
// each is this file and the files of its subcommands, and
// AUTOSCHED_HELPER_COMMANDS names the function that registers them
// (tools/CMakeLists.txt). The front execs a helper with its own command
// line, so the helper parses `autosched <subcommand> …` as given.
#include "cli_app.hpp"
#include "commands.hpp"

int main(int argc, char** argv) {
  using namespace autosched::cli;
  return run_cli(argc, argv, Program::helper, [](CLI::App& app) { AUTOSCHED_HELPER_COMMANDS(app); });
}
