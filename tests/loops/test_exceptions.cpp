// A throwing body: chunk hand-out stops, the team joins, the first exception
// reaches the caller, and the same loop runs normally afterwards.
#include <autosched/loops/loops.hpp>

#include "loop_test_support.hpp"

#include <gtest/gtest.h>
#include <omp.h>

#include <atomic>
#include <stdexcept>

namespace autosched {
namespace {

struct BodyFailed : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class Exceptions : public ::testing::TestWithParam<std::string> {};

TEST_P(Exceptions, FirstExceptionReachesTheCallerAndTheLoopRecovers) {
  const std::string loop = "exceptions/" + GetParam();
  const std::string schedule = testing::schedule_for(GetParam());
  constexpr std::int64_t n = 200000;
  std::atomic<std::int64_t> executed{0};
  try {
    parallel_for(std::int64_t{0}, n,
                 [&](std::int64_t i) {
                   if (i == 5) throw BodyFailed("iteration 5");
                   executed.fetch_add(1, std::memory_order_relaxed);
                   testing::spin_ns(200);
                 },
                 {.name = loop, .schedule = schedule, .threads = 3});
    FAIL() << "exception not propagated";
  } catch (const BodyFailed& e) {
    EXPECT_STREQ(e.what(), "iteration 5");
  }
  EXPECT_LT(executed.load(), n - 1) << "hand-out did not stop";
  const auto failed = last_instance(loop);
  ASSERT_TRUE(failed);
  EXPECT_TRUE(failed->failed);

  std::vector<std::atomic<int>> hits(1000);
  parallel_for(0, 1000, [&](int i) { hits[static_cast<std::size_t>(i)].fetch_add(1); },
               {.name = loop, .schedule = schedule, .threads = 3});
  for (auto& h : hits) EXPECT_EQ(h.load(), 1);
  EXPECT_FALSE(last_instance(loop)->failed);
}

INSTANTIATE_TEST_SUITE_P(Techniques, Exceptions,
                         ::testing::Values("ss", "gss", "static-steal", "awf", "awf-d", "maf", "bold", "rnd"),
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
