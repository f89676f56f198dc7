// The pull interface: every thread of a "team" (here plain std::threads, as
// an interposed OpenMP runtime or an MPI coordinator would have) enters the
// same instance, asks for chunks one by one, and leaves; the last one closes.
#include <autosched/drive/cursor.hpp>
#include <autosched/drive/loop.hpp>

#include "drive/virtual_time.hpp"

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
                         [](const auto& test) {
                           std::string s = test.param;
                           for (char& c : s) {
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return s;
                         });

// The drop-in's per-chunk pattern: the unit-chunk path, then static-steal's
// owner path, then next() (which steals and ends the loop). Together they
// cover every index once, whichever path applies to the schedule.
class PullQuickPaths : public ::testing::TestWithParam<std::string> {};

TEST_P(PullQuickPaths, EveryIndexOnceThroughTheQuickPaths) {
  Loop& l = loop("pull-quick/" + GetParam());
  const Team team{3, 500, 4099, GetParam()};
  auto hits = std::make_unique<std::atomic<int>[]>(static_cast<std::size_t>(team.n));
  std::atomic<std::int64_t> quick{0};
  std::vector<std::thread> threads;
  for (int tid = 0; tid < team.p; ++tid) {
    threads.emplace_back([&, tid] {
      for (std::uint64_t k = 0; k < 4; ++k) {
        Instance* inst = l.open_or_attach({&team, k}, {.begin = team.begin, .n = team.n, .p = team.p,
                                                       .schedule = team.schedule});
        Cursor cursor(*inst, tid);
        for (;;) {
          std::int64_t b = 0, e = 0;
          if (cursor.next_unit(b)) {
            e = b + 1;
            ++quick;
          } else if (cursor.next_owned(b, e)) {
            ++quick;
          } else {
            const IndexRange c = cursor.next();
            if (c.empty()) break;
            b = c.begin;
            e = c.end;
          }
          for (std::int64_t i = b; i < e; ++i) hits[static_cast<std::size_t>(i - team.begin)]++;
        }
        EXPECT_EQ(cursor.leave(), nullptr);
      }
    });
  }
  for (auto& t : threads) t.join();
  for (std::int64_t i = 0; i < team.n; ++i) ASSERT_EQ(hits[static_cast<std::size_t>(i)], 4) << "index " << i;
  if (GetParam() == "gss") {
    EXPECT_EQ(quick.load(), 0);  // neither quick path applies
  } else {
    EXPECT_GT(quick.load(), 0);
  }
  std::int64_t iterations = 0;
  const auto r = l.last();  // a named copy: the loop's range would outlive a temporary one
  for (const auto& t : r->threads) iterations += t.iterations;
  EXPECT_EQ(iterations, team.n);  // the quick paths count what they hand out
}

INSTANTIATE_TEST_SUITE_P(Schedules, PullQuickPaths, ::testing::Values("ss", "static-steal", "static-steal,chunk=7", "gss"),
                         [](const auto& param) {
                           std::string s = param.param;
                           for (char& c : s) {
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return s;
                         });

TEST(Pull, ACancelledStaticStealInstanceHandsOutNothingMore) {
  const Team team{1, 0, 1000, "static-steal"};
  Instance* inst = loop("pull/cancel-steal").open_or_attach({&team, 0}, {.n = 1000, .p = 1, .schedule = "static-steal"});
  Cursor cursor(*inst, 0);
  std::int64_t b = 0, e = 0;
  ASSERT_TRUE(cursor.next_owned(b, e));
  EXPECT_EQ(b, 0);
  inst->cancel();
  EXPECT_FALSE(cursor.next_owned(b, e));
  EXPECT_TRUE(cursor.next().empty());
  EXPECT_EQ(cursor.leave(), nullptr);
}

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

// Guarded trials in pull mode, in virtual time: the same planted costs as the
// push-mode guard tests (tests/loops/test_selection.cpp). Each chunk charges
// 1 µs plus 1 ns per iteration; ss with chunk 1 over 2^16 iterations runs far
// past twice static's time, so its trial must be cut and its rest must run
// on the fallback arm, every index still exactly once.
constexpr std::int64_t guard_n = std::int64_t{1} << 16;

/// One pulled instance on two threads whose chunks charge their cost.
InstanceRecord run_charged_pulled(const std::string& loop_name, const std::string& schedule, std::uint64_t k) {
  testing::VirtualClock::next_instance();
  Loop& l = loop(loop_name);
  static const int team_tag = 0;
  auto hits = std::make_unique<std::atomic<std::uint8_t>[]>(static_cast<std::size_t>(guard_n));
  std::vector<std::thread> threads;
  for (int tid = 0; tid < 2; ++tid) {
    threads.emplace_back([&, tid] {
      const OpenRequest request{.n = guard_n, .p = 2, .schedule = schedule};
      Instance* inst = l.open_or_attach({&team_tag, k}, request);
      Cursor cursor(*inst, tid);
      for (IndexRange c; !(c = cursor.next()).empty();) {
        testing::VirtualClock::charge(1000 + c.size());
        for (std::int64_t i = c.begin; i < c.end; ++i) hits[static_cast<std::size_t>(i)].fetch_add(1);
      }
      EXPECT_EQ(cursor.leave(), nullptr);
    });
  }
  for (auto& t : threads) t.join();
  std::int64_t wrong = 0;
  for (std::int64_t i = 0; i < guard_n; ++i) wrong += hits[static_cast<std::size_t>(i)].load() != 1;
  EXPECT_EQ(wrong, 0) << schedule << ", instance " << k;
  return *l.last();
}

TEST(PullGuard, ACatastrophicTrialIsCutAndItsRestRunsOnTheFallback) {
  const testing::VirtualClock clock;
  std::vector<bool> cut;
  std::vector<std::string> technique;
  for (std::uint64_t k = 0; k < 6; ++k) {
    const InstanceRecord r = run_charged_pulled("pull/guard", "auto,predict=no,portfolio=static,ss", k);
    cut.push_back(r.cut_short);
    technique.emplace_back(r.technique);
  }
  // Instance 0 is the warm-up, 1 the static trial, 2 the ss trial.
  EXPECT_EQ(technique[2], "ss");
  EXPECT_TRUE(cut[2]) << "the ss trial was not cut";
  for (int k : {0, 1, 3, 4, 5}) {
    EXPECT_EQ(technique[static_cast<std::size_t>(k)], "static") << k;
    EXPECT_FALSE(cut[static_cast<std::size_t>(k)]) << k;
  }
}

TEST(PullGuard, ClaimingTrialsAndTimedFallbacks) {
  const testing::VirtualClock clock;
  std::vector<bool> cut;
  std::vector<std::string> technique;
  for (std::uint64_t k = 0; k < 5; ++k) {  // warm-up, awf-b, the rnd:1 trial, then awf-b again
    const InstanceRecord r = run_charged_pulled("pull/guard-claims", "auto,predict=no,portfolio=awf-b,rnd:1", k);
    cut.push_back(r.cut_short);
    technique.emplace_back(r.technique);
  }
  EXPECT_EQ(technique[2], "rnd");
  EXPECT_TRUE(cut[2]) << "the rnd:1 trial was not cut";
  for (int k : {0, 1, 3, 4}) {
    EXPECT_EQ(technique[static_cast<std::size_t>(k)], "awf-b") << k;
    EXPECT_FALSE(cut[static_cast<std::size_t>(k)]) << k;
  }
}

}  // namespace
}  // namespace autosched::drive
