#pragma once
/// @file
/// GSS — guided self-scheduling, classic form (Polychronopoulos & Kuck 1987,
/// Eq. 3 of the 2025 study): chunk = ⌈R/P⌉, then max(·, c), R = iterations
/// not yet handed out. The sequence is deterministic, so it is planned once
/// and dispensed by chunk index (no CAS loop). LLVM's variant is guided-llvm.

#include <autosched/techniques/loop_shape.hpp>

#include <algorithm>

namespace autosched {

class Gss {
 public:
  explicit Gss(const LoopShape& s) noexcept : p_(s.workers), c_(min_chunk(s)) {}
  std::int64_t next_size(std::int64_t, std::int64_t r) noexcept {
    const std::int64_t size = ceil_div(r, p_);
    steady_ = size <= c_;  // R only shrinks, so ⌈R/P⌉ stays at or below c
    return std::max(size, c_);
  }
  [[nodiscard]] bool steady() const noexcept { return steady_; }

 private:
  std::int64_t p_;
  std::int64_t c_;
  bool steady_ = false;
};

}  // namespace autosched
