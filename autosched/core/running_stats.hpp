#pragma once
/// @file
/// Count, mean and spread of a stream of samples (Welford), mergeable: the
/// one accumulator techniques (per worker, merged after the join) and
/// selectors (per arm) keep.

#include <cmath>
#include <cstdint>

namespace autosched {

struct RunningStats {
  /// The most samples a loaded state (model file, store, selector state) may
  /// claim for one accumulator, or in all: 2^48, beyond any real run (10^6
  /// samples a second for 8 years), and 2^15 such states merged still fit
  /// the signed counter. Readers reject larger counts as damage.
  static constexpr std::int64_t max_loaded_count = std::int64_t{1} << 48;

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
