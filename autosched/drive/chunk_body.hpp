#pragma once
/// @file
/// A loop body as the driver runs it: type-erased per chunk, so that the
/// iteration loop inside a chunk is the user's inlined code and a chunk costs
/// one indirect call. Front-ends build one from their own body type (the
/// parallel_for templates, the C API, an outlined OpenMP function).

#include <autosched/measure/thread_stats.hpp>
#include <autosched/techniques/chunk_sequence.hpp>

#include <cstdint>

namespace autosched::drive {

/// Runs iterations [first, last) of the body behind `body`.
using ChunkRunner = void (*)(void* body, std::int64_t first, std::int64_t last);

/// Runs one worker's whole share of a deterministic-sequence loop (ss, gss,
/// tss, fac2, … — the ChunkSequence dispenser) with the body inlined into the
/// dispatch loop: no indirect call and no flag check per chunk (a failing
/// body cancels the sequence itself). Instantiated in the caller's
/// translation unit; counts chunks and iterations into `stats`.
using SequenceRunner = void (*)(void* body, ChunkSequence& sequence, std::int64_t base, std::int64_t n,
                                ThreadStats& stats);

/// One body: `run` is required; `run_sequence` is an optional fast path.
struct ChunkBody {
  ChunkRunner run = nullptr;
  SequenceRunner run_sequence = nullptr;
  void* body = nullptr;
};

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

/// One worker's dispatch loop over a planned sequence. Chunks of one
/// iteration (ss with chunk 1, the most overhead-bound schedule there is) get
/// the bare loop: claim an index, run it.
template <class ForIteration, class ForChunk>
void run_sequence(ChunkSequence& sequence, std::int64_t n, ThreadStats& stats, ForIteration&& for_iteration,
                  ForChunk&& for_chunk) {
  CountsGuard counts{stats};
  if (sequence.unit_chunks()) {
    for (std::int64_t i; (i = sequence.next_iteration()) < n;) {
      ++counts.chunks;
      ++counts.iterations;
      for_iteration(i);
    }
    return;
  }
  ChunkSequence::Worker w;
  for (;;) {
    const IndexRange c = sequence.next(w);
    if (c.empty()) break;
    ++counts.chunks;
    counts.iterations += c.size();
    for_chunk(c);
  }
}

}  // namespace autosched::drive
