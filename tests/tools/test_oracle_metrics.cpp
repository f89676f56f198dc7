// The Oracle and the campaign metrics on step tables small enough to check by
// hand, and the campaign's inputs: runs.csv, method and app lists.
#include <campaign/oracle_metrics.hpp>
#include <campaign/runs_table.hpp>

#include <autosched/core/error.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>

namespace autosched::campaign {
namespace {

constexpr double ms = 1e6;

StepSeries series(std::vector<double> times_ms, std::vector<std::string> arms = {}, std::vector<bool> explored = {},
                  std::vector<double> selection = {}) {
  StepSeries s;
  for (double t : times_ms) s.time_ns.push_back(t * ms);
  const std::size_t n = s.time_ns.size();
  s.arm = arms.empty() ? std::vector<std::string>(n) : arms;
  s.explored = explored.empty() ? std::vector<bool>(n) : explored;
  s.selection_ns = selection.empty() ? std::vector<double>(n) : selection;
  return s;
}

/// Arms A and B over 3 steps and 3 repetitions; per-step medians
/// A = 11, 20, 30 (61 in all), B = 15, 11, 40 (66). Oracle = 11 + 11 + 30 = 52,
/// on A, B, A. Best fixed arm: A.
LoopTable hand_table() {
  LoopTable t{"app", "app/loop", {}};
  t.configs.push_back({"A",
                       ConfigKind::arm,
                       "a",
                       {series({10, 20, 30}, {"a", "a", "a"}), series({12, 18, 33}, {"a", "a", "a"}),
                        series({11, 25, 29}, {"a", "a", "a"})}});
  t.configs.push_back({"B",
                       ConfigKind::arm,
                       "b",
                       {series({15, 10, 40}, {"b", "b", "b"}), series({14, 12, 35}, {"b", "b", "b"}),
                        series({16, 11, 50}, {"b", "b", "b"})}});
  // One run: explores B at step 0, then B (right), then A (right).
  t.configs.push_back(
      {"M", ConfigKind::method, "", {series({20, 11, 30}, {"b", "b", "a"}, {true, false, false}, {100, 50, 70})}});
  t.configs.push_back(
      {"R", ConfigKind::reference, "omp-static", {series({5, 5, 5}, {"omp-static", "omp-static", "omp-static"})}});
  return t;
}

TEST(OracleMetrics, MedianOfOddAndEvenLists) {
  EXPECT_DOUBLE_EQ(median({3, 1, 2}), 2);
  EXPECT_DOUBLE_EQ(median({4, 1, 3, 2}), 2.5);
}

TEST(OracleMetrics, StepMediansOverRepetitions) {
  const auto m = step_medians({series({10, 20, 30}), series({12, 18, 33}), series({11, 25, 29})});
  ASSERT_EQ(m.size(), 3U);
  EXPECT_DOUBLE_EQ(m[0], 11 * ms);
  EXPECT_DOUBLE_EQ(m[1], 20 * ms);
  EXPECT_DOUBLE_EQ(m[2], 30 * ms);
}

TEST(OracleMetrics, OracleIsTheSumOfPerStepMinimaOverArms) {
  const LoopMetrics m = evaluate(hand_table());
  EXPECT_EQ(m.steps, 3);
  EXPECT_DOUBLE_EQ(m.oracle_ms, 52);
  EXPECT_EQ(m.oracle_arms, (std::vector<std::string>{"A", "B", "A"}));
  EXPECT_EQ(m.oracle_labels, (std::vector<std::string>{"a", "b", "a"}));
  EXPECT_EQ(m.best_arm, "A");
  EXPECT_DOUBLE_EQ(m.best_arm_ms, 61);
  EXPECT_DOUBLE_EQ(m.find("B")->total_ms, 66);
  // Whatever the table, no arm beats the Oracle.
  for (const auto& c : m.configs) {
    if (c.kind == ConfigKind::arm) {
      EXPECT_GE(c.total_ms, m.oracle_ms);
    }
  }
}

TEST(OracleMetrics, MethodMetricsByHand) {
  const LoopMetrics m = evaluate(hand_table());
  const ConfigMetrics& c = *m.find("M");
  EXPECT_DOUBLE_EQ(c.total_ms, 61);
  EXPECT_NEAR(c.degradation_pct, 9.0 / 52 * 100, 1e-9);
  EXPECT_NEAR(c.regret_pct, 0, 1e-9);
  EXPECT_NEAR(c.explored_steps_pct, 100.0 / 3, 1e-9);
  EXPECT_NEAR(c.explored_time_pct, 20.0 / 61 * 100, 1e-9);
  EXPECT_NEAR(c.explored_lost_ms, 20 - 11, 1e-9);  // step 0 vs the Oracle's 11
  EXPECT_EQ(c.settled_step, 1);
  EXPECT_NEAR(c.same_arm_pct, 200.0 / 3, 1e-9);  // steps 1 and 2
  // Step 0 ran b, whose median there (15) is more than 5% over the Oracle's 11.
  EXPECT_NEAR(c.near_oracle_pct, 200.0 / 3, 1e-9);
  EXPECT_DOUBLE_EQ(c.selector_ns, 220.0 / 3);  // the mean of 100, 50 and 70
  EXPECT_TRUE(std::isnan(c.rep_spread_pct));  // one repetition
  // Arm B's repetitions total 65, 61 and 77 ms: spread (77 − 61) / 61.
  EXPECT_NEAR(m.find("B")->rep_spread_pct, 16.0 / 61 * 100, 1e-9);
}

TEST(OracleMetrics, ChoicesArePricedAtTheirArmsMedians) {
  const LoopMetrics m = evaluate(hand_table());
  const ConfigMetrics& c = *m.find("M");
  // M ran b, b, a: priced at B's medians 15 and 11 and A's 30, 56 ms against
  // the Oracle's 52; it measured 20, 11, 30, so its run level is the median of
  // 20/15, 11/11 and 30/30.
  EXPECT_NEAR(c.choice_pct, 4.0 / 52 * 100, 1e-9);
  EXPECT_DOUBLE_EQ(c.run_level, 1.0);
  // Arms and references are not priced.
  EXPECT_TRUE(std::isnan(m.find("A")->choice_pct));
  EXPECT_TRUE(std::isnan(m.find("R")->run_level));
}

TEST(OracleMetrics, CutTrialsAndUnknownArmsKeepTheirMeasuredTime) {
  LoopTable t = hand_table();
  StepSeries& run = t.configs[2].reps[0];
  run.cut_short = {true, false, false};  // step 0's trial of b was cut: it cost what it cost
  run.arm[2] = "profiling";              // and step 2 profiled: no arm prices it
  const LoopMetrics m = evaluate(t);
  const ConfigMetrics& c = *m.find("M");
  EXPECT_NEAR(c.choice_pct, (20.0 + 11 + 30 - 52) / 52 * 100, 1e-9);
  EXPECT_DOUBLE_EQ(c.run_level, 1.0);  // only step 1 was priced
}

TEST(OracleMetrics, PricingTakesTheMedianOverRepetitions) {
  LoopTable t = hand_table();
  // Two more runs of M in slow processes (twice the time): the measurement
  // doubles, the choices' price does not.
  t.configs[2].reps.push_back(series({40, 22, 60}, {"b", "b", "a"}));
  t.configs[2].reps.push_back(series({40, 22, 60}, {"a", "b", "a"}));
  const LoopMetrics m = evaluate(t);
  const ConfigMetrics& c = *m.find("M");
  EXPECT_NEAR(c.degradation_pct, (40.0 + 22 + 60 - 52) / 52 * 100, 1e-9);
  // Step 0 priced 15, 15, 11 (median 15), then 11 and 30.
  EXPECT_NEAR(c.choice_pct, 4.0 / 52 * 100, 1e-9);
  EXPECT_NEAR(c.run_level, 2.0, 1e-9);
}

TEST(OracleMetrics, ReferencesAreReportedButNeverEnterTheOracle) {
  const LoopMetrics m = evaluate(hand_table());
  EXPECT_DOUBLE_EQ(m.oracle_ms, 52);  // R's 5 ms steps would have made it 15
  EXPECT_NEAR(m.find("R")->degradation_pct, (15.0 - 52) / 52 * 100, 1e-9);
  EXPECT_TRUE(std::isnan(m.find("R")->selector_ns));
}

TEST(OracleMetrics, AShortRunLimitsTheStepsCompared) {
  LoopTable t = hand_table();
  t.configs[1].reps[2] = series({16, 11}, {"b", "b"});  // B's third repetition stopped after 2 steps
  const LoopMetrics m = evaluate(t);
  EXPECT_EQ(m.steps, 2);
  EXPECT_DOUBLE_EQ(m.oracle_ms, 22);
}

TEST(OracleMetrics, NoArmMeansNoOracle) {
  LoopTable t{"app", "app/loop", {}};
  t.configs.push_back({"M", ConfigKind::method, "", {series({1, 2})}});
  EXPECT_THROW((void)evaluate(t), Error);
}

TEST(OracleMetrics, RowsGroupByLoopConfigurationAndRepetition) {
  std::vector<StepRow> rows;
  for (int rep : {1, 2}) {
    for (int step : {0, 1}) {
      StepRow r;
      r.app = "x";
      r.loop = "x/l";
      r.config = "ss";
      r.kind = ConfigKind::arm;
      r.arm_label = "ss";
      r.rep = rep;
      r.step = step;
      r.time_ns = 10.0 * rep + step;
      rows.push_back(r);
      r.phase = "warm";
      rows.push_back(r);
    }
  }
  const auto tables = group_rows(rows, "cold");
  ASSERT_EQ(tables.size(), 1U);
  ASSERT_EQ(tables[0].configs.size(), 1U);
  ASSERT_EQ(tables[0].configs[0].reps.size(), 2U);
  EXPECT_EQ(tables[0].configs[0].reps[1].time_ns, (std::vector<double>{20, 21}));
}

TEST(RunsTable, RoundTripKeepsMetadataAndQuotedFields) {
  const auto path = std::filesystem::temp_directory_path() / "autosched_runs_roundtrip.csv";
  StepRow r;
  r.app = "pisolver";
  r.loop = "pisolver/integrate";
  r.config = "auto:qlearn,reward=loadimbalance";  // a schedule as a name: has a comma
  r.rep = 2;
  r.step = 7;
  r.time_ns = 12345;
  r.arm = "gss:expert";
  r.explored = true;
  r.selection_ns = 321;
  {
    std::FILE* f = std::fopen(path.c_str(), "w");
    write_metadata(f, {{"fingerprint", "abc"}, {"threads", "2"}});
    std::fprintf(f, "%s\n", runs_header());
    write_row(f, r);
    std::fclose(f);
  }
  const RunsTable t = read_runs(path.string());
  EXPECT_EQ(meta_value(t.meta, "fingerprint"), "abc");
  ASSERT_EQ(t.rows.size(), 1U);
  EXPECT_EQ(t.rows[0].config, r.config);
  EXPECT_EQ(t.rows[0].arm, "gss:expert");
  EXPECT_EQ(t.rows[0].step, 7);
  EXPECT_TRUE(t.rows[0].explored);
  std::filesystem::remove(path);
}

TEST(RunsTable, MalformedLineIsRejectedWithFileAndLine) {
  const auto path = std::filesystem::temp_directory_path() / "autosched_runs_bad.csv";
  std::ofstream(path) << runs_header() << "\ncold,a,a/l,ss,arm,ss,1,0,notanumber,ss,0,0,0\n";
  try {
    (void)read_runs(path.string());
    FAIL() << "accepted a bad time";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(path.string() + ":2: column time_ns: 'notanumber'"), std::string::npos)
        << e.what();
  }
  std::filesystem::remove(path);
}

TEST(CampaignPlan, ArmsReferencesAndPublishedMethods) {
  EXPECT_EQ(oracle_arms().size(), 24U);
  EXPECT_EQ(oracle_arms()[12].schedule, "static,chunk=expert");
  EXPECT_EQ(oracle_arms()[12].arm_label, "static:expert");
  EXPECT_EQ(references().size(), 3U);
  const auto methods = select_methods("all");
  EXPECT_EQ(methods.size(), 16U);  // 7 selectors × ±expChunk, ChunkSel, auto
  EXPECT_EQ(select_methods("QLearn-LIB+exp")[0].schedule, "auto:qlearn,reward=loadimbalance,chunk=expert");
  EXPECT_EQ(select_methods("QLearn-LT;auto").size(), 2U);
  EXPECT_EQ(select_methods("ExhaustiveSel,auto").size(), 2U);
  // A schedule that is no published name runs as itself.
  EXPECT_EQ(select_methods("auto:qlearn,policy=softmax")[0].schedule, "auto:qlearn,policy=softmax");
  EXPECT_TRUE(select_methods("none").empty());
  EXPECT_EQ(select_apps("all").size(), 6U);
}

TEST(CampaignPlan, UnknownNamesAreRejectedWithWhatIsAccepted) {
  try {
    (void)select_apps("mandelbrot,frobnicate");
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("--apps"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("frobnicate"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("triangle-count"), std::string::npos);
  }
  EXPECT_THROW((void)select_arms("gss"), Error);  // not an Auto4OMP arm
  EXPECT_THROW((void)select_methods("QLearn"), Error);
  EXPECT_THROW((void)select_methods("auto:nosuchselector"), Error);
}

}  // namespace
}  // namespace autosched::campaign
