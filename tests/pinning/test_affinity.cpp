// The affinity and /proc wrappers on this machine.
#include <autosched/pinning/affinity.hpp>

#include <gtest/gtest.h>
#include <sched.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <thread>

namespace {

namespace p = autosched::pinning;

TEST(Affinity, AllowedCoresAreTheProcessMask) {
  cpu_set_t set;
  CPU_ZERO(&set);
  ASSERT_EQ(sched_getaffinity(0, sizeof set, &set), 0);
  const auto cores = p::allowed_cores();
  ASSERT_FALSE(cores.empty());
  EXPECT_EQ(static_cast<int>(cores.size()), CPU_COUNT(&set));
  for (int c : cores) EXPECT_TRUE(CPU_ISSET(c, &set));
  EXPECT_TRUE(std::is_sorted(cores.begin(), cores.end()));
}

TEST(Affinity, PinsAnotherThreadByTidAndReadsItBack) {
  const auto cores = p::allowed_cores();
  std::atomic<pid_t> tid{0};
  std::atomic<bool> done{false};
  std::thread t([&] {
    tid = p::current_tid();
    while (!done.load()) std::this_thread::yield();
  });
  while (tid.load() == 0) std::this_thread::yield();
  EXPECT_EQ(p::pin_thread(tid, cores.back()), 0);
  int error = -1;
  const auto now = p::thread_affinity(tid, &error);
  ASSERT_TRUE(now.has_value());
  EXPECT_EQ(error, 0);
  EXPECT_EQ(*now, std::vector<int>{cores.back()});
  EXPECT_EQ(p::set_thread_affinity(tid, cores), 0);
  EXPECT_EQ(p::thread_affinity(tid).value(), cores);
  // The thread shows up in our /proc listing while it runs.
  const auto listed = p::process_threads(0);
  EXPECT_NE(std::find(listed.begin(), listed.end(), tid.load()), listed.end());
  EXPECT_NE(std::find(listed.begin(), listed.end(), p::current_tid()), listed.end());
  done = true;
  t.join();
  // Ended: an errno, not an exception. join() returns when the kernel has
  // cleared the thread's tid word, a moment before the task is gone, so the
  // first calls may still succeed. (A tid is reused only after the kernel
  // cycles through pid_max, far beyond this test.)
  int rc = 0;
  for (int i = 0; i < 10000 && rc == 0; ++i) {
    rc = p::pin_thread(tid, cores.front());
    if (rc == 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  EXPECT_EQ(rc, ESRCH);
  error = 0;
  EXPECT_FALSE(p::thread_affinity(tid, &error).has_value());
  EXPECT_EQ(error, ESRCH);
  EXPECT_EQ(p::pin_thread(p::current_tid(), -1), EINVAL);
}

TEST(Affinity, AProcessThatDoesNotExistHasNoThreads) {
  EXPECT_TRUE(p::process_threads(0x3ffffff).empty());  // above any pid_max Linux allows
}

TEST(Affinity, OpenMpBindingFromTheEnvironment) {
  // setenv is safe here: this test executable starts no threads of its own
  // while it runs (the one above has joined).
  ::unsetenv("OMP_PROC_BIND");
  ::unsetenv("OMP_PLACES");
  EXPECT_FALSE(p::openmp_binding().bound);
  ::setenv("OMP_PROC_BIND", "FALSE", 1);
  EXPECT_FALSE(p::openmp_binding().bound);
  ::setenv("OMP_PROC_BIND", "spread", 1);
  EXPECT_TRUE(p::openmp_binding().bound);
  EXPECT_EQ(p::openmp_binding().reason, "OMP_PROC_BIND=spread");
  ::unsetenv("OMP_PROC_BIND");
  ::setenv("OMP_PLACES", "cores", 1);
  EXPECT_TRUE(p::openmp_binding().bound);
  EXPECT_EQ(p::openmp_binding().reason, "OMP_PLACES=cores");
  ::unsetenv("OMP_PLACES");
}

TEST(Affinity, FormatsCoreLists) {
  EXPECT_EQ(p::format_cores(std::vector<int>{0, 1, 2, 5, 7, 8}), "0-2,5,7-8");
  EXPECT_EQ(p::format_cores(std::vector<int>{3}), "3");
  EXPECT_EQ(p::format_cores(std::vector<int>{}), "");
}

}  // namespace
