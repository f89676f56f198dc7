#pragma once
/// @file
/// Thin, exception-free wrappers over Linux CPU affinity and /proc thread
/// listing. Threads end at any moment, so a thread that vanished between two
/// calls is an ordinary outcome (an errno value, an empty result), never an
/// exception.

#include <sys/types.h>

#include <optional>
#include <span>
#include <string>
#include <vector>

namespace autosched::pinning {

/// The CPUs this process may run on (sched_getaffinity of the calling
/// thread), ascending. This is the mask MPI launchers, Slurm and taskset
/// impose; the manager never places a thread outside it. Empty only if the
/// call fails.
[[nodiscard]] std::vector<int> allowed_cores();

/// The calling thread's kernel thread id.
[[nodiscard]] pid_t current_tid() noexcept;

/// Restricts thread `tid` (of this or another process) to `cores`.
/// Returns 0 or the errno: ESRCH when the thread has ended, EINVAL when no
/// core of the set is allowed, EPERM for another user's thread.
[[nodiscard]] int set_thread_affinity(pid_t tid, std::span<const int> cores) noexcept;

/// set_thread_affinity(tid, {core}).
[[nodiscard]] int pin_thread(pid_t tid, int core) noexcept;

/// The CPUs thread `tid` may currently run on, ascending; nullopt when the
/// call fails (errno in `*error` when given: ESRCH for an ended thread).
[[nodiscard]] std::optional<std::vector<int>> thread_affinity(pid_t tid, int* error = nullptr);

/// The thread ids of process `pid` (0: this process) from /proc/<pid>/task,
/// ascending; empty when the process does not exist (any more).
[[nodiscard]] std::vector<pid_t> process_threads(pid_t pid);

/// Whether the OpenMP runtime was told to bind its threads: OMP_PROC_BIND set
/// to anything but "false" (or empty), or OMP_PLACES set. A manager that
/// re-pinned those threads would fight the runtime's own placement, so it
/// stays off unless forced.
struct OpenMpBinding {
  bool bound = false;
  std::string reason;  ///< "OMP_PROC_BIND=close", "OMP_PLACES=cores", or "" when not bound
};
[[nodiscard]] OpenMpBinding openmp_binding();

/// Whether pthread_setaffinity_np works here: re-applies the calling thread's
/// current mask (no change of placement). 0 or the error number; containers
/// and some sandboxes refuse with EPERM.
[[nodiscard]] int check_setaffinity() noexcept;

/// "0-3,6" style rendering of a core list, for messages and `autosched info`.
[[nodiscard]] std::string format_cores(std::span<const int> cores);

}  // namespace autosched::pinning
