#pragma once
/// @file
/// The boundary between the parallel_for templates (in the user's code) and
/// the loops front-end (compiled once, with OpenMP): the body is type-erased
/// per chunk (drive/chunk_body.hpp), so the iteration loop inside a chunk is
/// the user's inlined code and a chunk costs one indirect call.

#include <autosched/drive/chunk_body.hpp>
#include <autosched/loops/loop_options.hpp>

#include <autosched/core/source_location.hpp>
#include <cstdint>

namespace autosched::detail {

using drive::ChunkRunner;
using drive::SequenceRunner;

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
