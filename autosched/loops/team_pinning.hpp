#pragma once
/// @file
/// Pinning the loop runtime's OpenMP teams (AUTOSCHED_PINNING, docs/pinning.md
/// "The loop runtime's teams"). With the variable set to a policy other than
/// off, the first parallel loop of the process creates and starts one
/// pinning::Manager; every OpenMP thread registers with it the first time it
/// runs a share of a loop instance and reports the iterations it ran as
/// heartbeats when it finishes each share. Example:
///
///   $ AUTOSCHED_PINNING=round-robin ./app        # or learn,eps=0.05,period=0.2
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

/// The manager pinning the loop runtime's teams: null before the first
/// parallel loop, when AUTOSCHED_PINNING is unset, off, invalid, or kept
/// off by an OpenMP binding, and in a child forked after the start. Lives until the process ends (stopped, not
/// destroyed, at exit). Thread-safe.
[[nodiscard]] pinning::Manager* loop_pinning_manager() noexcept;

/// One line on what the loop runtime's teams do with AUTOSCHED_PINNING: the
/// value in effect and the manager's state (registered team threads, periods
/// run). Before the first parallel loop it says what that loop will do,
/// without starting anything (what `autosched info` prints).
[[nodiscard]] std::string loop_pinning_status();

namespace detail {

/// Reads AUTOSCHED_PINNING and starts the manager at the first call (from the
/// first parallel loop; thread-safe, once per process); returns
/// loop_pinning_manager(). Never throws: a problem becomes one warning.
[[nodiscard]] pinning::Manager* start_team_pinning() noexcept;

/// A team thread finished its share of an instance, having run `iterations`
/// iterations: registers the thread with `manager` the first time (once per
/// thread: OpenMP reuses its threads) and counts the iterations as heartbeats.
void team_thread_done(pinning::Manager& manager, std::int64_t iterations) noexcept;

}  // namespace detail
}  // namespace autosched
