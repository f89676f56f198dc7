#pragma once
/// @file
/// autosched::mpi::distributed_for: a loop over distributed data. Rank r owns
/// the block [lo_r, hi_r) of the global range and the data of those
/// iterations; it runs its block in chunks of a local technique, and once its
/// pool is empty it steals floor(StealRatio × remaining) iterations from the
/// tail of a random victim's pool, the data of those iterations travelling
/// through the caller's callbacks (docs/mpi.md, DLS4LB, the LB4MPI thesis).
///
///   mpi::DistributedOptions o{.name = "heat/step"};
///   o.data.pack   = [&](IndexRange r) { return bytes_of(x, r); };        // victim
///   o.data.unpack = [&](IndexRange r, std::span<const std::byte> b) { store(x, r, b); };  // thief
///   mpi::distributed_for(MPI_COMM_WORLD, 0, n, [&](std::int64_t i) { y[i] = f(x[i]); }, o);
///
/// Collective over `comm`. Every index of [begin, end) runs exactly once on
/// some rank. Termination is exact: each rank reports the iterations it ran
/// to the coordinator (rank 0) whenever its pool runs dry, and the
/// coordinator ends the instance when the reports add up to end − begin.
/// If a body or a callback throws on any rank, every rank throws
/// autosched::Error naming the failing rank and its message.

#include <autosched/core/index_range.hpp>
#include <autosched/mpi/detail/run_ranges.hpp>
#include <autosched/mpi/parallel_for.hpp>
#include <autosched/mpi/steal_ratio.hpp>

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace autosched::mpi {

/// How the data of stolen iterations moves. Every callback is optional: with
/// none, only the iterations move (replicated data, or a body that fetches
/// its own). Ranges are absolute indices. A rank may be asked to pack any
/// range it currently holds: part of its own block, or of a range it stole.
struct DataMovement {
  /// Victim: the input data of the iterations `r` it gives away.
  std::function<std::vector<std::byte>(IndexRange r)> pack;
  /// Thief: stores the data of the iterations `r` it received, before running them.
  std::function<void(IndexRange r, std::span<const std::byte> bytes)> unpack;
  /// Thief, after running the part `r` of a stolen range: the results to send
  /// to the range's home (the rank whose block holds `r`). Sent before the
  /// thief reports `r` as run, and received before the instance ends.
  std::function<std::vector<std::byte>(IndexRange r)> pack_results;
  /// Home rank: stores the results of its iterations `r` run elsewhere.
  std::function<void(IndexRange r, std::span<const std::byte> bytes)> unpack_results;
};

struct DistributedOptions {
  /// The loop's identity (the steal-ratio selector's key); empty: "mpi-distributed".
  std::string_view name{};
  /// The local technique (the grammar of docs/loops.md, "Schedules": `fac2`, `gss,chunk=16`),
  /// run over each pool this rank holds as if by one worker; empty: "fac2".
  /// Only the coordinator's counts. Selection (`auto…`) is not supported here.
  std::string_view schedule{};
  StealRatio steal_ratio = StealRatio::half;
  /// A victim gives nothing (a NACK) when floor(ratio × remaining) < this (≥ 1).
  std::int64_t min_steal = 1;
  /// Steal requests are answered between pieces of at most this many
  /// iterations; 0: max(1, ⌈pool / 64⌉) for each new pool.
  std::int64_t poll_every = 0;
  /// Block boundaries, P + 1 of them: rank r owns [blocks[r], blocks[r+1]);
  /// blocks[0] = begin, blocks[P] = end, non-decreasing. Empty: balanced
  /// blocks. The same on every rank (checked against the coordinator's).
  std::span<const std::int64_t> blocks{};
  DataMovement data{};
  std::uint64_t seed = 0;  ///< the thieves' victim draws
};

/// What finish() reports; the same on every rank except the own_ fields.
struct DistributedResult {
  std::string technique;           ///< the local technique that ran
  StealRatio steal_ratio = StealRatio::half;  ///< the ratio that ran (never automatic)
  double loop_seconds = 0;         ///< latest rank end − its start (MPI_Wtime)
  std::int64_t iterations = 0;     ///< over all ranks (== end − begin)
  std::int64_t steals = 0;         ///< successful steals over all ranks
  std::int64_t stolen_iterations = 0;  ///< iterations that moved, over all ranks
  IndexRange own_block;            ///< this rank's block
  std::int64_t own_iterations = 0; ///< run by this rank
  std::int64_t own_steals = 0;     ///< ranges this rank received
  std::int64_t own_given = 0;      ///< iterations this rank handed to thieves
  std::int64_t own_requests = 0;   ///< steal requests this rank sent
  double percent_imbalance = 0;    ///< over the ranks' last-work times
  double selection_seconds = 0;    ///< the coordinator's choose + observe (0 elsewhere)
};

namespace detail {
class DistributedState;
}

/// One rank's part of one distributed instance, pull style (the shape of
/// Execution): next() until empty, then finish(). next() answers steal
/// requests and steals; the ranges it returns are this rank's to run.
class DistributedExecution {
 public:
  /// Collective: the coordinator checks the blocks and the technique, picks
  /// the steal ratio and broadcasts all of it.
  DistributedExecution(MPI_Comm comm, std::int64_t begin, std::int64_t end, const DistributedOptions& options = {});
  ~DistributedExecution();
  DistributedExecution(const DistributedExecution&) = delete;
  DistributedExecution& operator=(const DistributedExecution&) = delete;

  /// The next range to run (absolute); empty once the loop has ended. The
  /// previous range counts as run.
  IndexRange next();
  /// This rank's body failed: the loop ends everywhere; finish() throws.
  void fail(std::string message);
  /// Collective: completes the protocol (results in flight included),
  /// reduces the counts and times. Throws autosched::Error on every rank
  /// when any rank failed.
  DistributedResult finish();

 private:
  std::unique_ptr<detail::DistributedState> state_;
};

/// `body(first, last)` for each range [first, last) this rank runs.
template <class ChunkBody>
DistributedResult distributed_for_chunks(MPI_Comm comm, std::int64_t begin, std::int64_t end, ChunkBody&& body,
                                         const DistributedOptions& options = {}) {
  DistributedExecution ex(comm, begin, end, options);
  return detail::run_ranges(ex, body);
}

/// `body(i)` for each index this rank runs.
template <class Body>
DistributedResult distributed_for(MPI_Comm comm, std::int64_t begin, std::int64_t end, Body&& body,
                                  const DistributedOptions& options = {}) {
  auto ranges = detail::each_index(body);
  return distributed_for_chunks(comm, begin, end, ranges, options);
}

}  // namespace autosched::mpi
