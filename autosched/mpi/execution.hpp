#pragma once
/// @file
/// One rank's part of one instance of an MPI loop, pull style (the shape of
/// DLS4LB's StartLoop / StartChunk / EndChunk / EndLoop, which the C API
/// maps onto line by line):
///
///   autosched::mpi::Execution ex(comm, 0, n, {.name = "pisolver/step"});  // collective
///   for (IndexRange r; !(r = ex.next()).empty(); )
///     for (std::int64_t i = r.begin; i < r.end; ++i) body(i);
///   LoopResult res = ex.finish();                                          // collective
///
/// Every index of [begin, end) is returned by next() on exactly one rank,
/// exactly once. next() also ends the timing of the range it returned last.
/// The coordinator (rank 0 of `comm`) holds the loop's selector: it decides
/// before the instance and learns from it in finish(); per instance that is
/// one broadcast and one reduction. If a rank's body fails, that rank calls
/// fail() instead of next(): the other ranks stop receiving work and
/// finish() throws autosched::Error on every rank, naming the failing rank
/// and its message (no hang, no partial result taken for a whole one).
///
/// Single-threaded per rank: next()/fail()/finish() are called by the thread
/// that constructed the Execution (a body may open its own thread-level
/// loops: the two levels decide separately).

#include <autosched/core/index_range.hpp>
#include <autosched/mpi/loop_options.hpp>

#include <mpi.h>

#include <cstdint>
#include <memory>
#include <string>

namespace autosched::mpi {

/// What finish() reports; the same on every rank except the own_ fields.
struct LoopResult {
  std::string technique;           ///< the technique that ran (e.g. "fac2", "profiling")
  Protocol protocol = Protocol::automatic;  ///< master_worker, rma or none (never automatic)
  double loop_seconds = 0;         ///< latest rank finish − earliest rank start (MPI_Wtime)
  std::int64_t iterations = 0;     ///< over all ranks (== end − begin)
  std::int64_t own_iterations = 0; ///< run by this rank
  std::int64_t own_chunks = 0;     ///< ranges next() returned on this rank
  double own_work_seconds = 0;     ///< this rank's time between next() and the following call
  double percent_imbalance = 0;    ///< (T_max / T_mean − 1) · 100 over the ranks' finishing times
  double selection_seconds = 0;    ///< the coordinator's selector time since the last instance (choose + observe; 0 elsewhere)
  /// Coordinator: a selector's trial ran past its budget and the rest of the
  /// loop ran on the selector's fallback arm (master-worker; false elsewhere).
  bool cut_short = false;
};

namespace detail {
class ExecutionState;
}

class Execution {
 public:
  /// Collective over `comm`: the coordinator decides the schedule and
  /// broadcasts it. Throws autosched::Error (on every rank) for end < begin
  /// by more than 2^62, for ranks that disagree on the bounds, or a bad schedule.
  Execution(MPI_Comm comm, std::int64_t begin, std::int64_t end, const LoopOptions& options = {});
  ~Execution();
  Execution(const Execution&) = delete;
  Execution& operator=(const Execution&) = delete;

  /// The next range for this rank to run (absolute indices); empty once this
  /// rank has nothing left. Blocks while work may still come.
  IndexRange next();
  /// This rank's body failed: stop taking work and let the others know. The
  /// message reaches every rank's finish().
  void fail(std::string message);
  /// Collective: completes the protocol, reduces the ranks' times, lets the
  /// coordinator learn. Throws autosched::Error on every rank when any rank
  /// called fail().
  LoopResult finish();

  [[nodiscard]] int rank() const noexcept;
  [[nodiscard]] int size() const noexcept;

 private:
  std::unique_ptr<detail::ExecutionState> state_;
};

}  // namespace autosched::mpi
