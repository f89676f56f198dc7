#pragma once
/// @file
/// Count, mean and spread of a stream of samples (Welford), mergeable: the
/// one accumulator techniques (per worker, merged after the join) and
/// selectors (per arm) keep.

#include <cmath>
#include <cstdint>

namespace autosched {

struct RunningStats {
  std::int64_t count = 0;
  double mean = 0;
  double m2 = 0;  ///< sum of squared deviations from the mean

  void add(double x) noexcept {
    ++count;
    const double d = x - mean;
    mean += d / static_cast<double>(count);
    m2 += d * (x - mean);
  }
  void merge(const RunningStats& o) noexcept {
    if (o.count == 0) return;
    if (count == 0) {  // exact: the general formula rounds the mean by an ulp
      *this = o;
      return;
    }
    const auto n = static_cast<double>(count + o.count);
    const double d = o.mean - mean;
    mean += d * static_cast<double>(o.count) / n;
    m2 += o.m2 + d * d * static_cast<double>(count) * static_cast<double>(o.count) / n;
    count += o.count;
  }
  /// Sample standard deviation; 0 with fewer than two samples.
  [[nodiscard]] double sample_stddev() const noexcept {
    return count > 1 ? std::sqrt(m2 / static_cast<double>(count - 1)) : 0.0;
  }
};

}  // namespace autosched
