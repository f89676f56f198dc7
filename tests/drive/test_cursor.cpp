// The pull interface: every thread of a "team" (here plain std::threads, as
// an interposed OpenMP runtime or an MPI coordinator would have) enters the
// same instance, asks for chunks one by one, and leaves; the last one closes.
#include <autosched/drive/cursor.hpp>
#include <autosched/drive/loop.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace autosched::drive {
namespace {

struct Team {
  int p;
  std::int64_t begin, n;
  std::string schedule;
};

/// Runs `instances` instances of `loop` on `team.p` threads in pull mode;
/// returns how often each index ran.
std::vector<int> run_pulled(const std::string& loop_name, const Team& team, int instances) {
  Loop& l = loop(loop_name);
  auto hits = std::make_unique<std::atomic<int>[]>(static_cast<std::size_t>(team.n));
  std::vector<std::thread> threads;
  for (int tid = 0; tid < team.p; ++tid) {
    threads.emplace_back([&, tid] {
      for (int k = 0; k < instances; ++k) {
        const OpenRequest request{.begin = team.begin, .n = team.n, .p = team.p, .schedule = team.schedule};
        Instance* inst = l.open_or_attach({&team, static_cast<std::uint64_t>(k)}, request);
        Cursor cursor(*inst, tid);
        for (IndexRange c; !(c = cursor.next()).empty();) {
          for (std::int64_t i = c.begin; i < c.end; ++i) hits[static_cast<std::size_t>(i - team.begin)]++;
        }
        EXPECT_EQ(cursor.leave(), nullptr);
      }
    });
  }
  for (auto& t : threads) t.join();
  std::vector<int> out(static_cast<std::size_t>(team.n));
  for (std::int64_t i = 0; i < team.n; ++i) out[static_cast<std::size_t>(i)] = hits[static_cast<std::size_t>(i)];
  return out;
}

class PullEveryTechnique : public ::testing::TestWithParam<std::string> {};

TEST_P(PullEveryTechnique, EveryIndexOncePerInstanceAndOneRecordEach) {
  const std::string name = "pull/" + GetParam();
  const Team team{3, 1000, 7919, GetParam()};
  const int instances = 5;
  const auto hits = run_pulled(name, team, instances);
  for (std::size_t i = 0; i < hits.size(); ++i) ASSERT_EQ(hits[i], instances) << "index " << i;
  const auto r = find_loop(name)->last();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->instance, static_cast<std::uint64_t>(instances - 1));  // one instance per ticket, not per thread
  EXPECT_EQ(r->p, 3);
  EXPECT_EQ(r->n, 7919);
  std::int64_t iterations = 0;
  for (const auto& t : r->threads) iterations += t.iterations;
  EXPECT_EQ(iterations, 7919);
}

INSTANTIATE_TEST_SUITE_P(Techniques, PullEveryTechnique,
                         ::testing::Values("static", "static,chunk=7", "ss", "gss", "tss", "fac2", "static-steal",
                                           "wf", "awf", "awf-b", "awf-e", "af", "maf", "bold", "rnd", "auto",
                                           "auto:random"),
                         [](const auto& info) {
                           std::string s = info.param;
                           for (char& c : s) {
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return s;
                         });

TEST(Pull, EmptyLoopClosesWithNoChunk) {
  const auto hits = run_pulled("pull/empty", {2, 5, 0, "gss"}, 3);
  EXPECT_TRUE(hits.empty());
  EXPECT_EQ(find_loop("pull/empty")->last()->instance, 2u);
}

TEST(Pull, AReportedFailureStopsTheHandOutAndReachesEveryLeaver) {
  Loop& l = loop("pull/failing");
  const Team team{2, 0, 100000, "ss"};
  std::atomic<int> saw_error{0};
  std::vector<std::thread> threads;
  for (int tid = 0; tid < 2; ++tid) {
    threads.emplace_back([&, tid] {
      Instance* inst = l.open_or_attach({&team, 0}, {.n = team.n, .p = 2, .schedule = "ss"});
      Cursor cursor(*inst, tid);
      if (tid == 0) inst->fail(std::make_exception_ptr(std::runtime_error("body failed")));
      while (!cursor.next().empty()) {
      }
      if (tid == 1) {
        // Wait until thread 0's failure is visible, then leave last or first: either way the error is there.
        while (!inst->cancelled()) std::this_thread::yield();
      }
      if (cursor.leave() != nullptr) ++saw_error;
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(saw_error.load(), 2);
  EXPECT_TRUE(l.last()->failed);
}

TEST(Pull, CursorLeavesWhenDestroyed) {
  const Team team{1, 0, 10, "static"};
  {
    Instance* inst = loop("pull/raii").open_or_attach({&team, 0}, {.n = 10, .p = 1, .schedule = "static"});
    Cursor cursor(*inst, 0);
    EXPECT_EQ(cursor.next().size(), 10);
  }
  EXPECT_EQ(find_loop("pull/raii")->last()->instance, 0u);
}

TEST(Pull, BadScheduleIsAnErrorNamingTheSource) {
  const Team team{1, 0, 10, "nonsense"};
  try {
    (void)loop("pull/bad").open_or_attach({&team, 0},
                                          {.n = 10, .p = 1, .schedule = "nonsense", .schedule_source = "GOMP shim"});
    FAIL() << "no error";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("GOMP shim"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("nonsense"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace autosched::drive
