#pragma once
/// @file
/// Derived metrics of one loop instance (docs/loops.md, "Measurements"), all in floating
/// point over the threads' finishing times measured from the loop start.
///
///   lib               = (T_max − T_mean) / T_max · P/(P−1) · 100   (Auto4OMP)
///   percent_imbalance = (T_max / T_mean − 1) · 100                  (LB4MPI)
///   stddev, cov = stddev/T_mean, skewness, kurtosis (excess, −3)    (population
///   formulas, Birgovan thesis Eq. 2.2–2.5)
///
/// Degenerate inputs give 0, never NaN: P = 1, all threads finishing together,
/// T_max = 0 (an empty loop).

#include <autosched/measure/thread_stats.hpp>

#include <cstdint>
#include <span>

namespace autosched {

struct LoopMetrics {
  double loop_time_ns = 0;       ///< T_par: latest finish − loop start
  double mean_finish_ns = 0;     ///< T_mean over threads
  double lib = 0;                ///< percent load imbalance, Auto4OMP definition
  double percent_imbalance = 0;  ///< percent imbalance, LB4MPI definition
  double stddev = 0;             ///< ns
  double cov = 0;                ///< stddev / T_mean
  double skewness = 0;
  double kurtosis = 0;  ///< excess kurtosis
};

/// Metrics from finishing times already relative to the loop start (ns).
LoopMetrics metrics_from_finish_times(std::span<const double> finish_ns);

/// Metrics of an instance from its threads' records.
/// Metrics from the sums of the finishing times' powers (Σt, Σt², Σt³, Σt⁴
/// over p times, maximum `max`), as one reduction over MPI ranks delivers
/// them. Less accurate than the two-pass form when the spread is tiny
/// against the times: skewness and kurtosis then read as noise.
LoopMetrics metrics_from_power_sums(double p, double max, double s1, double s2, double s3, double s4);

LoopMetrics compute_metrics(std::span<const ThreadStats> threads, std::int64_t loop_start_ns);

}  // namespace autosched
