#pragma once
// The `autosched` app as every program of the tool builds it, the front and
// each helper alike: the same title, --version, one subcommand required,
// the same error messages and exit codes. A helper receives the command
// line exactly as the front got it (helper_programs.hpp), so its own parse
// says what the one program of earlier versions said.
#include <CLI/CLI.hpp>

#include <cerrno>
#include <stdexcept>

#include <functional>
#include <string>
#include <vector>

namespace autosched::cli {

/// Which program is running: the front `autosched` (bin/) or a helper
/// (libexec/autosched/); tool_layout.hpp finds the tool's files from it.
enum class Program { front, helper };

/// Builds the app, lets `add_commands` register its subcommands, parses
/// `argv` and runs the chosen subcommand; returns the exit status.
/// `on_parse_error`, when given, sees the app first when parsing stops on
/// an error or a request for help or the version (the front hands the
/// command line to a helper there when it was for one of its subcommands).
int run_cli(int argc, char** argv, Program program, const std::function<void(CLI::App&)>& add_commands,
            const std::function<void(CLI::App&)>& on_parse_error = {});
/// The running program (run_cli's).
Program running_program();
/// The command line run_cli got, unchanged (argv[argc] is null).
char** command_line_arguments();
/// That command line as one shell-quoted string, for the metadata
/// campaigns and models record.
std::string recorded_command_line();
/// For `autosched run|pin … -- program args`: the program and its arguments
/// after the `--` (CLI11 would take them for the tool's own options); empty
/// when there was no `--`.
std::vector<std::string>& program_after_separator();

/// `run` and `pin` could not start the program: exit status 127 when it
/// was not found, 126 when it was found but could not run (as `env`,
/// `nice` and `timeout` report it), so a script tells this from the
/// program's own failure.
struct LaunchFailure : std::runtime_error {
  LaunchFailure(const std::string& what, int error_number)
      : std::runtime_error(what), status(error_number == ENOENT ? 127 : 126) {}
  int status;
};

/// The help of `run` and `pin`, which launch a program: their usage line
/// ends with what follows the options, which CLI11 cannot know.
class LaunchUsage : public CLI::Formatter {
 public:
  explicit LaunchUsage(std::string tail = "-- PROGRAM [ARGS...]") : tail_(std::move(tail)) {}
  std::string make_usage(const CLI::App* app, std::string name) const override {
    std::string usage = CLI::Formatter::make_usage(app, std::move(name));
    usage.erase(usage.find_last_not_of('\n') + 1);
    return usage + " " + tail_ + "\n";
  }

 private:
  std::string tail_;
};

/// For every --seed: decimal digits that fit `max` (CLI11 alone takes "-1"
/// as 2^64-1 and "" as 0, and lets a 20-digit number wrap).
CLI::Validator seed_check(unsigned long long max = ~0ULL);

}  // namespace autosched::cli
