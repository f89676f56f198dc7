#pragma once
/// @file
/// RandomSel (Auto4OMP, `auto,2`): after each instance, jump to a uniformly
/// drawn arm (possibly the same) with probability LIB/10, LIB in percent (so
/// always from 10% imbalance on). The first instance always jumps. Seeded per
/// decision point (LB4OMP reseeds libc's rand() with a constant per loop).

#include <autosched/select/selectors/selector.hpp>

#include <cstdint>
#include <random>

namespace autosched {

class RandomSelector final : public Selector {
 public:
  RandomSelector(int arms, std::uint64_t seed) : arms_(arms), rng_(seed) {}
  [[nodiscard]] std::string_view name() const noexcept override { return "random"; }
  Decision choose(const Context& context) override;
  void observe(const Decision& decision, const Outcome& outcome) override;
  [[nodiscard]] std::string summary() const override;

 private:
  int arms_;
  std::mt19937_64 rng_;
  int current_ = 0;
  bool started_ = false;
  double last_lib_ = 0;
};

}  // namespace autosched
