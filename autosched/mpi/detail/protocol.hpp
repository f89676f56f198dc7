#pragma once
/// @file
/// The messages of the MPI runtime (internal). Every message travels on the
/// runtime's own duplicate of the user's communicator, so these tags never
/// meet the application's.

#include <cstdint>

namespace autosched::mpi::detail {

/// Point-to-point tags of the master-worker protocol.
enum Tag : int {
  tag_work = 1,      ///< coordinator → worker: a chunk, int64 [begin, end)
  tag_end = 2,       ///< coordinator → worker: no more work (empty)
  tag_report = 3,    ///< worker → coordinator: WorkerReport
  tag_fail_ack = 4,  ///< coordinator → worker: the failure was registered (empty)
};

/// What a worker sends the coordinator. Times are ns since the worker's own
/// loop start (MPI_Wtime), so clocks of different hosts never mix.
struct WorkerReport {
  enum Kind : std::int64_t {
    request = 0,  ///< "give me my next chunk" (sent before the current one ends)
    done = 1,     ///< timed techniques: the last chunk's times; the worker has left
    failed = 2,   ///< the worker's body failed; it takes no more work
  };
  std::int64_t kind = request;
  /// The worker's last finished chunk, [begin, end) (empty: none yet) and its times.
  std::int64_t begin = 0, end = 0;
  std::int64_t ready_ns = 0;   ///< when the worker could have started it (asked, or finished the one before)
  std::int64_t started_ns = 0;
  std::int64_t finished_ns = 0;
};
inline constexpr int report_words = 6;
static_assert(sizeof(WorkerReport) == report_words * sizeof(std::int64_t));

}  // namespace autosched::mpi::detail
