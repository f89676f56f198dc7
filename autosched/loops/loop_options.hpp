#pragma once
/// @file
/// How a call to parallel_for wants to be run. Every field has a working
/// default; designated initialisers keep call sites short:
///   autosched::parallel_for(0, n, body, {.name = "mandel/L0", .schedule = "gss"});

#include <autosched/loops/schedule_choice.hpp>
#include <autosched/techniques/loop_memory.hpp>

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace autosched {

/// Which threads run the loop.
enum class Team : std::uint8_t {
  /// Join the enclosing OpenMP team when called inside a parallel region
  /// (every thread of the team must make the call, as with `omp for`);
  /// otherwise, or from inside another autosched loop body, open a team.
  automatic,
  /// Always work-share with the enclosing team.
  join,
  /// Always open a new team from the calling thread (nested when inside a
  /// region; use this from `single`, `master` or tasks).
  open,
};

/// What is timed. Per-thread start and finish are always measured.
enum class Timing : std::uint8_t {
  /// Chunks are timed only by techniques that learn from chunk times.
  threads,
  /// Every chunk is timed, so ThreadStats::busy_ns is filled (two clock
  /// reads per chunk, ~50 ns on the reference machine).
  chunks,
};

/// The text fields are views: what they show must live as long as the
/// options are used (a string literal, or a std::string kept alive, not a
/// temporary such as `"gss,chunk=" + n`).
struct LoopOptions {
  /// Identity of the loop: all per-loop learning and records are keyed by it.
  /// Empty: the call site ("file:line:column").
  std::string_view name{};
  /// Schedule text (docs/loops.md, "Schedules"), e.g. "gss,chunk=16" or "tss,chunk=expert",
  /// or a typed TechniqueSpec / Schedule (loops/schedule_choice.hpp).
  /// Empty: AUTOSCHED_SCHEDULE_FOR for this loop, else AUTOSCHED_SCHEDULE,
  /// else `auto` (online selection). A schedule given here wins over the environment.
  ScheduleChoice schedule{};
  /// Team size when a team is opened; 0 = OpenMP's (OMP_NUM_THREADS).
  int threads = 0;
  Team team = Team::automatic;
  /// When joining a team: threads leave without waiting for each other.
  bool nowait = false;
  Timing timing = Timing::threads;
  /// mu, sigma, h for fsc, fac, mfac, tap and bold when the schedule text does
  /// not give them (else the loop's own `profiling` output is used).
  std::optional<Profile> profile{};
  /// Initial per-thread weights for wf, awf, awf-b..e (used when size = team size).
  std::span<const double> weights{};
};

}  // namespace autosched
