#pragma once
/// @file
/// What the pinning manager does and with which parameters: code first
/// (ManagerOptions), environment second (AUTOSCHED_PINNING), e.g.
///   AUTOSCHED_PINNING=learn,eps=0.05,lambda=0.02,period=0.1
///   AUTOSCHED_PINNING=o2,gamma=0.04
///   AUTOSCHED_PINNING=learn,play=stable
///   AUTOSCHED_PINNING=autopin,window=2,phase=0.8
/// Policies: learn (= o1), o1, o2, round-robin, autopin, off.

#include <autosched/pinning/strategy.hpp>

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace autosched::pinning {

enum class Policy {
  learn_o1,     ///< learning automaton, utility = speed
  learn_o2,     ///< learning automaton, utility = speed - gamma (speed - mean)^2
  round_robin,  ///< thread i on allowed core i mod m, applied when the thread set changes
  autopin,      ///< try candidate placements for a window each, keep the best (Klug et al.)
  off,          ///< measure and trace only; never set an affinity
};

/// "learn-o1", "learn-o2", "round-robin", "autopin", "off".
[[nodiscard]] const char* to_string(Policy p) noexcept;

struct ManagerOptions {
  Policy policy = Policy::learn_o1;
  Parameters parameters;
  std::uint64_t seed = 1;  ///< of the exploration and core sampling
  /// Cores the manager may use (CPU numbers). Empty: the process's mask
  /// (sched_getaffinity). Every listed core must be inside that mask.
  std::vector<int> cores;
  /// Besides registered threads, manage every thread of this process (0:
  /// none; getpid(): our own threads, the manager's excepted). New tids are
  /// picked up every period.
  pid_t pid = 0;
  /// Pin the manager thread itself to the first allowed core, so that it
  /// does not wander onto the cores it is judging. Ignored with one core.
  bool pin_self = true;
  /// Manage threads even though OMP_PROC_BIND / OMP_PLACES asked the OpenMP
  /// runtime to bind them (default: stay off and say why).
  bool force = false;
  /// Speeds are divided by this before utilities are computed; 0: by the
  /// mean speed of the first period measured (per speed source), so that
  /// gamma means the same for heartbeats/s and CPU shares.
  double norm = 0.0;
  /// autopin: seconds each candidate placement is measured, and the factor
  /// below which the mean speed of the kept placement restarts the search.
  double autopin_window = 1.0;
  double autopin_phase = 0.8;
  /// At most this many trace rows are kept (one per thread per period).
  std::size_t trace_limit = 1u << 20;

  /// Throws autosched::Error naming the first bad value and what is accepted.
  void validate() const;
};

/// Parses a setting such as "learn,eps=0.05,period=0.2". `source` names it in
/// messages (the variable, or "pinning options"). Keys: eps, lambda, nu,
/// gamma, h, period, start (round-robin|uniform), play (sample|stable), seed, norm, window, phase,
/// force (yes|no), pin-self (yes|no). Throws autosched::Error naming the input
/// and the accepted values.
[[nodiscard]] ManagerOptions parse_options(std::string_view text, std::string_view source = "pinning options");

/// The options of AUTOSCHED_PINNING when set (parsed as above), else nullopt.
[[nodiscard]] std::optional<ManagerOptions> options_from_environment();

}  // namespace autosched::pinning
