#include "cli_app.hpp"

#include <autosched/core/error.hpp>
#include <autosched/core/version.hpp>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <new>
#include <string>

namespace autosched::cli {

namespace {

Program g_program = Program::front;
int g_argc = 0;
char** g_argv = nullptr;

/// For `autosched run|pin … -- program args`: keeps what follows `--` for
/// the command and returns the argc CLI11 should parse.
int set_aside_run_program(int argc, char** argv) {
  if (argc < 2 || (std::strcmp(argv[1], "run") != 0 && std::strcmp(argv[1], "pin") != 0)) return argc;
  for (int i = 2; i < argc; ++i) {
    if (std::strcmp(argv[i], "--") == 0) {
      for (int j = i + 1; j < argc; ++j) program_after_separator().emplace_back(argv[j]);
      return i;
    }
  }
  return argc;
}

/// The deepest subcommand the parse reached (the app itself when none).
CLI::App* deepest(CLI::App& app) {
  CLI::App* at = &app;
  for (;;) {
    const std::vector<CLI::App*> chosen = at->get_subcommands();
    if (chosen.empty()) return at;
    at = chosen.front();
  }
}

/// `autosched` or `autosched dag` as it would be typed.
std::string command_name(const CLI::App& app, const CLI::App* at) {
  std::string words;
  for (const CLI::App* a = at; a != nullptr && a != &app; a = a->get_parent()) words = " " + a->get_name() + words;
  return "autosched" + words;
}

/// A usage error reported as command-line tools do: the words that were
/// wrong named, help when nothing was given, exit status 2 (CLI11's own
/// codes, 105-109, are not what a shell script expects). --help and
/// --version keep CLI11's output and status 0.
int report_parse_error(CLI::App& app, const CLI::ParseError& e) {
  // A subcommand's own exit status (CLI::RuntimeError: `pin` passes its
  // program's on) is no usage error.
  if (e.get_exit_code() == 0 || dynamic_cast<const CLI::RuntimeError*>(&e) != nullptr) return app.exit(e);
  CLI::App* at = deepest(app);
  const std::string name = command_name(app, at);
  if (at->get_require_subcommand_min() > 0 && at->get_subcommands().empty()) {
    std::vector<std::string> words = at->remaining();
    if (words.empty()) {  // nothing given: what there is to give
      const std::string help = at == &app ? at->help() : at->help(command_name(app, at->get_parent()));
      std::fprintf(stderr, "%s", help.c_str());
      return 2;
    }
    std::string known;
    for (const CLI::App* sub : at->get_subcommands({})) known += (known.empty() ? "" : ", ") + sub->get_name();
    std::fprintf(stderr, "autosched: error: '%s' is not a command of %s (one of: %s); %s --help says more\n",
                 words.front().c_str(), name.c_str(), known.c_str(), name.c_str());
    return 2;
  }
  std::fprintf(stderr, "autosched: error: %s\n%s --help says more\n", e.what(), name.c_str());
  return 2;
}

}  // namespace

int run_cli(int argc, char** argv, Program program, const std::function<void(CLI::App&)>& add_commands,
            const std::function<void(CLI::App&)>& on_parse_error) {
  g_program = program;
  g_argc = argc;
  g_argv = argv;
  CLI::App app{"autosched " AUTOSCHED_VERSION_STRING " — self-scheduling loops for repetitive HPC codes"};
  app.require_subcommand(1);
  app.set_version_flag("--version", AUTOSCHED_VERSION_STRING);
  add_commands(app);
  try {
    try {
      app.parse(set_aside_run_program(argc, argv), argv);
    } catch (const CLI::ParseError&) {
      if (on_parse_error) on_parse_error(app);
      throw;
    }
  } catch (const CLI::ParseError& e) {
    return report_parse_error(app, e);
  } catch (const LaunchFailure& e) {
    std::fprintf(stderr, "autosched: error: %s\n", e.what());
    return e.status;
  } catch (const autosched::Error& e) {
    std::fprintf(stderr, "autosched: error: %s\n", e.what());
    return 1;
  } catch (const std::bad_alloc&) {
    // Never an abort: a value the options accept can still ask for more
    // memory than this machine has.
    std::fprintf(stderr, "autosched: error: out of memory: the command asks for more than this machine can give "
                         "(smaller sizes: fewer tiles, smaller tiles, fewer tasks)\n");
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "autosched: error: %s\n", e.what());
    return 1;
  }
  return 0;
}

Program running_program() { return g_program; }

char** command_line_arguments() { return g_argv; }

std::string recorded_command_line() {
  std::string out;
  for (int i = 0; i < g_argc; ++i) {
    std::string a = g_argv[i];
    const bool quote = a.find_first_of(" ;,'\"*") != std::string::npos || a.empty();
    out += (i ? " " : "") + (quote ? "'" + a + "'" : a);
  }
  return out;
}

std::vector<std::string>& program_after_separator() {
  static std::vector<std::string> tail;
  return tail;
}

CLI::Validator seed_check(unsigned long long max) {
  return CLI::Validator(
      [max](std::string& text) -> std::string {
        const std::string range = "expected an integer in [0, " + std::to_string(max) + "]";
        if (text.empty() || text.size() > 20 || text.find_first_not_of("0123456789") != std::string::npos) {
          return "'" + text + "': " + range;
        }
        errno = 0;
        const unsigned long long v = std::strtoull(text.c_str(), nullptr, 10);
        if (errno != 0 || v > max) return text + ": " + range;
        return {};
      },
      "SEED");
}

}  // namespace autosched::cli
