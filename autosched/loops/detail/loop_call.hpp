#pragma once
/// @file
/// The boundary between the parallel_for templates (in the user's code) and
/// the runtime (compiled once, with OpenMP): the body is type-erased per
/// chunk, so the iteration loop inside a chunk is the user's inlined code and
/// a chunk costs one indirect call.

#include <autosched/loops/loop_options.hpp>
#include <autosched/measure/thread_stats.hpp>
#include <autosched/techniques/chunk_sequence.hpp>

#include <cstdint>
#include <autosched/core/source_location.hpp>

namespace autosched::detail {

/// Runs iterations [first, last) of the body behind `body`.
using ChunkRunner = void (*)(void* body, std::int64_t first, std::int64_t last);

/// Runs one worker's whole share of a deterministic-sequence loop (ss, gss,
/// tss, fac2, … — the ChunkSequence dispenser) with the body inlined into the
/// dispatch loop: no indirect call and no flag check per chunk (a failing
/// body cancels the sequence itself). Instantiated in the caller's
/// translation unit; counts chunks and iterations into `stats`.
using SequenceRunner = void (*)(void* body, ChunkSequence& sequence, std::int64_t base, ThreadStats& stats);

/// Adds a worker's counts to its stats when it leaves, also by exception.
struct CountsGuard {
  ThreadStats& stats;
  std::int64_t chunks = 0;
  std::int64_t iterations = 0;
  ~CountsGuard() {
    stats.chunks += chunks;
    stats.iterations += iterations;
  }
};

template <class ForChunk>
void run_sequence(ChunkSequence& sequence, ThreadStats& stats, ForChunk&& for_chunk) {
  CountsGuard counts{stats};
  ChunkSequence::Worker w;
  for (;;) {
    const IndexRange c = sequence.next(w);
    if (c.empty()) break;
    ++counts.chunks;
    counts.iterations += c.size();
    for_chunk(c);
  }
}

struct LoopCall {
  std::int64_t begin = 0;
  std::int64_t end = 0;
  ChunkRunner run = nullptr;
  SequenceRunner run_sequence = nullptr;
  void* body = nullptr;
  const LoopOptions* options = nullptr;
  SourceLocation where;
};

/// Runs the loop; rethrows the first exception a body threw.
void run_loop(const LoopCall& call);

}  // namespace autosched::detail
