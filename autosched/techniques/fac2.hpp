#pragma once
/// @file
/// FAC2 and mFAC2 — factoring with x = 2: batches of P chunks, each batch half
/// the previous one.
///   FAC2 (Flynn Hummel et al. 1992):  chunk_j = ⌈N / (P·2^(j+1))⌉
///   mFAC2 (LB4OMP, Auto4OMP's member): chunk_0 = ⌈N/(2P)⌉, chunk_{j+1} = ⌈chunk_j / 2⌉
/// then max(·, c). Since ⌈⌈a/m⌉/2⌉ = ⌈a/(2m)⌉ for integers, the two give the
/// same sequence; both are kept, each in its published form, and a test checks
/// that they agree. LB4OMP's versions differ only in how they synchronise.

#include <autosched/techniques/loop_shape.hpp>
#include <autosched/techniques/shrinking_sequence.hpp>

namespace autosched {

struct Fac2Formula {
  std::int64_t per_worker;  ///< ⌈N/P⌉
  std::int64_t operator()(std::int64_t j, std::int64_t) const noexcept {
    // ⌈N/(P·2^(j+1))⌉ = ⌈⌈N/P⌉ / 2^(j+1)⌉ avoids overflowing P·2^(j+1).
    return j + 1 >= 62 ? 1 : ceil_div(per_worker, std::int64_t{1} << (j + 1));
  }
};

class Fac2 : public ShrinkingBatches<Fac2Formula> {
 public:
  explicit Fac2(const LoopShape& s) noexcept
      : ShrinkingBatches(s.workers, min_chunk(s), Fac2Formula{ceil_div(s.n, s.workers)}) {}
};

/// Halves its previous answer with a ceiling; asked once per batch, in order.
struct Mfac2Formula {
  std::int64_t chunk;  ///< ⌈N/(2P)⌉ before the first batch
  std::int64_t operator()(std::int64_t j, std::int64_t) noexcept {
    if (j > 0) chunk = ceil_div(chunk, 2);
    return chunk;
  }
};

class Mfac2 : public ShrinkingBatches<Mfac2Formula> {
 public:
  explicit Mfac2(const LoopShape& s) noexcept
      : ShrinkingBatches(s.workers, min_chunk(s), Mfac2Formula{ceil_div(s.n, 2 * std::int64_t{s.workers})}) {}
};

}  // namespace autosched
