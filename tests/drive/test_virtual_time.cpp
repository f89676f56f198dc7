// The driver's clock seam: now() is now_ns() until a clock is installed,
// ScopedClock nests and restores, and the virtual clock the loop tests use
// (virtual_time.hpp) behaves as its model says.
#include <autosched/measure/clock.hpp>
#include <autosched/measure/clock.hpp>

#include "drive/virtual_time.hpp"

#include <gtest/gtest.h>
#include <omp.h>

#include <atomic>
#include <thread>

namespace autosched {
namespace {

std::int64_t seven() noexcept { return 7; }
std::int64_t eleven() noexcept { return 11; }

TEST(DriveClock, FollowsNowNsByDefault) {
  const std::int64_t before = now_ns();
  const std::int64_t read = measure::now();
  const std::int64_t after = now_ns();
  EXPECT_LE(before, read);  // the same monotonic clock, read in between
  EXPECT_LE(read, after);
}

TEST(DriveClock, SetClockInstallsAndNullRestores) {
  measure::set_clock(&seven);
  EXPECT_EQ(measure::now(), 7);
  measure::set_clock(nullptr);
  const std::int64_t before = now_ns();
  EXPECT_GE(measure::now(), before);
}

TEST(DriveClock, ScopedClocksNestAndRestore) {
  {
    const measure::ScopedClock outer(&seven);
    EXPECT_EQ(measure::now(), 7);
    {
      const measure::ScopedClock inner(&eleven);
      EXPECT_EQ(measure::now(), 11);
    }
    EXPECT_EQ(measure::now(), 7);
  }
  EXPECT_NE(measure::now(), 7);
}

TEST(VirtualClock, EachThreadCountsWhatItChargedSinceTheEpoch) {
  const testing::VirtualClock clock;
  const std::int64_t start = measure::now();
  testing::VirtualClock::charge(250);
  EXPECT_EQ(measure::now(), start + 250);
  std::int64_t other = 0;
  std::thread t([&] { other = measure::now(); });  // charged nothing yet
  t.join();
  EXPECT_EQ(other, start);
  testing::VirtualClock::next_instance();  // every thread starts over, later
  const std::int64_t next = measure::now();
  EXPECT_GT(next, start + 250);
  std::thread u([&] { other = measure::now(); });
  u.join();
  EXPECT_EQ(other, next);
}

// VirtualOrder on a plain OpenMP team with a shared counter: thread 0 pays
// three times as much per chunk, so it asks a third as often and runs a
// quarter of the chunks, however the threads are scheduled.
TEST(VirtualOrder, ATeamAsksInVirtualTimeOrder) {
  const testing::VirtualClock clock;
  constexpr std::int64_t chunks = 400;
  for (int run = 0; run < 3; ++run) {
    testing::VirtualClock::next_instance();
    testing::VirtualOrder order(2, chunks);
    std::atomic<std::int64_t> next{0};
    std::atomic<std::int64_t> ran[2] = {0, 0};
#pragma omp parallel num_threads(2)
    {
      const int tid = omp_get_thread_num();
      while (next.fetch_add(1) < chunks) {
        ran[tid].fetch_add(1);
        order.run(tid, 1, tid == 0 ? 3 : 1);
      }
    }
    ASSERT_FALSE(order.wrong_team());
    EXPECT_EQ(ran[0].load() + ran[1].load(), chunks);
    EXPECT_EQ(ran[0].load(), chunks / 4) << "run " << run;
  }
}

}  // namespace
}  // namespace autosched
