// A throwing body: chunk hand-out stops, the team joins, the first exception
// reaches the caller, and the same loop runs normally afterwards.
#include <autosched/measure/clock.hpp>
#include <autosched/measure/clock.hpp>
#include <autosched/loops/loops.hpp>

#include "loop_test_support.hpp"

#include <gtest/gtest.h>
#include <omp.h>

#include <atomic>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace autosched {
namespace {

struct BodyFailed : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The failing loop runs on the real clock (nothing here judges time) read
// through a hook that tells the test when the stop is visible: after a body
// throws, its thread reads the driver's clock next to stamp its worker's
// finish, which the driver does only once it has recorded the failure and
// stopped the hand-out (Instance::run_worker: fail(), then the finish time).
// Were that order to change, the threads waiting for the stop would hang and
// ctest's timeout would report it.
thread_local bool threw_here = false;
std::atomic<bool> stop_visible{false};

std::int64_t clock_signalling_the_stop() noexcept {
  if (threw_here) {
    threw_here = false;
    stop_visible.store(true, std::memory_order_release);
  }
  return now_ns();
}

class Exceptions : public ::testing::TestWithParam<std::string> {};

TEST_P(Exceptions, FirstExceptionReachesTheCallerAndTheLoopRecovers) {
  const std::string loop = "exceptions/" + GetParam();
  const std::string schedule = testing::schedule_for(GetParam());
  constexpr std::int64_t n = 2400;
  constexpr std::int64_t middle = n / 2;  // the iteration that throws
  constexpr int p = 3;
  const LoopOptions options{.name = loop, .schedule = schedule, .threads = p};

  // Ordered by events, not by time. A chunk that starts after the middle
  // waits until the middle has thrown, so the throw always leaves chunks
  // unclaimed; a chunk that starts once the throw happened waits until the
  // stop is visible and is abandoned. From then on its thread must be handed
  // nothing more: a hand-out that went on would give it the chunks left.
  std::vector<std::atomic<int>> hits(n);
  std::vector<std::atomic<bool>> saw_stop(p);
  std::atomic<bool> thrown{false};
  std::atomic<int> chunks_after_middle{0};
  std::atomic<int> handed_after_stop{0};
  stop_visible.store(false);
  {
    const measure::ScopedClock clock(&clock_signalling_the_stop);
    try {
      parallel_for_chunks(
          std::int64_t{0}, n,
          [&](std::int64_t first, std::int64_t last) {
            const auto tid = static_cast<std::size_t>(omp_get_thread_num());
            if (saw_stop[tid].load()) handed_after_stop.fetch_add(1);
            if (first > middle) {
              chunks_after_middle.fetch_add(1);
              while (!thrown.load()) std::this_thread::yield();
            }
            if (thrown.load()) {
              while (!stop_visible.load(std::memory_order_acquire)) std::this_thread::yield();
              saw_stop[tid].store(true);
              return;
            }
            for (std::int64_t i = first; i < last; ++i) {
              hits[static_cast<std::size_t>(i)].fetch_add(1);
              if (i == middle) {
                threw_here = true;
                thrown.store(true);
                throw BodyFailed("iteration n/2");
              }
            }
          },
          options);
      FAIL() << "exception not propagated";
    } catch (const BodyFailed& e) {
      EXPECT_STREQ(e.what(), "iteration n/2");
    }
  }
  ASSERT_TRUE(stop_visible.load()) << "the throwing thread never read the clock after its throw";
  const auto failed = last_instance(loop);
  ASSERT_TRUE(failed);
  EXPECT_TRUE(failed->failed);
  EXPECT_EQ(handed_after_stop.load(), 0) << "hand-out did not stop";
  // Each other thread holds at most one chunk past the middle when the stop
  // comes; the thrower held the middle's chunk.
  EXPECT_LE(chunks_after_middle.load(), p - 1);
  EXPECT_EQ(hits[static_cast<std::size_t>(middle)].load(), 1);
  for (const auto& h : hits) ASSERT_LE(h.load(), 1) << "an iteration ran twice";

  // The same loop again, without failure: it runs every iteration once.
  for (auto& h : hits) h.store(0);
  parallel_for_chunks(
      std::int64_t{0}, n,
      [&](std::int64_t first, std::int64_t last) {
        for (std::int64_t i = first; i < last; ++i) hits[static_cast<std::size_t>(i)].fetch_add(1);
      },
      options);
  for (const auto& h : hits) EXPECT_EQ(h.load(), 1);
  EXPECT_FALSE(last_instance(loop)->failed);
}

INSTANTIATE_TEST_SUITE_P(Techniques, Exceptions,
                         ::testing::Values("ss", "gss", "static-steal", "awf", "awf-d", "maf", "bold", "rnd,chunk=20"),
                         testing::param_name);

TEST(Exceptions, EveryThreadOfAJoinedTeamSeesTheException) {
  std::atomic<int> caught{0};
#pragma omp parallel num_threads(3)
  {
    try {
      parallel_for(0, 3000,
                   [](int i) {
                     if (i == 2999) throw BodyFailed("last");
                   },
                   {.name = "exceptions/joined", .schedule = "ss"});
    } catch (const BodyFailed&) {
      caught.fetch_add(1);
    }
  }
  EXPECT_EQ(caught.load(), 3);
}

TEST(Exceptions, BadScheduleInAJoinedTeamIsReportedToEveryThread) {
  std::atomic<int> caught{0};
#pragma omp parallel num_threads(2)
  {
    try {
      parallel_for(0, 10, [](int) {}, {.name = "exceptions/bad-schedule", .schedule = "nosuch"});
    } catch (const Error&) {
      caught.fetch_add(1);
    }
  }
  EXPECT_EQ(caught.load(), 2);
}

}  // namespace
}  // namespace autosched
