// `autosched pin [--policy P] [--objective o1|o2] [--options K=V,…] [--trace F] [--seed N] -- ./app args…`
// `autosched pin --pid N …`
// Manages the threads of an unmodified program from outside: a pinning
// Manager in pid mode lists /proc/<pid>/task every period (so threads
// started late are picked up), measures each thread's CPU share from
// schedstat and moves it between the allowed cores (docs/pinning.md).
// With a program, the tool launches it, forwards SIGINT/SIGTERM to it and
// exits with its status (128+signal when a signal killed it); with --pid it
// watches a running process until that ends or SIGINT/SIGTERM arrives.
#include "cli_app.hpp"
#include "pin_picture.hpp"
#include "commands.hpp"
#include "subcommands.hpp"

#include <autosched/core/error.hpp>
#include <autosched/core/file_checks.hpp>
#include <autosched/pinning/manager.hpp>
#include <autosched/pinning/options.hpp>

#include <fcntl.h>
#include <sys/prctl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <filesystem>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace autosched::cli {

namespace {

namespace pin = autosched::pinning;

struct PinOptions {
  std::string policy = "learn";
  std::string objective;  // empty: as the policy says
  std::string options;    // key=value items
  std::string trace;
  std::string plot;  // a PNG: the core of each thread over time
  std::uint64_t seed = 0;
  bool seed_given = false;
  long pid = 0;
};

// The launched child (signals are forwarded to it) or, with --pid, 0; and
// whether SIGINT/SIGTERM arrived. Written by the handler, read by the loops.
volatile sig_atomic_t child_pid = 0;
volatile sig_atomic_t interrupted = 0;

extern "C" void on_signal(int sig) {
  interrupted = 1;
  if (child_pid > 0) kill(static_cast<pid_t>(child_pid), sig);
}

void install_handlers() {
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;  // no SA_RESTART: waitpid returns EINTR and the loop looks again
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

/// The Manager's options from the command line; throws autosched::Error
/// naming the offending option.
pin::ManagerOptions manager_options(const PinOptions& o, pid_t pid) {
  std::string policy = o.policy;
  if (!o.objective.empty()) {
    if (policy == "learn") {
      policy = o.objective;
    } else if (policy != o.objective) {
      detail::throw_error("pin: --objective=" + o.objective +
                          " applies to the learning policy (--policy learn), not to --policy=" + o.policy);
    }
  }
  std::string text = policy;
  if (!o.options.empty()) text += "," + o.options;
  pin::ManagerOptions m = pin::parse_options(text, "pin --policy/--options");
  if (o.seed_given) m.seed = o.seed;
  m.pid = pid;
  return m;
}

/// Whether process `pid` still runs (exists and is not a zombie).
bool alive(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return false;
  const auto paren = line.rfind(')');  // the command name may hold spaces and parentheses
  return paren != std::string::npos && paren + 2 < line.size() && line[paren + 2] != 'Z';
}

/// Forks and execs `command`, and records the child in child_pid; an exec
/// failure comes back through a close-on-exec pipe and is thrown here,
/// naming the program. SIGINT/SIGTERM stay blocked until child_pid is set:
/// the program may print and be signalled before the exec is confirmed, and
/// a signal taken in that window was lost (the program ran to its end).
pid_t launch(std::vector<std::string> command) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) detail::throw_error(std::string("pin: pipe: ") + std::strerror(errno));
  std::vector<char*> argv;
  for (std::string& a : command) argv.push_back(a.data());
  argv.push_back(nullptr);
  sigset_t forwarded, before;
  sigemptyset(&forwarded);
  sigaddset(&forwarded, SIGINT);
  sigaddset(&forwarded, SIGTERM);
  sigprocmask(SIG_BLOCK, &forwarded, &before);
  const pid_t parent = getpid();
  const pid_t child = fork();
  if (child < 0) {
    sigprocmask(SIG_SETMASK, &before, nullptr);
    detail::throw_error(std::string("pin: fork: ") + std::strerror(errno));
  }
  if (child == 0) {
    close(fds[0]);
    sigprocmask(SIG_SETMASK, &before, nullptr);  // the program gets its signals as usual
    // The program dies with `pin` (SIGTERM when pin is killed, even by
    // SIGKILL): without it, killing pin left the program running, unwatched.
    // The parent may have gone between fork and prctl: then go at once.
    if (prctl(PR_SET_PDEATHSIG, SIGTERM) != 0 || getppid() != parent) _exit(127);
    execvp(argv[0], argv.data());
    const int e = errno;
    (void)!write(fds[1], &e, sizeof e);
    _exit(127);
  }
  close(fds[1]);
  int e = 0;
  const ssize_t got = read(fds[0], &e, sizeof e);
  close(fds[0]);
  if (got != static_cast<ssize_t>(sizeof e)) child_pid = child;
  sigprocmask(SIG_SETMASK, &before, nullptr);  // a signal that came meanwhile is forwarded now
  if (got == static_cast<ssize_t>(sizeof e)) {
    waitpid(child, nullptr, 0);
    throw LaunchFailure("pin: cannot start '" + command.front() + "': " + std::strerror(e), e);
  }
  return child;
}

/// Waits for the launched child; its exit status, or 128+signal.
int wait_child(pid_t child) {
  int status = 0;
  while (waitpid(child, &status, 0) < 0) {
    if (errno != EINTR) return 1;
  }
  return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
}

/// The one-line summary: periods, distinct threads, and how often a
/// thread's core changed from one period to the next.
void print_summary(const pin::Manager& m, const std::string& target) {
  std::map<pid_t, int> last_core;
  long moves = 0;
  for (const pin::TraceRow& r : m.trace()) {
    auto [it, fresh] = last_core.try_emplace(r.tid, r.core);
    if (!fresh && it->second != r.core) {
      if (it->second >= 0 && r.core >= 0) ++moves;
      it->second = r.core;
    }
  }
  std::fprintf(stderr, "autosched pin: %s, policy %s: %llu periods, %zu threads seen, %ld moves\n", target.c_str(),
               pin::to_string(m.policy()), static_cast<unsigned long long>(m.periods()), last_core.size(), moves);
}

int run_pin(const PinOptions& o, std::vector<std::string> command) {
  if (!command.empty() && command.front() == "--") command.erase(command.begin());
  if (o.pid != 0 && !command.empty()) detail::throw_error("pin: give either --pid or a program after --, not both");
  if (o.pid == 0 && command.empty())
    detail::throw_error("pin: name the program to manage (autosched pin -- ./app args) or a running one (--pid N)");
  if (o.pid != 0 && (o.pid < 0 || !alive(static_cast<pid_t>(o.pid))))
    detail::throw_error("pin: --pid=" + std::to_string(o.pid) + ": no such running process");
  (void)manager_options(o, 0);  // a clear error before anything starts
  if (!o.trace.empty()) {
    // Checked before anything starts; a FIFO there blocked this open until a reader came.
    if (const std::string kind = files::special_kind(o.trace); !kind.empty()) {
      detail::throw_error("pin: --trace=" + o.trace + ": it is " + kind + ", not a regular file");
    }
    std::ofstream probe(o.trace, std::ios::app);
    if (!probe) detail::throw_error("pin: --trace=" + o.trace + ": cannot write this file");
  }

  if (!o.plot.empty()) {
    const std::filesystem::path dir = std::filesystem::path(o.plot).parent_path();
    if (const std::string why = files::existing_problem(dir.empty() ? "." : dir.string(), true); !why.empty())
      detail::throw_error("pin: --plot=" + o.plot + ": its directory: " + why);
  }

  install_handlers();
  pid_t target = static_cast<pid_t>(o.pid);
  if (target == 0) {
    target = launch(command);
  }
  pin::Manager manager(manager_options(o, target));
  manager.start();
  int rc = 0;
  if (o.pid == 0) {
    rc = wait_child(target);
  } else {
    while (!interrupted && alive(target)) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  manager.stop();
  child_pid = 0;
  if (!o.trace.empty()) {
    std::ofstream out(o.trace);
    manager.write_trace_csv(out);
    out.close();  // a full disk shows only when the buffer goes out
    if (out.fail()) {
      std::fprintf(stderr, "autosched pin: --trace=%s: cannot write this file\n", o.trace.c_str());
      if (rc == 0) rc = 1;
    }
  }
  if (!o.plot.empty()) {
    try {
      std::fprintf(stderr, "autosched pin: %s\n",
                   draw_pin_cores(o.plot, manager.trace(),
                                  std::string("autosched pin, policy ") + pin::to_string(manager.policy()) +
                                      ": the core of each thread over time")
                       .c_str());
    } catch (const std::exception& e) {
      std::fprintf(stderr, "autosched pin: --plot=%s: %s\n", o.plot.c_str(), e.what());
      if (rc == 0) rc = 1;
    }
  }
  print_summary(manager, o.pid == 0 ? "'" + command.front() + "' exited " + std::to_string(rc)
                                    : "pid " + std::to_string(o.pid) + (interrupted ? " (detached)" : " ended"));
  return rc;
}

}  // namespace

void add_pin_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("pin", std::string(description("pin")));
  auto o = std::make_shared<PinOptions>();
  cmd->add_option("--policy", o->policy, "learn (default), o1, o2, round-robin, autopin, off (measure only)")
      ->check(CLI::IsMember({"learn", "o1", "o2", "round-robin", "autopin", "off"}));
  cmd->add_option("--objective", o->objective, "with --policy learn: o1 (speed, default) or o2 (speed and balance)")
      ->check(CLI::IsMember({"o1", "o2"}));
  cmd->add_option("--options", o->options, "key=value items, e.g. eps=0.05,period=0.2 (docs/pinning.md)");
  cmd->add_option("--trace", o->trace, "write the manager's trace (one row per thread per period) to this CSV");
  cmd->add_option("--plot", o->plot, "draw the core of each thread over time into this PNG (with gnuplot; .dat and .gp beside it)");
  cmd->add_option("--seed", o->seed, "seed of the core draws")->check(seed_check())->each([o](const std::string&) { o->seed_given = true; });
  cmd->add_option("--pid", o->pid, "manage this running process until it ends (or SIGINT) instead of launching one");
  cmd->prefix_command();
  cmd->formatter(std::make_shared<LaunchUsage>("(-- PROGRAM [ARGS...] | --pid PID)"));
  cmd->allow_extras();
  cmd->footer("Example: autosched pin --policy learn --trace pin.csv -- ./solver input.dat");
  cmd->callback([cmd, o] {
    std::vector<std::string> command = program_after_separator();
    if (command.empty()) command = cmd->remaining();
    if (const int rc = run_pin(*o, std::move(command)); rc != 0) throw CLI::RuntimeError(rc);
  });
}

}  // namespace autosched::cli
