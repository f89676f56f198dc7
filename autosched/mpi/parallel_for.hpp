#pragma once
/// @file
/// autosched::mpi::parallel_for: a loop over replicated data whose iterations
/// are self-scheduled across the ranks of a communicator.
///
///   autosched::mpi::parallel_for(MPI_COMM_WORLD, 0, n, [&](std::int64_t i) { partial += f(i); },
///                                {.name = "pi/step"});
///   autosched::mpi::parallel_for_chunks(comm, 0, n, [&](std::int64_t first, std::int64_t last) { … });
///
/// Collective over `comm`: every rank calls it with the same bounds. Every
/// index of [begin, end) runs exactly once on some rank (results are the
/// caller's to combine, e.g. with MPI_Reduce). If a body throws on any rank,
/// that rank stops, the others stop receiving work, and every rank throws
/// autosched::Error naming the failing rank and its message.
/// The body may open thread-level loops (autosched::parallel_for): each level
/// has its own decision point.

#include <autosched/core/error.hpp>
#include <autosched/mpi/detail/run_ranges.hpp>
#include <autosched/mpi/execution.hpp>

#include <cstdint>

namespace autosched::mpi {

/// `body(first, last)` for each range [first, last) this rank receives.
template <class ChunkBody>
LoopResult parallel_for_chunks(MPI_Comm comm, std::int64_t begin, std::int64_t end, ChunkBody&& body,
                               const LoopOptions& options = {}) {
  Execution ex(comm, begin, end, options);
  return detail::run_ranges(ex, body);
}

/// `body(i)` for each index this rank receives.
template <class Body>
LoopResult parallel_for(MPI_Comm comm, std::int64_t begin, std::int64_t end, Body&& body,
                        const LoopOptions& options = {}) {
  auto ranges = detail::each_index(body);
  return parallel_for_chunks(comm, begin, end, ranges, options);
}

}  // namespace autosched::mpi
