#include <autosched/measure/metrics.hpp>

#include <gtest/gtest.h>

#include <vector>

namespace autosched {
namespace {

// Finishing times 10, 20, 30, 40: mean 25, max 40.
//   lib  = (40 − 25)/40 · 4/3 · 100 = 50
//   pimb = (40/25 − 1) · 100        = 60
//   m2 = (225 + 25 + 25 + 225)/4 = 125, stddev = sqrt(125) = 11.18034
//   cov = 11.18034/25 = 0.447214, skewness = 0 (symmetric)
//   m4 = (50625·2 + 625·2)/4 = 25625, kurtosis = 25625/125² − 3 = −1.36
TEST(Metrics, EvenlySpreadFinishTimes) {
  const std::vector<double> t{10, 20, 30, 40};
  const LoopMetrics m = metrics_from_finish_times(t);
  EXPECT_DOUBLE_EQ(m.loop_time_ns, 40);
  EXPECT_DOUBLE_EQ(m.mean_finish_ns, 25);
  EXPECT_NEAR(m.lib, 50.0, 1e-12);
  EXPECT_NEAR(m.percent_imbalance, 60.0, 1e-12);
  EXPECT_NEAR(m.stddev, 11.180339887, 1e-8);
  EXPECT_NEAR(m.cov, 0.4472135955, 1e-9);
  EXPECT_NEAR(m.skewness, 0.0, 1e-12);
  EXPECT_NEAR(m.kurtosis, -1.36, 1e-12);
}

// One straggler: 0, 0, 0, 12 → mean 3, max 12.
//   lib = 9/12 · 4/3 · 100 = 100, pimb = (12/3 − 1)·100 = 300
//   m2 = (9·3 + 81)/4 = 27, m3 = (−27·3 + 729)/4 = 162, m4 = (81·3 + 6561)/4 = 1701
//   skewness = 162 / 27^1.5 = 1.154701, kurtosis = 1701/729 − 3 = −0.666667
TEST(Metrics, OneStraggler) {
  const std::vector<double> t{0, 0, 0, 12};
  const LoopMetrics m = metrics_from_finish_times(t);
  EXPECT_NEAR(m.lib, 100.0, 1e-12);
  EXPECT_NEAR(m.percent_imbalance, 300.0, 1e-12);
  EXPECT_NEAR(m.stddev, 5.196152423, 1e-8);
  EXPECT_NEAR(m.skewness, 1.154700538, 1e-8);
  EXPECT_NEAR(m.kurtosis, -2.0 / 3.0, 1e-12);
}

TEST(Metrics, SingleThreadHasNoImbalance) {
  const std::vector<double> t{42};
  const LoopMetrics m = metrics_from_finish_times(t);
  EXPECT_DOUBLE_EQ(m.loop_time_ns, 42);
  EXPECT_DOUBLE_EQ(m.lib, 0);
  EXPECT_DOUBLE_EQ(m.percent_imbalance, 0);
  EXPECT_DOUBLE_EQ(m.cov, 0);
  EXPECT_DOUBLE_EQ(m.skewness, 0);
  EXPECT_DOUBLE_EQ(m.kurtosis, 0);
}

TEST(Metrics, DegenerateInputsGiveZeroNotNaN) {
  for (const std::vector<double>& t : {std::vector<double>{0, 0}, std::vector<double>{5, 5, 5}}) {
    const LoopMetrics m = metrics_from_finish_times(t);
    EXPECT_DOUBLE_EQ(m.lib, 0);
    EXPECT_DOUBLE_EQ(m.percent_imbalance, 0);
    EXPECT_DOUBLE_EQ(m.skewness, 0);
    EXPECT_DOUBLE_EQ(m.kurtosis, 0);
  }
  EXPECT_DOUBLE_EQ(metrics_from_finish_times({}).loop_time_ns, 0);
}

TEST(Metrics, ComputedFromThreadRecordsRelativeToLoopStart) {
  std::vector<ThreadStats> threads(2);
  threads[0].finish_ns = 1000 + 30;
  threads[1].finish_ns = 1000 + 10;
  const LoopMetrics m = compute_metrics(threads, 1000);
  EXPECT_DOUBLE_EQ(m.loop_time_ns, 30);
  // (30 − 20)/30 · 2/1 · 100
  EXPECT_NEAR(m.lib, 66.666666667, 1e-8);
}

}  // namespace
}  // namespace autosched
