// AUTOSCHED_PINNING=round-robin for the loop runtime's teams: the first
// parallel loop starts the manager, both threads of a 2-thread team register
// once, report heartbeats from their loop records, and are pinned to distinct
// allowed cores. Nothing here judges wall-clock time: the waits poll for a
// state with a generous bound that only stops a broken run.
#include <autosched/pinning/team_pinning.hpp>
#include <autosched/pinning/affinity.hpp>

#include "team_pinning_support.hpp"

#include <gtest/gtest.h>

#include <omp.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#if defined(__SANITIZE_THREAD__)
#define TEAM_PINNING_UNDER_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define TEAM_PINNING_UNDER_TSAN 1
#endif
#endif

namespace autosched {
namespace {

class TeamPinning : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    // Before the first parallel loop of the process; a short period so that
    // the manager acts soon.
    ::setenv("AUTOSCHED_PINNING", "round-robin,period=0.02", 1);
    // Read before any loop: afterwards this thread is a pinned team thread.
    process_cores = pinning::allowed_cores().size();
  }
  void SetUp() override {
    if (pinning::openmp_binding().bound) GTEST_SKIP() << "an OpenMP binding keeps the manager off";
    if (process_cores < 2) GTEST_SKIP() << "needs two allowed cores";
  }
  static inline std::size_t process_cores = 0;
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

// A child forked while the manager runs has no manager thread: its loops run
// unpinned and it exits without joining a thread it does not have (or waiting
// for a lock a parent thread held). Runs after the test above, in its process.
TEST_F(TeamPinning, ForkedChildRunsLoopsUnpinnedAndExits) {
#ifdef TEAM_PINNING_UNDER_TSAN
  // LLVM 14's Archer (OMP_TOOL_LIBRARIES in the tsan preset) crashes in
  // libomp's finaliser in a child forked after an OpenMP team ran, whatever
  // the child does; the fork path is checked in the other builds.
  GTEST_SKIP() << "Archer crashes at exit in a forked child of an OpenMP program";
#endif
  ASSERT_EQ(testing::run_counted_loop(1000, 2), 0);  // the manager runs (started by now)
  ASSERT_NE(loop_pinning_manager(), nullptr);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    // One thread: an OpenMP team after fork is not portable (libgomp).
    int code = loop_pinning_manager() == nullptr ? 0 : 3;
    if (testing::run_counted_loop(1000, 1) != 0) code = 4;
    std::exit(code);
  }
  int status = 0;
  pid_t done = 0;
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while ((done = ::waitpid(child, &status, WNOHANG)) == 0 && std::chrono::steady_clock::now() < give_up) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (done == 0) {
    ::kill(child, SIGKILL);
    ::waitpid(child, &status, 0);
    FAIL() << "the forked child did not exit";
  }
  ASSERT_TRUE(WIFEXITED(status)) << "status " << status;
  EXPECT_EQ(WEXITSTATUS(status), 0);
  EXPECT_NE(loop_pinning_manager(), nullptr) << "the parent keeps its manager";
}

}  // namespace
}  // namespace autosched
