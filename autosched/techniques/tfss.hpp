#pragma once
/// @file
/// TFSS — trapezoid factoring self-scheduling (Chronopoulos et al. 2001):
/// chunks come in batches of P, and batch j's chunk is the mean of the P TSS
/// chunks it replaces,
///   chunk_j = ⌊(t_{jP} + … + t_{jP+P−1}) / P⌋,  then max(·, c),
/// where t_i are TSS sizes with F = ⌈N/(2P)⌉ and L = 1 (the trapezoid of
/// tss.hpp, exact decrement). TSS sizes never grow, nor do their batch means.

#include <autosched/techniques/loop_shape.hpp>
#include <autosched/techniques/shrinking_sequence.hpp>
#include <autosched/techniques/tss.hpp>

namespace autosched {

struct TfssFormula {
  std::int64_t p;
  Trapezoid tss;
  std::int64_t operator()(std::int64_t j, std::int64_t) const noexcept {
    std::int64_t sum = 0;
    for (std::int64_t i = j * p; i < (j + 1) * p; ++i) sum += tss.size(i);
    return sum / p;
  }
};

class Tfss : public ShrinkingBatches<TfssFormula> {
 public:
  explicit Tfss(const LoopShape& s) noexcept
      : ShrinkingBatches(s.workers, min_chunk(s),
                         TfssFormula{s.workers, Trapezoid(s.n, ceil_div(s.n, 2 * std::int64_t{s.workers}), 1)}) {}
};

}  // namespace autosched
