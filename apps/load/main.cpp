// autosched-load: exogenous CPU load for the thread-pinning experiments
// (issue 16, docs/pinning-bench.md). Forks busy processes, each pinned to
// one chosen core with sched_setaffinity, from --delay seconds after start
// for --duration seconds (0: until SIGTERM/SIGINT/SIGHUP), constant, switched
// on and off (varying) or hopping between the chosen cores (moving) every
// --period seconds. Says what it does on stderr.
//
// No busy process outlives it: at the end or on a signal it SIGKILLs and
// reaps every child, and each child asks the kernel to SIGKILL it when its
// parent dies (PR_SET_PDEATHSIG), which covers a SIGKILLed parent too. It
// kills its children by pid, never by process group: under ctest or a
// harness the group is not its own.
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

constexpr const char* program = "autosched-load";

using Clock = std::chrono::steady_clock;
Clock::time_point start_time;

double now_s() { return std::chrono::duration<double>(Clock::now() - start_time).count(); }

[[noreturn]] void usage_error(const std::string& message) {
  std::fprintf(stderr, "%s: %s (--help lists the options)\n", program, message.c_str());
  std::exit(2);
}

void say(const char* format, ...) __attribute__((format(printf, 1, 2)));
void say(const char* format, ...) {
  std::fprintf(stderr, "%s: t=%.3f s: ", program, now_s());
  va_list args;
  va_start(args, format);
  std::vfprintf(stderr, format, args);
  va_end(args);
  std::fputc('\n', stderr);
}

std::string format_cores(const std::vector<int>& cores) {
  std::string s;
  for (std::size_t i = 0; i < cores.size(); ++i) {
    if (i != 0) s += ',';
    s += std::to_string(cores[i]);
  }
  return s;
}

std::vector<int> allowed_cores() {
  cpu_set_t set;
  CPU_ZERO(&set);
  std::vector<int> cores;
  if (sched_getaffinity(0, sizeof set, &set) != 0) return cores;
  for (int c = 0; c < CPU_SETSIZE; ++c) {
    if (CPU_ISSET(c, &set)) cores.push_back(c);
  }
  return cores;
}

/// "1", "0,1", "0-3,6": every core must be in this process's CPU set.
std::vector<int> parse_cores(const std::string& text, const std::vector<int>& allowed) {
  std::vector<int> cores;
  const std::string accepted =
      "expected core numbers like 1, 0,1 or 0-3 among the allowed cores " + format_cores(allowed);
  std::size_t pos = 0;
  while (pos <= text.size()) {
    const std::size_t comma = std::min(text.find(',', pos), text.size());
    const std::string item = text.substr(pos, comma - pos);
    const std::size_t dash = item.find('-');
    auto number = [&](const std::string& s) {
      char* end = nullptr;
      errno = 0;
      const long v = std::strtol(s.c_str(), &end, 10);
      if (s.empty() || *end != '\0' || errno != 0 || v < 0 || v >= CPU_SETSIZE) {
        usage_error("--cores=" + text + ": '" + s + "' is not a core number; " + accepted);
      }
      return static_cast<int>(v);
    };
    const int lo = number(dash == std::string::npos ? item : item.substr(0, dash));
    const int hi = dash == std::string::npos ? lo : number(item.substr(dash + 1));
    if (hi < lo) usage_error("--cores=" + text + ": empty range '" + item + "'; " + accepted);
    for (int c = lo; c <= hi; ++c) {
      bool ok = false;
      for (const int a : allowed) ok = ok || a == c;
      if (!ok) {
        usage_error("--cores=" + text + ": core " + std::to_string(c) + " is not in this process's CPU set; " +
                    accepted);
      }
      cores.push_back(c);
    }
    pos = comma + 1;
  }
  return cores;
}

double parse_seconds(const std::string& option, const std::string& text, bool positive) {
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || errno != 0 || !std::isfinite(v) || v < 0 || (positive && v == 0)) {
    usage_error("--" + option + "=" + text + ": expected " +
                (positive ? "a number of seconds > 0" : "a number of seconds >= 0"));
  }
  return v;
}

// Not strsignal: its text follows the locale, and tests match ours.
const char* signal_name(int sig) {
  switch (sig) {
    case SIGTERM:
      return "SIGTERM";
    case SIGINT:
      return "SIGINT";
    case SIGHUP:
      return "SIGHUP";
    default:
      return "a signal";
  }
}

bool pin(pid_t pid, int core) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(core, &set);
  return sched_setaffinity(pid, sizeof set, &set) == 0;
}

[[noreturn]] void spin(pid_t parent, int core) {
  // Die with the parent, even a SIGKILLed one; it may already be gone.
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != parent) _exit(0);
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, nullptr);
  // Hold no descriptor of the caller's: a harness reading our stderr until
  // EOF must see it when the parent is gone, not when the last child is.
  const int null = open("/dev/null", O_RDWR);
  if (null >= 0) {
    for (const int fd : {0, 1, 2}) dup2(null, fd);
    if (null > 2) close(null);
  }
  if (!pin(0, core)) _exit(3);
  volatile double x = 1.0;
  for (;;) x = x * 1.000000001 + 1e-9;
}

void print_help() {
  std::printf(
      "%s: busy processes pinned to chosen cores (exogenous load for pinning experiments)\n\n"
      "usage: %s [options]\n"
      "  --cores LIST      cores to load, e.g. 1, 0,1 or 0-3 (default: the last allowed core)\n"
      "  --processes K     busy processes, process i on core LIST[i mod |LIST|] (default: |LIST|)\n"
      "  --delay S         seconds before the load starts (default 0)\n"
      "  --duration S      seconds of load, 0 = until SIGTERM/SIGINT/SIGHUP (default 0)\n"
      "  --pattern P       constant|varying|moving (default constant): varying switches the load\n"
      "                    off and on every period; moving shifts process i to the next core of\n"
      "                    LIST every period\n"
      "  --period S        seconds between switches of varying/moving (default 2)\n",
      program, program);
}

}  // namespace

int main(int argc, char** argv) {
  start_time = Clock::now();
  const std::vector<int> allowed = allowed_cores();
  if (allowed.empty()) {
    std::fprintf(stderr, "%s: sched_getaffinity failed: %s\n", program, std::strerror(errno));
    return 1;
  }
  std::vector<int> cores = {allowed.back()};
  long processes = -1;
  double delay = 0, duration = 0, period = 2;
  std::string pattern = "constant";
  for (int i = 1; i < argc; ++i) {
    std::string option = argv[i], value;
    if (option == "--help" || option == "-h") {
      print_help();
      return 0;
    }
    if (option.rfind("--", 0) != 0) usage_error("unexpected argument '" + option + "'");
    option = option.substr(2);
    if (const std::size_t eq = option.find('='); eq != std::string::npos) {
      value = option.substr(eq + 1);
      option.resize(eq);
    } else if (i + 1 < argc) {
      value = argv[++i];
    } else {
      usage_error("--" + option + " needs a value");
    }
    if (option == "cores") {
      cores = parse_cores(value, allowed);
    } else if (option == "processes") {
      char* end = nullptr;
      processes = std::strtol(value.c_str(), &end, 10);
      if (value.empty() || *end != '\0' || processes < 1 || processes > 4096) {
        usage_error("--processes=" + value + ": expected an integer in [1,4096]");
      }
    } else if (option == "delay") {
      delay = parse_seconds(option, value, false);
    } else if (option == "duration") {
      duration = parse_seconds(option, value, false);
    } else if (option == "period") {
      period = parse_seconds(option, value, true);
    } else if (option == "pattern") {
      if (value != "constant" && value != "varying" && value != "moving") {
        usage_error("--pattern=" + value + ": expected constant|varying|moving");
      }
      pattern = value;
    } else {
      usage_error("unknown option --" + option +
                  "; accepted: --cores --processes --delay --duration --pattern --period --help");
    }
  }
  if (processes < 0) processes = static_cast<long>(cores.size());

  // Signals are taken synchronously (sigtimedwait): nothing runs in a handler.
  sigset_t watched;
  sigemptyset(&watched);
  for (const int s : {SIGTERM, SIGINT, SIGHUP, SIGCHLD}) sigaddset(&watched, s);
  sigprocmask(SIG_BLOCK, &watched, nullptr);

  char how_long[64] = "until stopped";
  if (duration > 0) std::snprintf(how_long, sizeof how_long, "for %.3f s", duration);
  std::fprintf(stderr, "%s: pid %d: %ld busy process(es) on core(s) %s, from t=%.3f s %s, pattern %s", program,
               static_cast<int>(getpid()), processes, format_cores(cores).c_str(), delay, how_long, pattern.c_str());
  if (pattern != "constant") std::fprintf(stderr, ", period %.3f s", period);
  std::fprintf(stderr, "\n");

  // Waits until `deadline` (seconds since start; < 0: none) or a signal;
  // returns the signal, 0 at the deadline.
  auto wait_until = [&](double deadline) -> int {
    for (;;) {
      const double left = deadline < 0 ? 3600.0 : deadline - now_s();
      if (left <= 0) return 0;
      timespec ts{};
      ts.tv_sec = static_cast<time_t>(left);
      ts.tv_nsec = static_cast<long>((left - static_cast<double>(ts.tv_sec)) * 1e9);
      const int sig = sigtimedwait(&watched, nullptr, &ts);
      if (sig > 0) return sig;
      if (errno != EAGAIN && errno != EINTR) return SIGTERM;  // cannot wait: stop rather than spin
    }
  };

  struct Child {
    pid_t pid;
    int core;
    bool alive;
  };
  std::vector<Child> children;
  auto stop_all = [&](const char* why) {
    int stopped = 0;
    for (Child& c : children) {
      if (!c.alive) continue;
      kill(c.pid, SIGKILL);  // works on a SIGSTOPped child too
      waitpid(c.pid, nullptr, 0);
      c.alive = false;
      ++stopped;
    }
    say("stopped %d busy process(es) (%s)", stopped, why);
  };
  auto reap = [&]() {
    int status = 0;
    pid_t pid;
    while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
      for (Child& c : children) {
        if (c.pid == pid && c.alive) {
          c.alive = false;
          say("pid %d on core %d ended on its own (status %d)", static_cast<int>(pid), c.core, status);
        }
      }
    }
  };

  int sig = wait_until(delay);
  while (sig == SIGCHLD) sig = wait_until(delay);
  if (sig != 0) {
    say("%s before the load started: nothing to stop", signal_name(sig));
    return 0;
  }

  const pid_t self = getpid();
  for (long i = 0; i < processes; ++i) {
    const int core = cores[static_cast<std::size_t>(i) % cores.size()];
    std::fflush(stderr);
    const pid_t pid = fork();
    if (pid < 0) {
      say("fork failed: %s", std::strerror(errno));
      stop_all("fork failed");
      return 1;
    }
    if (pid == 0) spin(self, core);
    children.push_back({pid, core, true});
    say("started pid %d on core %d", static_cast<int>(pid), core);
  }

  const double load_start = now_s();
  const double end = duration > 0 ? load_start + duration : -1;
  bool on = true;
  long step = 0;
  double next_switch = pattern == "constant" ? -1 : load_start + period;
  for (;;) {
    double deadline = end;
    if (next_switch >= 0 && (deadline < 0 || next_switch < deadline)) deadline = next_switch;
    sig = wait_until(deadline);
    if (sig == SIGCHLD) {
      reap();
      continue;
    }
    if (sig != 0) {
      stop_all(signal_name(sig));
      return 0;
    }
    // Every switch that fell due, even when this process woke up late: a
    // switch scheduled before the end happens before the end.
    while (next_switch >= 0 && next_switch <= now_s() && (end < 0 || next_switch < end)) {
      ++step;
      next_switch += period;
      if (pattern == "varying") {
        on = !on;
        for (const Child& c : children) {
          if (c.alive) kill(c.pid, on ? SIGCONT : SIGSTOP);
        }
        say("load %s", on ? "on" : "off");
      } else {
        for (std::size_t i = 0; i < children.size(); ++i) {
          Child& c = children[i];
          if (!c.alive) continue;
          c.core = cores[(i + static_cast<std::size_t>(step)) % cores.size()];
          pin(c.pid, c.core);
          say("pid %d moved to core %d", static_cast<int>(c.pid), c.core);
        }
      }
    }
    if (end >= 0 && now_s() >= end) break;
  }
  stop_all("duration over");
  return 0;
}
