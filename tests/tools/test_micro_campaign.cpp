// A two-app, two-arm campaign end to end: `bench` runs the real apps as
// processes, `report` writes the files the evaluation protocol promises, with
// the columns it promises, and no arm beats the Oracle.
#include <campaign/bench_runner.hpp>
#include <campaign/configurations.hpp>
#include <campaign/report_writer.hpp>
#include <campaign/runs_table.hpp>

#include <autosched/core/error.hpp>

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <unistd.h>

namespace autosched::campaign {
namespace {

namespace fs = std::filesystem;

std::string first_data_line(const fs::path& path) {
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line[0] != '#') return line;
  }
  return "";
}

/// The plan both tests start from: the arms ss and static on small apps, 2
/// repetitions of 4 steps on 2 threads, into a fresh directory named `name`.
BenchPlan micro_plan(const std::string& name, std::vector<std::string> apps) {
  const fs::path dir = fs::temp_directory_path() / (name + "_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  BenchPlan plan;
  plan.apps = std::move(apps);
  plan.configs = select_arms("ss;static");
  plan.reps = 2;
  plan.steps = 4;
  plan.threads = 2;
  plan.out_dir = dir.string();
  plan.bin_dir = AUTOSCHED_BINARY_DIR "/bin";
  plan.app_args = {{"pisolver", {"--n", "3000", "--work", "10"}}, {"stream-triad", {"--n", "5000"}}};
  plan.command_line = "test_micro_campaign";
  plan.progress = false;
  return plan;
}

TEST(MicroCampaign, BenchAndReportProduceTheProtocolsFiles) {
  BenchPlan plan = micro_plan("autosched_micro_campaign", {"pisolver", "stream-triad"});
  const fs::path dir = plan.out_dir;
  plan.configs.push_back(select_references("omp:static")[0]);
  plan.configs.push_back(select_methods("ExhaustiveSel")[0]);
  plan.warm_methods = select_methods("auto");
  const BenchOutcome outcome = run_bench(plan);
  EXPECT_EQ(outcome.failed, 0);
  EXPECT_EQ(outcome.runs, 2 * 4 * 2 + 2 * 1 * 2);  // apps × configs × reps + warm

  const RunsTable runs = read_runs((dir / "runs.csv").string());
  EXPECT_FALSE(meta_value(runs.meta, "fingerprint").empty());
  EXPECT_FALSE(meta_value(runs.meta, "threads").empty());
  EXPECT_FALSE(meta_value(runs.meta, "build").empty());
  EXPECT_EQ(meta_value(runs.meta, "binaries").rfind("fnv1a64 ", 0), 0U) << meta_value(runs.meta, "binaries");
  EXPECT_EQ(meta_value(runs.meta, "command"), "test_micro_campaign");
  // Every step of every run: 2 apps × 1 loop × 4 configs × 2 reps × 4 steps, plus warm,
  // plus each loop's level reference after each of its instances (pisolver's
  // reduction too, into sums of its own).
  std::map<std::string, std::size_t> references;
  for (const auto& r : runs.rows) {
    if (r.loop.ends_with("@reference")) {
      ++references[r.loop];
      EXPECT_EQ(r.arm, "balanced-reference");
    }
  }
  EXPECT_EQ(references["stream-triad/triad@reference"], 4U * 2 * 4 + 2U * 4);
  EXPECT_EQ(references["pisolver/integrate@reference"], 4U * 2 * 4 + 2U * 4);
  EXPECT_EQ(references.size(), 2U);
  EXPECT_EQ(runs.rows.size(), 2U * (2U * 4 * 2 * 4 + 2U * 2 * 4));

  ReportOptions options;
  options.dir = dir.string();
  options.plot_methods = {"Oracle", "ExhaustiveSel"};
  const ReportOutcome report = write_report(options);
  for (const char* file :
       {"summary.md", "metrics.csv", "steps.csv", "process-levels.csv", "heatmap.gp", "heatmap.dat"}) {
    EXPECT_TRUE(fs::exists(dir / file)) << file;
  }
  EXPECT_TRUE(fs::exists(dir / "selection-pisolver-integrate-ExhaustiveSel.gp"));
  EXPECT_EQ(first_data_line(dir / "metrics.csv"),
            "phase,app,loop,config,kind,reps,total_ms,oracle_ms,best_arm,degradation_pct,regret_pct,"
            "explored_steps_pct,explored_time_pct,explored_lost_ms,settled_step,same_arm_pct,near_oracle_pct,"
            "selector_ns,rep_spread_pct,choice_pct,run_level");
  EXPECT_EQ(first_data_line(dir / "steps.csv"), "app,loop,config,step,median_ns,arm,oracle_ns,oracle_arm");
  EXPECT_EQ(first_data_line(dir / "process-levels.csv"), "phase,app,loop,config,rep,level");
  if (std::system("command -v gnuplot >/dev/null 2>&1") == 0) {
    EXPECT_TRUE(fs::exists(dir / "heatmap.png"));
    EXPECT_TRUE(fs::exists(dir / "selection-stream-triad-triad-Oracle.png"));
  }
  std::ifstream summary(dir / "summary.md");
  const std::string text((std::istreambuf_iterator<char>(summary)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("## Degradation vs the Oracle"), std::string::npos);
  EXPECT_NE(text.find("| ExhaustiveSel |"), std::string::npos);
  EXPECT_NE(text.find("| auto (warm) |"), std::string::npos);
  EXPECT_NE(text.find("Level-adjusted loops: pisolver/integrate, stream-triad/triad."), std::string::npos);
  EXPECT_NE(text.find("## Process levels"), std::string::npos);
  EXPECT_EQ(text.find("@reference"), std::string::npos);  // never a loop of its own
  EXPECT_NE(report.degradation_table.find("pisolver/integrate"), std::string::npos);

  // metrics.csv: one row per (phase, loop, config); no arm below the Oracle.
  std::ifstream metrics(dir / "metrics.csv");
  std::string line;
  int rows = 0, arms = 0;
  bool header = true;
  while (std::getline(metrics, line)) {
    if (line.empty() || line[0] == '#') continue;
    if (header) {
      header = false;
      continue;
    }
    const auto f = split_csv(line);
    ASSERT_EQ(f.size(), 21U) << line;
    ++rows;
    if (f[4] == "arm") {
      ++arms;
      EXPECT_GE(std::stod(f[6]), std::stod(f[7]) * (1 - 1e-9)) << line;  // total ≥ Oracle
    }
  }
  EXPECT_EQ(rows, 2 * 4 + 2);
  EXPECT_EQ(arms, 2 * 2);

  // A campaign with a cell not measured: the heatmap draws one box per
  // measured cell (the blank stays blank) and the report says it is incomplete.
  for (const auto& note : report.notes) EXPECT_EQ(note.find("incomplete campaign"), std::string::npos) << note;
  {
    std::ifstream in(dir / "runs.csv");
    std::string kept, row;
    while (std::getline(in, row)) {
      if (row.find(",stream-triad,") != std::string::npos && row.find(",ExhaustiveSel,") != std::string::npos) continue;
      kept += row + '\n';
    }
    in.close();
    std::ofstream(dir / "runs.csv") << kept;
  }
  const ReportOutcome partial = write_report(options);
  bool said = false;
  for (const auto& note : partial.notes) said = said || note.find("incomplete campaign: 1 of ") != std::string::npos;
  EXPECT_TRUE(said) << "no note says the campaign is incomplete";
  std::ifstream gp(dir / "heatmap.gp");
  const std::string script((std::istreambuf_iterator<char>(gp)), std::istreambuf_iterator<char>());
  EXPECT_NE(script.find("with boxxyerror"), std::string::npos) << script;
  EXPECT_NE(script.find("incomplete campaign"), std::string::npos) << script;
  fs::remove_all(dir);
}

// A campaign stopped while a run's rows were being written: --resume keeps
// the complete runs, redoes the cut-off one, and refuses another plan.
TEST(MicroCampaign, ResumeKeepsCompleteRunsAndRedoesTheCutOffOne) {
  BenchPlan plan = micro_plan("autosched_micro_resume", {"pisolver"});
  const fs::path dir = plan.out_dir;
  ASSERT_EQ(run_bench(plan).runs, 4);
  const fs::path path = dir / "runs.csv";
  const std::size_t all_rows = read_runs(path.string()).rows.size();
  ASSERT_EQ(all_rows, 4U * 4 * 2);  // runs × steps × (loop + its reference)

  // Cut the file inside the last run, in the middle of a line, as a kill
  // during stdio's write of its buffer leaves it.
  std::vector<std::string> lines;
  {
    std::ifstream in(path);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
  }
  {
    std::ofstream out(path, std::ios::trunc);
    for (std::size_t i = 0; i + 3 < lines.size(); ++i) out << lines[i] << '\n';
    out << lines[lines.size() - 3].substr(0, 10);  // half a line, no newline
  }
  plan.resume = true;
  const BenchOutcome resumed = run_bench(plan);
  EXPECT_EQ(resumed.kept, 3);
  EXPECT_EQ(resumed.runs, 1);
  const RunsTable after = read_runs(path.string());
  EXPECT_EQ(after.rows.size(), all_rows);
  std::map<std::string, int> per_run;
  for (const auto& r : after.rows) ++per_run[r.config + "/" + std::to_string(r.rep)];
  EXPECT_EQ(per_run.size(), 4U);
  for (const auto& [run, rows] : per_run) EXPECT_EQ(rows, 4 * 2) << run;
  EXPECT_FALSE(meta_value(after.meta, "resumed").empty());
  EXPECT_EQ(run_bench(plan).runs, 0);  // nothing left to run

  // Other programs (a rebuild after a change of the code) are another campaign.
  const auto set_binaries_line = [&path](const std::string& value) {
    std::vector<std::string> kept;
    std::ifstream in(path);
    for (std::string line; std::getline(in, line);) {
      if (line.rfind("# binaries: ", 0) == 0) line = "# binaries: " + value;
      kept.push_back(line);
    }
    in.close();
    std::ofstream out(path, std::ios::trunc);
    for (const auto& line : kept) out << line << '\n';
  };
  set_binaries_line("fnv1a64 0123456789abcdef of the 1 programs");
  try {
    (void)run_bench(plan);
    FAIL() << "a resume with other binaries was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("measured with binaries 'fnv1a64 0123456789abcdef"), std::string::npos)
        << e.what();
  }
  set_binaries_line(meta_value(after.meta, "binaries"));  // put the digest back
  EXPECT_EQ(run_bench(plan).runs, 0);

  plan.steps = 5;
  try {
    (void)run_bench(plan);
    FAIL() << "a resume with other steps was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("measured with steps '4', this campaign has '5'"), std::string::npos)
        << e.what();
  }
  plan.steps = 4;
  plan.configs = select_arms("ss");
  try {
    (void)run_bench(plan);
    FAIL() << "a resume without a configuration the file holds was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("under static, which this campaign does not plan"), std::string::npos)
        << e.what();
  }
  fs::remove_all(dir);
}

TEST(MicroCampaign, MissingAppsAreNamed) {
  BenchPlan plan;
  plan.apps = {"pisolver"};
  plan.configs = select_arms("ss");
  plan.out_dir = (fs::temp_directory_path() / "autosched_micro_missing").string();
  plan.bin_dir = "/nonexistent";
  try {
    (void)run_bench(plan);
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/autosched-pisolver: not found"), std::string::npos);
  }
}

}  // namespace
}  // namespace autosched::campaign
