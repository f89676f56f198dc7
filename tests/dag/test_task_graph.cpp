// Graph shapes against hand counts and the READYS reference (the READYS paper).
#include <autosched/dag/factorizations.hpp>
#include <autosched/dag/durations.hpp>
#include <autosched/dag/platform.hpp>

#include <autosched/core/error.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <unistd.h>
#include <fstream>
#include <map>

namespace {

using namespace autosched::dag;

std::map<std::string, int> kernel_counts(const TaskGraph& g) {
  std::map<std::string, int> out;
  for (std::size_t t = 0; t < g.size(); ++t) ++out[g.kernel_name(static_cast<TaskId>(t))];
  return out;
}

int sources(const TaskGraph& g) {
  int n = 0;
  for (std::size_t t = 0; t < g.size(); ++t) n += g.predecessors(static_cast<TaskId>(t)).empty() ? 1 : 0;
  return n;
}

int sinks(const TaskGraph& g) {
  int n = 0;
  for (std::size_t t = 0; t < g.size(); ++t) n += g.successors(static_cast<TaskId>(t)).empty() ? 1 : 0;
  return n;
}

TEST(TaskGraph, CholeskyCountsMatchTheFormulasAndReadysFiles) {
  const std::map<int, std::pair<int, int>> readys = {{2, {4, 3}},     {4, {20, 30}},   {6, {56, 105}}, {8, {120, 252}},
                                                     {10, {220, 495}}, {12, {364, 858}}, {14, {560, 1365}}};
  for (int T = 2; T <= 14; ++T) {
    const TaskGraph g = cholesky(T);
    EXPECT_EQ(g.size(), static_cast<std::size_t>(T * (T + 1) * (T + 2) / 6)) << T;
    EXPECT_EQ(g.edge_count(), static_cast<std::size_t>(3 * T * (T - 1) / 2 + T * (T - 1) * (T - 2) / 2)) << T;
    const auto c = kernel_counts(g);
    EXPECT_EQ(c.at("POTRF"), T);
    EXPECT_EQ(c.at("TRSM"), T * (T - 1) / 2);
    EXPECT_EQ(c.at("SYRK"), T * (T - 1) / 2);
    EXPECT_EQ(c.count("GEMM") ? c.at("GEMM") : 0, T * (T - 1) * (T - 2) / 6);
    EXPECT_TRUE(g.ids_are_topological());
    EXPECT_EQ(sources(g), 1);
    EXPECT_EQ(sinks(g), 1);
    if (readys.count(T)) {
      EXPECT_EQ(g.size(), static_cast<std::size_t>(readys.at(T).first));
      EXPECT_EQ(g.edge_count(), static_cast<std::size_t>(readys.at(T).second));
    }
  }
}

TEST(TaskGraph, CholeskyTwoByTwoIsAChainOfFour) {
  const TaskGraph g = cholesky(2);
  ASSERT_EQ(g.size(), 4u);
  EXPECT_EQ(g.kernel_name(0), "POTRF");
  EXPECT_EQ(g.kernel_name(1), "TRSM");
  EXPECT_EQ(g.kernel_name(2), "SYRK");
  EXPECT_EQ(g.kernel_name(3), "POTRF");
  for (TaskId t = 0; t < 3; ++t) {
    ASSERT_EQ(g.successors(t).size(), 1u);
    EXPECT_EQ(g.successors(t)[0], t + 1);
  }
}

TEST(TaskGraph, CholeskyFourMatchesGgenNumbering) {
  // ggen's cholesky 4 (the file READYS ships): node 6 is GEMM(2,1,0), fed by
  // TRSM 1 and 2 and feeding TRSM(2,1) = 11; node 15 is GEMM(3,2,1).
  const TaskGraph g = cholesky(4);
  EXPECT_EQ(g.kernel_name(6), "GEMM");
  EXPECT_EQ(std::vector<TaskId>(g.predecessors(6).begin(), g.predecessors(6).end()), (std::vector<TaskId>{1, 2}));
  EXPECT_EQ(std::vector<TaskId>(g.successors(6).begin(), g.successors(6).end()), (std::vector<TaskId>{11}));
  EXPECT_EQ(std::vector<TaskId>(g.predecessors(15).begin(), g.predecessors(15).end()),
            (std::vector<TaskId>{9, 11, 12}));
  EXPECT_EQ(g.kernel_name(19), "POTRF");
}

TEST(TaskGraph, LuCountsMatchTheFormulas) {
  const std::map<int, int> readys_tasks = {{2, 5}, {4, 30}, {6, 91}, {8, 204}, {10, 385}, {12, 650}, {14, 1015}};
  for (int T = 2; T <= 14; ++T) {
    const TaskGraph g = lu(T);
    const int gemms = (T - 1) * T * (2 * T - 1) / 6;
    EXPECT_EQ(g.size(), static_cast<std::size_t>(T + T * (T - 1) + gemms)) << T;
    EXPECT_EQ(g.edge_count(), static_cast<std::size_t>(T * (T - 1) + (T - 1) * T * (2 * T - 1) / 2)) << T;
    const auto c = kernel_counts(g);
    EXPECT_EQ(c.at("GETRF"), T);
    EXPECT_EQ(c.at("TRSM_LL"), T * (T - 1) / 2);
    EXPECT_EQ(c.at("TRSM_RU"), T * (T - 1) / 2);
    EXPECT_EQ(c.at("GEMM"), gemms);
    EXPECT_TRUE(g.ids_are_topological());
    EXPECT_EQ(sources(g), 1);
    EXPECT_EQ(sinks(g), 1);
    if (readys_tasks.count(T)) {
      EXPECT_EQ(g.size(), static_cast<std::size_t>(readys_tasks.at(T)));
    }
  }
}

TEST(TaskGraph, QrIsATrueFlatTree) {
  // T = 2 by hand: GEQRT0 -> UNMQR(0,1), TSQRT(1,0); both -> TSMQR(1,1,0) -> GEQRT1.
  const TaskGraph two = qr(2);
  ASSERT_EQ(two.size(), 5u);
  EXPECT_EQ(two.edge_count(), 5u);
  EXPECT_EQ(two.kernel_name(0), "GEQRT");
  EXPECT_EQ(two.kernel_name(1), "UNMQR");
  EXPECT_EQ(two.kernel_name(2), "TSQRT");
  EXPECT_EQ(two.kernel_name(3), "TSMQR");
  EXPECT_EQ(two.kernel_name(4), "GEQRT");
  EXPECT_EQ(std::vector<TaskId>(two.predecessors(3).begin(), two.predecessors(3).end()), (std::vector<TaskId>{1, 2}));
  for (int T = 2; T <= 12; ++T) {
    const TaskGraph g = qr(T);
    const int tsmqr = (T - 1) * T * (2 * T - 1) / 6;
    EXPECT_EQ(g.size(), static_cast<std::size_t>(T + T * (T - 1) + tsmqr)) << T;
    // GEQRT->UNMQR, GEQRT->TSQRT, the TSQRT chain, and three edges per TSMQR.
    const int edges = T * (T - 1) / 2 + (T - 1) + (T - 1) * (T - 2) / 2 + 3 * tsmqr;
    EXPECT_EQ(g.edge_count(), static_cast<std::size_t>(edges)) << T;
    EXPECT_TRUE(g.ids_are_topological());
    EXPECT_EQ(sources(g), 1);
    EXPECT_EQ(sinks(g), 1);
  }
}

TEST(TaskGraph, ReadysLabelsMislabelAsManyTasksAsTheReferenceCounted) {
  const std::map<int, int> chol = {{4, 6}, {6, 25}, {8, 52}, {10, 91}, {12, 139}, {14, 203}};
  const std::map<int, int> lus = {{4, 2}, {6, 12}, {8, 30}, {10, 56}, {12, 90}, {14, 132}};
  auto wrong = [](const TaskGraph& a, const TaskGraph& b) {
    int n = 0;
    for (std::size_t t = 0; t < a.size(); ++t)
      n += a.task(static_cast<TaskId>(t)).kernel != b.task(static_cast<TaskId>(t)).kernel ? 1 : 0;
    return n;
  };
  for (const auto& [T, expected] : chol) EXPECT_EQ(wrong(cholesky(T), cholesky(T, GraphFlavour::readys)), expected) << T;
  for (const auto& [T, expected] : lus) EXPECT_EQ(wrong(lu(T), lu(T, GraphFlavour::readys)), expected) << T;
}

TEST(TaskGraph, ReadysQrHasItsDefects) {
  for (int T : {4, 6, 8, 10}) {
    const TaskGraph g = qr(T, GraphFlavour::readys);
    EXPECT_EQ(g.size(), lu(T).size()) << T;  // same counts as LU
    EXPECT_FALSE(g.ids_are_topological());
    const auto last_geqrt = static_cast<TaskId>(T - 1);
    EXPECT_TRUE(g.predecessors(last_geqrt).empty());  // isolated
    EXPECT_TRUE(g.successors(last_geqrt).empty());
    EXPECT_EQ(g.topological_order().size(), g.size());
  }
}

TEST(TaskGraph, BadInputIsRejectedWithItsName) {
  EXPECT_THROW(cholesky(1), autosched::Error);
  EXPECT_THROW(factorization("svd", 4), autosched::Error);
  TaskGraph g("cycle", {"A"});
  g.add_task(0);
  g.add_task(0);
  g.add_edge(0, 1);
  g.add_edge(1, 0);
  try {
    g.finalize();
    FAIL() << "a cycle was accepted";
  } catch (const autosched::Error& e) {
    EXPECT_NE(std::string(e.what()).find("cycle"), std::string::npos) << e.what();
  }
  TaskGraph h("self", {"A"});
  h.add_task(0);
  EXPECT_THROW(h.add_edge(0, 0), autosched::Error);
  EXPECT_THROW(h.add_edge(0, 3), autosched::Error);
}

TEST(Platform, ParsesCountsWithGpusFirst) {
  const Platform p = platform("2cpu+2gpu");
  ASSERT_EQ(p.size(), 4u);
  EXPECT_EQ(p.kind(0), ResourceKind::gpu);
  EXPECT_EQ(p.kind(1), ResourceKind::gpu);
  EXPECT_EQ(p.kind(2), ResourceKind::cpu);
  EXPECT_EQ(p.describe(), "2cpu+2gpu");
  EXPECT_EQ(platform("1GPU+3cpu").count(ResourceKind::cpu), 3);
  EXPECT_TRUE(platform("4cpu").homogeneous());
  EXPECT_FALSE(p.homogeneous());
  EXPECT_EQ(p.memory(0), 1);
  EXPECT_EQ(p.memory(1), 2);
  EXPECT_EQ(p.memory(3), 0);
  for (const char* bad : {"", "2tpu", "+", "0cpu", "2cpu+", "cpu2"}) {
    try {
      platform(bad);
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const autosched::Error& e) {
      EXPECT_NE(std::string(e.what()).find("2cpu+2gpu"), std::string::npos) << e.what();
    }
  }
}

TEST(Durations, FilesRoundTripAndErrorsNameTheLine) {
  const auto dir = std::filesystem::temp_directory_path() / ("autosched-dag-durations-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto good = (dir / "good.txt").string();
  {
    std::ofstream(good) << to_text(duration_table("mirage"));
  }
  const DurationTable back = duration_table(good);
  EXPECT_EQ(back.unit, "ms");
  EXPECT_EQ(back.kernels, duration_table("mirage").kernels);
  const auto bad = (dir / "bad.txt").string();
  {
    std::ofstream(bad) << "# unit: ms\nPOTRF 1 2\nGEMM 3 x\n";
  }
  try {
    duration_table(bad);
    FAIL();
  } catch (const autosched::Error& e) {
    EXPECT_NE(std::string(e.what()).find("bad.txt:3"), std::string::npos) << e.what();
  }
  {
    std::ofstream(bad) << "GEMM - 3\nGEMM 1 1\n";
  }
  EXPECT_THROW(duration_table(bad), autosched::Error);
  EXPECT_THROW(duration_table((dir / "missing.txt").string()), autosched::Error);
  // A table lacking a kernel of the graph names it.
  try {
    duration_table("mirage").expected(lu(3));
    FAIL();
  } catch (const autosched::Error& e) {
    EXPECT_NE(std::string(e.what()).find("GETRF"), std::string::npos) << e.what();
  }
  std::filesystem::remove_all(dir);
}

TEST(Durations, NoiseIsTheTruncatedGaussianAndDeterministic) {
  const std::vector<KindDurations> expected(20000, KindDurations{100.0, 10.0});
  const auto a = sample_durations(expected, {.sigma = 0.3}, 7);
  EXPECT_EQ(a, sample_durations(expected, {.sigma = 0.3}, 7));
  EXPECT_NE(a, sample_durations(expected, {.sigma = 0.3}, 8));
  double sum = 0, sq = 0;
  for (const auto& d : a) {
    EXPECT_GE(d[0], 0.0);
    EXPECT_GE(d[1], 0.0);
    sum += d[0];
    sq += d[0] * d[0];
  }
  const double mean = sum / 20000, sd = std::sqrt(sq / 20000 - mean * mean);
  EXPECT_NEAR(mean, 100.0, 1.0);  // truncation at 0 is > 3 sigma away
  EXPECT_NEAR(sd, 30.0, 1.0);
  // READYS's code: CPU untouched, GPU shifted by max(N(0, sigma), -2).
  const auto r = sample_durations(expected, {.sigma = 5, .readys_additive_gpu = true}, 7);
  for (const auto& d : r) {
    EXPECT_EQ(d[0], 100.0);
    EXPECT_GE(d[1], 8.0);
  }
  EXPECT_EQ(sample_durations(expected, {.sigma = 0}, 3), expected);
  EXPECT_THROW(sample_durations(expected, {.sigma = -1}, 3), autosched::Error);
}

}  // namespace
