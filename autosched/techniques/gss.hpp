#pragma once
/// @file
/// GSS — guided self-scheduling, classic form (Polychronopoulos & Kuck 1987,
/// Eq. 3 of the 2025 study): chunk = ⌈R/P⌉, then max(·, c), R = iterations
/// not yet handed out. The sequence is deterministic, so it is planned once
/// and dispensed by chunk index (no CAS loop). LLVM's variant is guided-llvm.

#include <autosched/techniques/loop_shape.hpp>
#include <autosched/techniques/shrinking_sequence.hpp>

namespace autosched {

struct GssFormula {
  std::int64_t p;
  std::int64_t operator()(std::int64_t, std::int64_t r) const noexcept { return ceil_div(r, p); }
};

class Gss : public Shrinking<GssFormula> {
 public:
  explicit Gss(const LoopShape& s) noexcept : Shrinking(min_chunk(s), GssFormula{s.workers}) {}
};

}  // namespace autosched
