// fork() while another thread runs loops (core/forked_child.hpp): a child
// forked while a team of the parent opens, chooses or records a loop must
// not wait for ever on a lock that team's threads held, and its loops must
// still cover every index once; a throwing body still reaches the caller.
// Own executable: it forks 200 times from a process with a store. Not under
// ThreadSanitizer: its runtime kills a child of a threaded process that
// starts threads (die_after_fork).
#include <autosched/core/forked_child.hpp>
#include <autosched/loops/loops.hpp>

#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace autosched {
namespace {

/// Iterations of [0, n) that did not run exactly once.
std::int64_t wrong_indices(std::int64_t n, const std::string& name, int threads) {
  std::vector<std::atomic<int>> hits(static_cast<std::size_t>(n));
  parallel_for(std::int64_t{0}, n, [&](std::int64_t i) { hits[static_cast<std::size_t>(i)].fetch_add(1); },
               {.name = name, .schedule = "auto", .threads = threads});
  std::int64_t wrong = 0;
  for (const auto& h : hits) wrong += h.load() != 1;
  return wrong;
}

/// The child's exit code, or -1 when it was still running after `seconds`
/// (then killed): a child stuck on a lock the fork left held.
int wait_bounded(pid_t child, int seconds) {
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  int status = 0;
  for (;;) {
    const pid_t done = ::waitpid(child, &status, WNOHANG);
    if (done == child) return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    if (done < 0) return 200;
    if (std::chrono::steady_clock::now() > give_up) {
      ::kill(child, SIGKILL);
      ::waitpid(child, &status, 0);
      return -1;
    }
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
}

TEST(Fork, ChildrenForkedWhileATeamRunsLoopsFinishTheirOwn) {
  const auto store = std::filesystem::temp_directory_path() / ("autosched-fork-" + std::to_string(::getpid()) + ".db");
  ::setenv("AUTOSCHED_DB", store.c_str(), 1);  // the store's locks and once-flags are on the loops' path
  std::atomic<bool> stop{false};
  std::atomic<long> background_wrong{0};
  std::thread background([&] {
    // Short instances of one loop: its lock is taken and released as often as can be.
    while (!stop.load()) background_wrong += wrong_indices(64, "fork/shared", 2);
  });
  ASSERT_EQ(wrong_indices(10, "fork/first", 1), 0);  // in use before the first fork
  int hung = 0, failed = 0;
  for (int k = 0; k < 200; ++k) {
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      int code = in_forked_child() ? 0 : 5;
      if (wrong_indices(3000, "fork/child", 2) != 0) code = 6;
      if (wrong_indices(3000, "fork/shared", 2) != 0) code = 7;  // the loop the parent's team runs
      try {
        parallel_for(0, 100, [](int i) {
          if (i == 42) throw std::runtime_error("42");
        });
        code = 8;
      } catch (const std::runtime_error&) {
      }
      // Work-sharing with the child's own team: a throwing body must not
      // leave the other thread at the loop's barrier.
      std::atomic<int> caught{0};
#pragma omp parallel num_threads(2)
      {
        try {
          parallel_for(
              0, 100,
              [](int i) {
                if (i == 7) throw std::runtime_error("7");
              },
              {.team = Team::join});
        } catch (const std::runtime_error&) {
          caught.fetch_add(1);
        }
      }
      if (caught.load() < 1) code = 9;
      ::_exit(code);
    }
    const int code = wait_bounded(child, 10);
    hung += code == -1;
    if (hung == 3) break;  // enough to know; each costs 10 s
    if (code != -1 && code != 0) {
      ++failed;
      ADD_FAILURE() << "child " << k << " exited with " << code;
    }
  }
  stop.store(true);
  background.join();
  EXPECT_EQ(hung, 0) << "children stuck on a lock the fork left held";
  EXPECT_EQ(failed, 0);
  EXPECT_EQ(background_wrong.load(), 0);
  EXPECT_FALSE(in_forked_child()) << "the parent is no forked child";
  std::filesystem::remove(store);
  std::filesystem::remove(store.string() + "-wal");
  std::filesystem::remove(store.string() + "-shm");
}

}  // namespace
}  // namespace autosched
