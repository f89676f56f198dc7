#pragma once
/// @file
/// How one MPI loop is identified and scheduled: the options of
/// autosched::mpi::parallel_for and of an Execution.

#include <cstdint>
#include <string_view>

namespace autosched::mpi {

/// How the ranks obtain their chunks (docs/mpi.md).
enum class Protocol {
  /// rma where the technique allows it (deterministic chunk sequences and
  /// static: every rank can compute chunk k itself), master_worker for the
  /// techniques that learn from chunk times or keep shared per-worker state.
  automatic,
  /// The coordinator (rank 0) hands out every chunk and also computes; a
  /// worker asks for its next chunk before it finishes the current one.
  master_worker,
  /// No master: each rank takes chunk k = fetch_and_op(+1) on a counter in an
  /// MPI-3 window on rank 0 and computes chunk k's bounds itself (distributed
  /// chunk calculation). Techniques that need a master run master_worker.
  rma,
  /// Reported for static: every rank computes its own chunks and no message
  /// is exchanged. As an option it means `automatic`.
  none,
};

/// Text of a protocol: "auto", "master-worker", "rma", "none".
std::string_view protocol_name(Protocol p) noexcept;

/// `name` and `schedule` are views: the text they show must live as long as
/// the options are used (a string literal, or a std::string kept alive, not a
/// temporary such as `"auto," + portfolio`).
struct LoopOptions {
  /// The loop's identity for selection and the store; the same on every rank.
  /// Empty: "mpi-loop".
  std::string_view name{};
  /// Schedule text (docs/loops.md, "Schedules": a technique such as `fac2` or
  /// `gss,chunk=16`, or `auto[:selector]…`). Empty: AUTOSCHED_SCHEDULE_FOR /
  /// AUTOSCHED_SCHEDULE on the coordinator, else `auto`. Only the
  /// coordinator's value counts: it broadcasts the decision.
  std::string_view schedule{};
  Protocol protocol = Protocol::automatic;
  /// Master-worker: a worker sends its next request when this many iterations
  /// of its current chunk remain (DLS4LB's requestWhen). 0: 15% of the chunk, at least 1.
  std::int64_t request_when = 0;
  /// Master-worker: the coordinator runs its own chunks in pieces of this
  /// many iterations and serves requests between pieces (DLS4LB's
  /// breakAfter). 0: max(1, ⌈chunk / P⌉ / 4).
  std::int64_t break_after = 0;
};

}  // namespace autosched::mpi
