// Dividing out each process's level (process_levels.hpp) on rows small enough
// to check by hand.
#include <campaign/process_levels.hpp>

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace autosched::campaign {
namespace {

StepRow row(const std::string& loop, const std::string& config, int rep, int step, double ms) {
  StepRow r;
  r.app = "app";
  r.loop = loop;
  r.config = config;
  r.kind = ConfigKind::arm;
  r.rep = rep;
  r.step = step;
  r.time_ns = ms * 1e6;
  return r;
}

/// Three processes with references whose medians are 5, 10 and 5 ms (levels
/// 1, 2, 1 against the median 5), one process without references, and a
/// second loop that never had any.
std::vector<StepRow> hand_rows() {
  std::vector<StepRow> rows;
  const double a1[] = {10, 10, 10}, a1_ref[] = {5, 5, 6};
  const double a2[] = {20, 22, 18}, a2_ref[] = {10, 10, 10};
  const double b1[] = {12, 12, 12}, b1_ref[] = {4, 5, 5};
  const double b2[] = {30, 30, 30};
  for (int s = 0; s < 3; ++s) {
    rows.push_back(row("app/loop", "A", 1, s, a1[s]));
    rows.push_back(row("app/loop@reference", "A", 1, s, a1_ref[s]));
    rows.push_back(row("app/loop", "A", 2, s, a2[s]));
    rows.push_back(row("app/loop@reference", "A", 2, s, a2_ref[s]));
    rows.push_back(row("app/loop", "B", 1, s, b1[s]));
    rows.push_back(row("app/loop@reference", "B", 1, s, b1_ref[s]));
    rows.push_back(row("app/loop", "B", 2, s, b2[s]));
    rows.push_back(row("app/other", "A", 1, s, 7));
  }
  return rows;
}

double time_of(const std::vector<StepRow>& rows, const std::string& loop, const std::string& config, int rep,
               int step) {
  for (const auto& r : rows) {
    if (r.loop == loop && r.config == config && r.rep == rep && r.step == step) return r.time_ns / 1e6;
  }
  ADD_FAILURE() << "no row " << loop << " " << config << " " << rep << " " << step;
  return -1;
}

TEST(ProcessLevels, ReferenceRowsAreTheLoopsEndingInTheSuffix) {
  EXPECT_TRUE(is_reference_row(row("app/loop@reference", "A", 1, 0, 1)));
  EXPECT_FALSE(is_reference_row(row("app/loop", "A", 1, 0, 1)));
  EXPECT_FALSE(is_reference_row(row("@reference", "A", 1, 0, 1)));
  EXPECT_FALSE(is_reference_row(row("app/reference", "A", 1, 0, 1)));
}

TEST(ProcessLevels, WholeProcessLevelIsItsReferenceMedianOverTheMedianOfAll) {
  const LevelAdjusted out = divide_out_process_levels(hand_rows(), whole_process_level);
  ASSERT_EQ(out.loops.size(), 1U);
  const LevelAdjustment& a = out.loops[0];
  EXPECT_EQ(a.loop, "app/loop");
  EXPECT_EQ(a.processes, 3);
  EXPECT_EQ(a.unreferenced, 1);
  EXPECT_DOUBLE_EQ(a.baseline_ns, 5e6);
  EXPECT_DOUBLE_EQ(a.min_level, 1.0);
  EXPECT_DOUBLE_EQ(a.median_level, 1.0);
  EXPECT_DOUBLE_EQ(a.max_level, 2.0);
  ASSERT_EQ(out.processes.size(), 3U);
  for (const ProcessLevel& p : out.processes) {
    EXPECT_EQ(p.loop, "app/loop");
    EXPECT_DOUBLE_EQ(p.level, p.config == "A" && p.rep == 2 ? 2.0 : 1.0) << p.config << p.rep;
  }
  // Level 2: halved. Level 1: as measured.
  EXPECT_DOUBLE_EQ(time_of(out.rows, "app/loop", "A", 2, 0), 10);
  EXPECT_DOUBLE_EQ(time_of(out.rows, "app/loop", "A", 2, 1), 11);
  EXPECT_DOUBLE_EQ(time_of(out.rows, "app/loop", "A", 2, 2), 9);
  EXPECT_DOUBLE_EQ(time_of(out.rows, "app/loop", "A", 1, 1), 10);
  EXPECT_DOUBLE_EQ(time_of(out.rows, "app/loop", "B", 1, 1), 12);
  // No references: as measured; another loop: untouched.
  EXPECT_DOUBLE_EQ(time_of(out.rows, "app/loop", "B", 2, 0), 30);
  EXPECT_DOUBLE_EQ(time_of(out.rows, "app/other", "A", 1, 2), 7);
  // The reference instances are gone, nothing else is.
  EXPECT_EQ(out.rows.size(), 15U);
  for (const auto& r : out.rows) EXPECT_FALSE(is_reference_row(r));
}

TEST(ProcessLevels, WarmProcessesAreTheirOwnProcessesUnderTheSameBaseline) {
  std::vector<StepRow> rows = hand_rows();
  StepRow warm = row("app/loop", "A", 1, 0, 40);
  warm.phase = "warm";
  StepRow warm_ref = row("app/loop@reference", "A", 1, 0, 20);
  warm_ref.phase = "warm";
  rows.push_back(warm);
  rows.push_back(warm_ref);
  const LevelAdjusted out = divide_out_process_levels(rows, whole_process_level);
  ASSERT_EQ(out.loops.size(), 1U);
  EXPECT_EQ(out.loops[0].processes, 4);
  EXPECT_DOUBLE_EQ(out.loops[0].baseline_ns, 7.5e6);  // medians 5, 10, 5, 20
  for (const auto& r : out.rows) {
    if (r.phase == "warm") {
      EXPECT_DOUBLE_EQ(r.time_ns, 40e6 / (20.0 / 7.5));
    }
  }
}

/// Three processes over five steps. A and C run their references at 10, 10,
/// 20, 20, 20 ms (the machine slowed down for everyone), B at 10 ms all
/// along while its loop went from 10 to 5 ms: B sped up against the others
/// from step 2 on, and only the instances after that should be scaled.
std::vector<StepRow> drifting_rows() {
  std::vector<StepRow> rows;
  const double slowing[] = {10, 10, 20, 20, 20}, steady[] = {10, 10, 10, 10, 10}, b_loop[] = {10, 10, 5, 5, 5};
  for (int s = 0; s < 5; ++s) {
    for (const char* c : {"A", "C"}) {
      rows.push_back(row("app/loop", c, 1, s, slowing[s]));
      rows.push_back(row("app/loop@reference", c, 1, s, slowing[s]));
    }
    rows.push_back(row("app/loop", "B", 1, s, b_loop[s]));
    rows.push_back(row("app/loop@reference", "B", 1, s, steady[s]));
  }
  return rows;
}

TEST(ProcessLevels, RollingLevelFollowsADriftWithinAProcess) {
  // Step baselines (medians over A, B, C): 10, 10, 20, 20, 20. B's ratios:
  // 1, 1, 0.5, 0.5, 0.5; with w = 1 its divisors are the medians of
  // {1, 1}, {1, 1, 0.5}, {1, 0.5, 0.5}, {0.5, 0.5, 0.5}, {0.5, 0.5}.
  const LevelAdjusted out = divide_out_process_levels(drifting_rows(), 1);
  ASSERT_EQ(out.loops.size(), 1U);
  EXPECT_EQ(out.loops[0].window, 1);
  for (int s = 0; s < 5; ++s) {
    EXPECT_DOUBLE_EQ(time_of(out.rows, "app/loop", "B", 1, s), 10) << s;
    EXPECT_DOUBLE_EQ(time_of(out.rows, "app/loop", "A", 1, s), s < 2 ? 10 : 20) << s;
  }
  // B's level is what its total was divided by: 35 measured, 50 adjusted.
  for (const ProcessLevel& p : out.processes) {
    EXPECT_DOUBLE_EQ(p.level, p.config == "B" ? 0.7 : 1.0) << p.config;
  }
  EXPECT_DOUBLE_EQ(out.loops[0].min_level, 0.7);
  EXPECT_DOUBLE_EQ(out.loops[0].max_level, 1.0);
  // One level per process cannot follow it: B (median 10 against the
  // processes' median 20) is doubled all along, its first steps included.
  const LevelAdjusted whole = divide_out_process_levels(drifting_rows(), whole_process_level);
  EXPECT_DOUBLE_EQ(time_of(whole.rows, "app/loop", "B", 1, 0), 20);
  EXPECT_DOUBLE_EQ(time_of(whole.rows, "app/loop", "B", 1, 4), 10);
}

TEST(ProcessLevels, RollingLevelWithoutReferencesNearbyUsesTheProcesssMedianRatio) {
  // A: references at every step (10 ms). D: only at steps 0 (5 ms) and 4
  // (10 ms). Step baselines: 7.5 at step 0, 10 elsewhere; D's ratios 2/3 and
  // 1, median 5/6.
  std::vector<StepRow> rows;
  for (int s = 0; s < 5; ++s) {
    rows.push_back(row("app/loop", "A", 1, s, 10));
    rows.push_back(row("app/loop@reference", "A", 1, s, 10));
  }
  rows.push_back(row("app/loop@reference", "D", 1, 0, 5));
  rows.push_back(row("app/loop@reference", "D", 1, 4, 10));
  rows.push_back(row("app/loop", "D", 1, 1, 12));  // window 0…2 holds step 0: ÷ 2/3
  rows.push_back(row("app/loop", "D", 1, 2, 12));  // window 1…3 holds none: ÷ 5/6
  const LevelAdjusted out = divide_out_process_levels(rows, 1);
  EXPECT_DOUBLE_EQ(time_of(out.rows, "app/loop", "D", 1, 1), 18);
  EXPECT_DOUBLE_EQ(time_of(out.rows, "app/loop", "D", 1, 2), 14.4);
  // A's ratios at steps 0 and 1: 4/3 and 1, median 7/6.
  EXPECT_DOUBLE_EQ(time_of(out.rows, "app/loop", "A", 1, 0), 10 / (7.0 / 6));
}

TEST(ProcessLevels, WithoutReferencesTheRowsStayAsMeasured) {
  const std::vector<StepRow> rows = hand_rows();
  const std::vector<StepRow> raw = without_reference_rows(rows);
  EXPECT_EQ(raw.size(), 15U);
  EXPECT_DOUBLE_EQ(time_of(raw, "app/loop", "A", 2, 0), 20);
  std::vector<StepRow> plain;
  for (const auto& r : rows) {
    if (r.loop == "app/other") plain.push_back(r);
  }
  const LevelAdjusted untouched = divide_out_process_levels(plain);
  EXPECT_TRUE(untouched.loops.empty());
  EXPECT_EQ(untouched.rows.size(), plain.size());
}

}  // namespace
}  // namespace autosched::campaign
