// What the pattern programs (autosched-pattern-*) share: their command-line
// parsing, the scoped timer behind loop_ms, the machine-readable last line
// and a seeded hash for their random numbers. Plain C++ and OpenMP, as a
// user would write it: no autosched header or library, so that the drop-in
// meets these programs as it would a user's code.
#pragma once

#include <omp.h>

#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace pattern {

// Prints the usage, "usage: <program> <usage>" and then the options, one
// line each: to stdout when asked for it (status 0), else to stderr. Exits.
[[noreturn]] inline void usage_exit(const char* program, const char* usage, const std::string& options, int status) {
  std::fprintf(status == 0 ? stdout : stderr, "usage: %s %s\n%s", program, usage, options.c_str());
  std::exit(status);
}

// Parses the command line: `option(argument, number)` takes one argument and
// returns whether it knew it, calling `number(lo, hi)` for the integer that
// follows it. -h and --help print the usage and exit 0; an unknown argument,
// a missing value or one outside [lo, hi] says so on stderr and exits 2.
template <class Option>
void parse_arguments(int argc, char** argv, const char* usage, const std::string& options, Option option) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto number = [&](long lo, long hi) {
      if (i + 1 >= argc) usage_exit(argv[0], usage, options, 2);
      char* end = nullptr;
      const long v = std::strtol(argv[++i], &end, 10);
      if (*end != '\0' || v < lo || v > hi) {
        std::fprintf(stderr, "%s: %s wants an integer in [%ld, %ld], not '%s'\n", argv[0], a.c_str(), lo, hi, argv[i]);
        std::exit(2);
      }
      return static_cast<int>(v);
    };
    if (a == "-h" || a == "--help") usage_exit(argv[0], usage, options, 0);
    if (!option(a, number)) {
      std::fprintf(stderr, "%s: unknown argument '%s'\n", argv[0], a.c_str());
      usage_exit(argv[0], usage, options, 2);
    }
  }
}

// Adds the time of the scope it lives in to a total.
class Timed {
 public:
  explicit Timed(double& total) : total_(total), start_(omp_get_wtime()) {}
  ~Timed() { total_ += omp_get_wtime() - start_; }
  Timed(const Timed&) = delete;
  Timed& operator=(const Timed&) = delete;

 private:
  double& total_;
  double start_;
};

// Says why the check failed, on stderr: "<name>: check FAILED: <why>".
[[gnu::format(printf, 2, 3)]] inline void check_failed(const char* name, const char* why, ...) {
  std::fprintf(stderr, "%s: check FAILED: ", name);
  va_list args;
  va_start(args, why);
  std::vfprintf(stderr, why, args);
  va_end(args);
  std::fputc('\n', stderr);
}

// The last line, which bench/patterns/run.sh parses: `pattern <name> loop_ms
// <ms> wall_ms <ms> check ok` (or `check FAILED`). Returns main's status.
inline int report(const char* name, double loop_ms, double wall_ms, bool ok) {
  std::printf("pattern %s loop_ms %.3f wall_ms %.3f check %s\n", name, loop_ms, wall_ms, ok ? "ok" : "FAILED");
  return ok ? 0 : 1;
}

// splitmix64's mixing step: a seeded, reproducible hash of z. Counter-based
// random numbers built on it depend only on their key, never on which thread
// draws them or in what order.
inline std::uint64_t mix(std::uint64_t z) {
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

}  // namespace pattern
