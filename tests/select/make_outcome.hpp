#pragma once
// What selector tests feed back: an instance of `ms` milliseconds with load
// imbalance `lib` (percent).
#include <autosched/select/selectors/selector.hpp>

namespace autosched::testing {

inline Outcome outcome(double ms, double lib = 0) {
  Outcome o;
  o.time_ns = ms * 1e6;
  o.metrics.lib = lib;
  return o;
}

}  // namespace autosched::testing
