#pragma once
/// @file
/// SS — self-scheduling (Tang & Yew 1986): every chunk has c iterations
/// (default 1). The most balanced and most overhead-bound technique.

#include <autosched/techniques/loop_shape.hpp>

namespace autosched {

class Ss {
 public:
  explicit Ss(const LoopShape& s) noexcept : size_(min_chunk(s)) {}
  [[nodiscard]] std::int64_t next_size(std::int64_t, std::int64_t) const noexcept { return size_; }
  [[nodiscard]] bool steady() const noexcept { return true; }

 private:
  std::int64_t size_;
};

}  // namespace autosched
