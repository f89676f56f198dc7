// AUTOSCHED_PINNING=round-robin for the loop runtime's teams: the first
// parallel loop starts the manager, both threads of a 2-thread team register
// once, report heartbeats from their loop records, and are pinned to distinct
// allowed cores. Nothing here judges wall-clock time: the waits poll for a
// state with a generous bound that only stops a broken run.
#include <autosched/loops/team_pinning.hpp>
#include <autosched/pinning/affinity.hpp>

#include "team_pinning_support.hpp"

#include <gtest/gtest.h>

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

namespace autosched {
namespace {

class TeamPinning : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    // Before the first parallel loop of the process; a short period so that
    // the manager acts soon.
    ::setenv("AUTOSCHED_PINNING", "round-robin,period=0.02", 1);
  }
  void SetUp() override {
    if (pinning::openmp_binding().bound) GTEST_SKIP() << "an OpenMP binding keeps the manager off";
    if (pinning::allowed_cores().size() < 2) GTEST_SKIP() << "needs two allowed cores";
  }
};

/// The kernel tids of the threads that ran iterations of a 2-thread loop.
std::set<pid_t> team_tids() {
  std::mutex m;
  std::set<pid_t> tids;
  parallel_for(0, 2000,
               [&](int) {
                 const pid_t me = pinning::current_tid();
                 std::lock_guard lock(m);
                 tids.insert(me);
               },
               {.name = "team-pinning/tids", .schedule = "static", .threads = 2});
  return tids;
}

TEST_F(TeamPinning, TeamThreadsRegisterOnceAndArePinnedToDistinctCores) {
  EXPECT_EQ(loop_pinning_manager(), nullptr) << "no loop has run yet";
  EXPECT_NE(loop_pinning_status().find("started at the first parallel loop"), std::string::npos)
      << loop_pinning_status();

  for (int k = 0; k < 5; ++k) ASSERT_EQ(testing::run_counted_loop(20000, 2), 0);
  pinning::Manager* pm = loop_pinning_manager();
  ASSERT_NE(pm, nullptr);
  EXPECT_TRUE(pm->running());
  EXPECT_EQ(pm->policy(), pinning::Policy::round_robin);

  const std::set<pid_t> tids = team_tids();
  ASSERT_EQ(tids.size(), 2u) << "a static schedule gives both threads iterations";

  // Keep the team busy until the manager has seen both threads beat and has
  // pinned them (round-robin acts at the first period after the set changed).
  // The manager's cores: the process mask it read. Not allowed_cores() now:
  // that reads the calling thread's mask, and this thread is a team thread.
  const std::vector<int>& allowed = pm->cores();
  ASSERT_GE(allowed.size(), 2u);
  bool done = false;
  std::vector<pinning::ThreadView> views;
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (!done && std::chrono::steady_clock::now() < give_up) {
    ASSERT_EQ(testing::run_counted_loop(20000, 2, "ss,chunk=16"), 0);
    views = pm->threads();
    std::set<pid_t> seen;
    std::set<int> cores;
    bool all_heartbeat = true;
    for (const auto& v : views) {
      seen.insert(v.tid);
      if (v.core >= 0) cores.insert(v.core);
      all_heartbeat = all_heartbeat && v.source == pinning::SpeedSource::heartbeat;
    }
    done = seen == tids && cores.size() == 2 && all_heartbeat;
    if (!done) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ASSERT_TRUE(done) << "the manager did not pin both team threads; " << loop_pinning_status();
  EXPECT_EQ(views.size(), 2u) << "each team thread registers once";

  // The kernel agrees: each team thread may run on exactly one allowed core,
  // and not the same one.
  std::set<int> kernel_cores;
  for (pid_t tid : tids) {
    const auto mask = pinning::thread_affinity(tid);
    ASSERT_TRUE(mask) << "tid " << tid;
    ASSERT_EQ(mask->size(), 1u) << "tid " << tid;
    EXPECT_TRUE(std::binary_search(allowed.begin(), allowed.end(), mask->front()));
    kernel_cores.insert(mask->front());
  }
  EXPECT_EQ(kernel_cores.size(), 2u);

  // More loops neither register the threads again nor lose iterations.
  for (int k = 0; k < 5; ++k) ASSERT_EQ(testing::run_counted_loop(20000, 2, "gss"), 0);
  EXPECT_EQ(pm->threads().size(), 2u);
  EXPECT_NE(loop_pinning_status().find("2 team threads registered"), std::string::npos) << loop_pinning_status();
  EXPECT_NE(loop_pinning_status().find("AUTOSCHED_PINNING=round-robin"), std::string::npos) << loop_pinning_status();
  // The manager is left running: stopping it at exit is part of the test.
}

}  // namespace
}  // namespace autosched
