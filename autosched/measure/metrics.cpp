#include <autosched/measure/metrics.hpp>

#include <algorithm>
#include <cmath>

namespace autosched {

namespace {

/// The metrics of P finishing times with maximum `max`, mean `mean` and
/// central moments m2, m3, m4 (population).
LoopMetrics from_central_moments(double p, double max, double mean, double m2, double m3, double m4) {
  LoopMetrics m;
  m.loop_time_ns = max;
  m.mean_finish_ns = mean;
  m.stddev = std::sqrt(m2);
  if (p > 1 && max > 0) m.lib = (max - mean) / max * p / (p - 1.0) * 100.0;
  if (mean > 0) {
    m.percent_imbalance = (max / mean - 1.0) * 100.0;
    m.cov = m.stddev / mean;
  }
  // Spread below a picosecond is clock noise, not a distribution shape.
  if (m.stddev > 1e-3) {
    m.skewness = m3 / (m2 * m.stddev);
    m.kurtosis = m4 / (m2 * m2) - 3.0;
  }
  return m;
}

// Shared by both entry points; `finish(i)` is thread i's finishing time
// relative to the loop start. Two passes, no allocation (runs once per instance).
template <class Finish>
LoopMetrics metrics_of(std::size_t count, Finish finish) {
  if (count == 0) return {};
  const auto p = static_cast<double>(count);
  double max = 0, sum = 0;
  for (std::size_t i = 0; i < count; ++i) {
    max = std::max(max, finish(i));
    sum += finish(i);
  }
  const double mean = sum / p;
  // Central moments in a second pass: finishing times are close together, and
  // the naive E[x²] − E[x]² would cancel catastrophically.
  double m2 = 0, m3 = 0, m4 = 0;
  for (std::size_t i = 0; i < count; ++i) {
    const double d = finish(i) - mean;
    m2 += d * d;
    m3 += d * d * d;
    m4 += d * d * d * d;
  }
  return from_central_moments(p, max, mean, m2 / p, m3 / p, m4 / p);
}

}  // namespace

LoopMetrics metrics_from_finish_times(std::span<const double> finish) {
  return metrics_of(finish.size(), [&](std::size_t i) { return finish[i]; });
}

LoopMetrics metrics_from_power_sums(double p, double max, double s1, double s2, double s3, double s4) {
  if (!(p >= 1)) return {};
  const double mean = s1 / p;
  const double e2 = s2 / p, e3 = s3 / p, e4 = s4 / p;
  // Raw to central moments; rounding can leave a tiny negative variance.
  const double m2 = std::max(0.0, e2 - mean * mean);
  const double m3 = e3 - 3 * mean * e2 + 2 * mean * mean * mean;
  const double m4 = e4 - 4 * mean * e3 + 6 * mean * mean * e2 - 3 * mean * mean * mean * mean;
  return from_central_moments(p, max, mean, m2, m3, m4);
}

LoopMetrics compute_metrics(std::span<const ThreadStats> threads, std::int64_t loop_start_ns) {
  return metrics_of(threads.size(), [&](std::size_t i) {
    return static_cast<double>(std::max<std::int64_t>(0, threads[i].finish_ns - loop_start_ns));
  });
}

}  // namespace autosched
