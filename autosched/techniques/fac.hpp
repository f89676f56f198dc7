#pragma once
/// @file
/// FAC — factoring (Flynn Hummel, Schonberg & Flynn 1992). Chunks come in
/// batches of P equal chunks; each batch takes a fraction of what remains that
/// shrinks with the iteration-time variability:
///   b = P·sigma / (2·mu·sqrt(R)),
///   batch 0:  x = 1 + b² + b·sqrt(b² + 2)
///   later:    x = 2 + b² + b·sqrt(b² + 4),    chunk = ⌈R/(x·P)⌉, then max(·, c)
/// with R the iterations remaining when the batch opens. Every batch holds
/// exactly P chunks, so R is known in advance and the sequence is planned
/// once: this is also mFAC (LB4OMP's lock-free FAC), which replays the same
/// recurrence; LB4OMP's FAC takes a mutex per request, ours needs none.
/// Later batches have x >= 2 and a smaller R, so chunks never grow.
/// mu and sigma are floating point (LB4OMP's integer mu divides by zero below
/// 1 µs); mu must be > 0.

#include <autosched/techniques/loop_shape.hpp>
#include <autosched/techniques/shrinking_sequence.hpp>

#include <cmath>

namespace autosched {

struct FacFormula {
  double p;
  double cv;  ///< sigma / mu
  std::int64_t operator()(std::int64_t j, std::int64_t r) const noexcept {
    const double b = p * cv / (2.0 * std::sqrt(static_cast<double>(r)));
    const double x = j == 0 ? 1.0 + b * b + b * std::sqrt(b * b + 2.0) : 2.0 + b * b + b * std::sqrt(b * b + 4.0);
    return static_cast<std::int64_t>(std::ceil(static_cast<double>(r) / (x * p)));
  }
};

class Fac : public ShrinkingBatches<FacFormula> {
 public:
  Fac(const LoopShape& s, double mu_ns, double sigma_ns) noexcept
      : ShrinkingBatches(s.workers, min_chunk(s), FacFormula{static_cast<double>(s.workers), sigma_ns / mu_ns}) {}
};

}  // namespace autosched
