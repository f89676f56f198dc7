// `autosched run [--schedule S] [--loops runtime|all|static] [--pin POLICY] [--report] [--report-file F] -- ./app args…`
// Runs an unmodified OpenMP program with the drop-in preloaded: its
// schedule(runtime) loops are scheduled by autosched (docs/dropin.md). The
// launcher only sets the environment and replaces itself with the program;
// everything it sets can equally be set by hand.
#include "cli_app.hpp"
#include "commands.hpp"
#include "subcommands.hpp"
#include "tool_layout.hpp"

#include <autosched/core/error.hpp>
#include <autosched/core/file_checks.hpp>
#include <autosched/core/text.hpp>
#include <autosched/pinning/options.hpp>
#include <autosched/select/grammar/schedule.hpp>

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

namespace autosched::cli {

namespace {

namespace fs = std::filesystem;

struct RunOptions {
  std::string schedule;
  std::string loops;
  std::string pin;     // AUTOSCHED_PINNING for the program, or empty
  std::string report;  // "stderr", a file, or empty
  bool report_flag = false;
};

/// A report file that cannot take the report is refused before the program
/// starts, with exit 1 (the drop-in alone can only warn at exit and put the
/// report on stderr: the exit status is then the program's). A FIFO, a
/// device such as /dev/full, a directory, or a missing parent directory.
void check_report_destination(const RunOptions& o) {
  const char* set = std::getenv("AUTOSCHED_OMP_REPORT");
  const std::string where = o.report_flag ? o.report : set != nullptr ? set : "";
  if (where.empty() || where == "stderr" || where == "-") return;
  const std::string named = (o.report_flag ? "--report-file=" : "AUTOSCHED_OMP_REPORT=") +
                            text::escape(where, text::max_echoed_value) + ": ";
  if (const std::string kind = files::special_kind(where); !kind.empty())
    detail::throw_error(named + "it is " + kind + ", not a regular file");
  const fs::path parent = fs::path(where).parent_path().empty() ? fs::path(".") : fs::path(where).parent_path();
  if (const std::string why = files::existing_problem(parent.string(), true); !why.empty())
    detail::throw_error(named + "its directory " + text::escape(parent.string(), text::max_echoed_value) + ": " + why);
  if (access(parent.c_str(), W_OK) != 0 && access(where.c_str(), W_OK) != 0)
    detail::throw_error(named + "cannot be written: " + std::strerror(errno));
}

[[noreturn]] void run_program(const RunOptions& o, std::vector<std::string> command) {
  if (!command.empty() && command.front() == "--") command.erase(command.begin());
  if (command.empty()) detail::throw_error("run: name the program to run, e.g. autosched run -- ./app");
  if (!o.schedule.empty()) (void)parse_schedule(o.schedule, "--schedule");  // a clear error before launching
  const std::string library = dropin_library();
  if (library.empty()) {
    detail::throw_error(std::string("run: cannot find libautosched-omp.so (looked beside this tool, in ") +
                        AUTOSCHED_INSTALLED_OMP_LIBRARY + " and " + AUTOSCHED_BUILD_OMP_LIBRARY +
                        "); set AUTOSCHED_OMP_LIBRARY to its path");
  }
  check_report_destination(o);
  // Every process of the program that ran OpenMP adds its section to a
  // shared report file; this run's file starts empty. A name with %p or %r
  // is one file per process, each written whole by its process.
  if (o.report_flag && !o.report.empty() && o.report != "stderr" && o.report != "-" &&
      o.report.find('%') == std::string::npos) {
    std::string why;
    std::FILE* f = files::open_for_writing(o.report, &why);
    if (f == nullptr) detail::throw_error("--report-file=" + text::escape(o.report, text::max_echoed_value) + ": " + why);
    std::fclose(f);
  }
  std::string preload = library;
  if (const char* old = std::getenv("LD_PRELOAD"); old != nullptr && *old != '\0') preload += std::string(":") + old;
  setenv("LD_PRELOAD", preload.c_str(), 1);
  if (!o.schedule.empty()) setenv("AUTOSCHED_SCHEDULE", o.schedule.c_str(), 1);
  if (!o.loops.empty()) setenv("AUTOSCHED_OMP_LOOPS", o.loops.c_str(), 1);
  if (!o.pin.empty()) setenv("AUTOSCHED_PINNING", o.pin.c_str(), 1);
  if (o.report_flag) setenv("AUTOSCHED_OMP_REPORT", o.report.empty() ? "stderr" : o.report.c_str(), 1);
  std::vector<char*> argv;
  for (std::string& a : command) argv.push_back(a.data());
  argv.push_back(nullptr);
  execvp(argv[0], argv.data());
  const int error = errno;
  throw LaunchFailure("run: cannot start '" + command.front() + "': " + std::strerror(error), error);
}

}  // namespace

void add_run_command(CLI::App& app) {
  auto* run = app.add_subcommand("run", std::string(description("run")));
  auto options = std::make_shared<RunOptions>();
  run->add_option("--schedule", options->schedule,
                  "schedule of every taken loop (default: AUTOSCHED_SCHEDULE, OMP_SCHEDULE, else auto)");
  run->add_option("--loops", options->loops,
                  "runtime (schedule(runtime) loops, default), all (also dynamic, guided), static (also the static "
                  "and no-clause loops of clang-built programs, balanced by learned blocks) or a comma-separated "
                  "list (all,static)")
      ->check([](const std::string& value) -> std::string {
        std::string rest = value;
        while (true) {
          const auto comma = rest.find(',');
          const std::string word = rest.substr(0, comma);
          if (word != "runtime" && word != "all" && word != "static")
            return "'" + word + "' is not one of runtime, all, static";
          if (comma == std::string::npos) return {};
          rest = rest.substr(comma + 1);
        }
      });
  run->add_option("--pin", options->pin,
                  "pin the program's loop teams with a pinning policy: round-robin, learn, o2, autopin or off, "
                  "with options as in AUTOSCHED_PINNING (learn,eps=0.05,period=0.2)")
      ->check([](const std::string& value) -> std::string {
        try {
          (void)pinning::parse_options(value, "--pin");
          return {};
        } catch (const std::exception& e) {
          // CLI11 names the option; the value and the reason follow it.
          std::string why = e.what();
          if (const std::string named = "--pin=" + value + ": "; why.starts_with(named)) why.erase(0, named.size());
          return "'" + value + "': " + why;
        }
      });
  run->add_flag("--report", options->report_flag, "at exit, a table per loop on stderr");
  run->add_option("--report-file", options->report,
                  "the same tables in FILE, a section per process that ran OpenMP (%p: a file per process id, "
                  "%r: per MPI rank)")
      ->each([options](const std::string&) { options->report_flag = true; });
  run->prefix_command();
  run->formatter(std::make_shared<LaunchUsage>());
  run->allow_extras();
  run->footer("Example: autosched run --schedule auto --report -- ./solver input.dat");
  run->callback([run, options] {
    std::vector<std::string> command = program_after_separator();
    if (command.empty()) command = run->remaining();
    run_program(*options, std::move(command));
  });
}

}  // namespace autosched::cli
