// Loops in flight at the same time never share state: two teams opened by
// two threads, nested teams, and work-shared loops in a user's region with
// and without nowait.
#include <autosched/loops/loops.hpp>

#include "loop_test_support.hpp"

#include <gtest/gtest.h>
#include <omp.h>

#include <atomic>
#include <thread>
#include <vector>

namespace autosched {
namespace {

// The same adaptive loop from three threads at once, each with its own team
// size: the instances share the loop's memory (AWF's history is restarted
// for each new team size) and must neither corrupt it nor each other.
TEST(ConcurrentLoops, SameAdaptiveLoopFromThreadsWithDifferentTeams) {
  std::atomic<int> wrong{0};
  auto run = [&](int team) {
    for (int k = 0; k < 20; ++k) {
      std::vector<std::atomic<int>> hits(5000);
      parallel_for(0, 5000, [&](int i) { hits[static_cast<std::size_t>(i)].fetch_add(1); },
                   {.name = "concurrent/awf-shared", .schedule = "awf", .threads = team});
      for (auto& h : hits) wrong += h.load() != 1;
    }
  };
  std::thread a(run, 1), b(run, 2), c(run, 3);
  a.join();
  b.join();
  c.join();
  EXPECT_EQ(wrong.load(), 0);
  EXPECT_EQ(last_instance("concurrent/awf-shared")->n, 5000);
}

// A loop inside a loop body opens its own (nested) team and never joins the
// outer one; with nesting disabled it runs on the calling thread.
TEST(ConcurrentLoops, NestedLoopsCoverTheProductOnce) {
  for (int levels : {1, 2}) {
    omp_set_max_active_levels(levels);
    std::vector<std::atomic<int>> hits(40 * 50);
    parallel_for(0, 40,
                 [&](int i) {
                   parallel_for(0, 50, [&](int j) { hits[static_cast<std::size_t>(i * 50 + j)].fetch_add(1); },
                                {.name = "nested/inner", .schedule = "gss", .threads = 2});
                 },
                 {.name = "nested/outer", .schedule = "ss", .threads = 2});
    for (auto& h : hits) ASSERT_EQ(h.load(), 1) << "levels=" << levels;
    EXPECT_EQ(last_instance("nested/inner")->p, levels == 1 ? 1 : 2);
  }
  omp_set_max_active_levels(1);
}

// Inside a user's parallel region the call work-shares with that team.
TEST(ConcurrentLoops, JoinsTheEnclosingTeam) {
  std::vector<std::atomic<int>> hits(10000);
#pragma omp parallel num_threads(3)
  {
    parallel_for(0, 10000, [&](int i) { hits[static_cast<std::size_t>(i)].fetch_add(1); },
                 {.name = "joined/plain", .schedule = "fac2"});
  }
  for (auto& h : hits) ASSERT_EQ(h.load(), 1);
  EXPECT_EQ(last_instance("joined/plain")->p, 3);
}

// In a work-shared loop each thread runs its own body object, so captures of
// thread-private variables refer to that thread's copy (as in `omp for`).
TEST(ConcurrentLoops, JoinedThreadsRunTheirOwnBodies) {
  std::vector<std::atomic<int>> owner(3000);
#pragma omp parallel num_threads(3)
  {
    const int me = omp_get_thread_num();  // private to each thread
    parallel_for(0, 3000, [&](int i) { owner[static_cast<std::size_t>(i)].store(me + 1); },
                 {.name = "joined/private", .schedule = "ss,chunk=7"});
    // Every index was written by the thread that ran it, through its own `me`.
  }
  const auto r = last_instance("joined/private");
  std::vector<std::int64_t> by_owner(3, 0);
  for (auto& o : owner) {
    ASSERT_GE(o.load(), 1);
    ++by_owner[static_cast<std::size_t>(o.load() - 1)];
  }
  for (int t = 0; t < 3; ++t) EXPECT_EQ(by_owner[t], r->threads[t].iterations) << "thread " << t;
}

// nowait: a thread leaves a loop as soon as the loop has no work for it,
// without the exit barrier. (Opening the next work-shared loop still waits
// for the team, docs/loops.md.) Every index of every round runs once.
TEST(ConcurrentLoops, NowaitLoopsLeaveWithoutTheExitBarrier) {
  std::vector<std::atomic<int>> first(20000), second(20000);
#pragma omp parallel num_threads(3)
  {
    for (int round = 0; round < 5; ++round) {
      parallel_for(0, 20000,
                   [&](int i) {
                     testing::random_work(i, 50);
                     first[static_cast<std::size_t>(i)].fetch_add(1);
                   },
                   {.name = "joined/first", .schedule = "awf-b", .nowait = true});
      parallel_for(0, 20000, [&](int i) { second[static_cast<std::size_t>(i)].fetch_add(1); },
                   {.name = "joined/second", .schedule = "af", .nowait = true});
    }
  }
  for (auto& h : first) ASSERT_EQ(h.load(), 5);
  for (auto& h : second) ASSERT_EQ(h.load(), 5);
}

// A body that opens its own parallel region: calls inside that region
// work-share with it (they are deeper than the body), instead of the
// region's master opening a team its team-mates never join (which hung).
TEST(ConcurrentLoops, RegionOpenedInsideABodyWorkShares) {
  omp_set_max_active_levels(2);
  std::vector<std::atomic<int>> hits(8 * 100);
  parallel_for(0, 8,
               [&](int i) {
#pragma omp parallel num_threads(2)
                 parallel_for(0, 100, [&](int j) { hits[static_cast<std::size_t>(i * 100 + j)].fetch_add(1); },
                              {.name = "nested/region-inner", .schedule = "gss"});
               },
               {.name = "nested/region-outer", .schedule = "ss", .threads = 2});
  omp_set_max_active_levels(1);
  for (auto& h : hits) ASSERT_EQ(h.load(), 1);
  EXPECT_EQ(last_instance("nested/region-inner")->p, 2);
}

// Team::open from inside a region: each calling thread gets its own team.
TEST(ConcurrentLoops, OpenFromEveryThreadOfARegion) {
  omp_set_max_active_levels(2);
  std::vector<std::atomic<int>> hits(2 * 1000);
#pragma omp parallel num_threads(2)
  {
    const int t = omp_get_thread_num();
    parallel_for(0, 1000, [&](int i) { hits[static_cast<std::size_t>(t * 1000 + i)].fetch_add(1); },
                 {.name = "open/per-thread", .schedule = "tss", .threads = 2, .team = Team::open});
  }
  omp_set_max_active_levels(1);
  for (auto& h : hits) ASSERT_EQ(h.load(), 1);
}

}  // namespace
}  // namespace autosched
