#pragma once
/// @file
/// Pinning the teams of autosched's loops (AUTOSCHED_PINNING, docs/pinning.md
/// "The loop teams"): those of parallel_for and the C loops, and those of an
/// unmodified program under the OpenMP drop-in (`autosched run --pin`). With
/// the variable set to a policy other than off, the first parallel loop of
/// the process creates and starts one pinning::Manager and attaches it to the
/// loop driver as an observer; every thread registers with it the first time
/// it begins a share of a loop instance and reports the iterations it ran as
/// heartbeats when it finishes each share. Example:
///
///   $ AUTOSCHED_PINNING=round-robin ./app        # or learn,eps=0.05,period=0.2
///   $ autosched run --pin round-robin -- ./omp_app
///
///   if (autosched::pinning::Manager* pm = autosched::loop_pinning_manager())
///     for (const auto& t : pm->threads()) std::printf("%d on core %d\n", t.tid, t.core);
///
/// A bad value is warned about once (naming the variable and what it
/// accepts) and the loops run unpinned; nothing is ever thrown out of a loop
/// because of it. An OpenMP binding (OMP_PROC_BIND, OMP_PLACES) keeps the
/// manager off unless the setting says force=yes. The manager thread is
/// stopped at exit. A child forked after the start runs its loops unpinned.

#include <autosched/pinning/manager.hpp>

#include <cstdint>
#include <string>

namespace autosched {

/// The manager pinning the loop teams: null before the first
/// parallel loop, when AUTOSCHED_PINNING is unset, off, invalid, or kept
/// off by an OpenMP binding, and in a child forked after the start. Lives until the process ends (stopped, not
/// destroyed, at exit). Thread-safe.
[[nodiscard]] pinning::Manager* loop_pinning_manager() noexcept;

/// One line on what the loop teams do with AUTOSCHED_PINNING: the
/// value in effect and the manager's state (registered team threads, periods
/// run). Before the first parallel loop it says what that loop will do,
/// without starting anything (what `autosched info` prints).
[[nodiscard]] std::string loop_pinning_status();

namespace detail {

/// Reads AUTOSCHED_PINNING and, for a policy, starts the manager and
/// attaches its observer to the loop driver at the first call (from the
/// first parallel loop; thread-safe, once per process; later calls are one
/// atomic load); returns loop_pinning_manager(). Never throws: a problem
/// becomes one warning.
pinning::Manager* start_team_pinning() noexcept;

}  // namespace detail
}  // namespace autosched
