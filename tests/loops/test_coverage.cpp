// Exactly-once coverage of every technique on real thread teams:
// N ∈ {0, 1, 2, 7, 1000, 10^6+3}, P ∈ {1, 2, 3, 4, 8, 16} (oversubscribed on
// small machines), several chunk parameters, bodies of random cost.
#include <autosched/loops/loops.hpp>

#include "loop_test_support.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <numeric>

namespace autosched {
namespace {

class Coverage : public ::testing::TestWithParam<std::string> {};

TEST_P(Coverage, EveryIterationRunsExactlyOnce) {
  const std::string technique = GetParam();
  const std::string loop = "coverage/" + technique;
  for (std::int64_t n : {0, 1, 2, 7, 1000, 1000003}) {
    auto hits = std::make_unique<std::atomic<std::uint8_t>[]>(static_cast<std::size_t>(std::max<std::int64_t>(n, 1)));
    for (int p : {1, 2, 3, 4, 8, 16}) {
      for (const std::string chunk : {"", "3", "expert"}) {
        for (std::int64_t i = 0; i < n; ++i) hits[i].store(0, std::memory_order_relaxed);
        const std::string schedule = testing::schedule_for(technique, chunk);
        const unsigned max_spins = n > 10000 ? 8 : 400;
        parallel_for(std::int64_t{0}, n,
                     [&](std::int64_t i) {
                       testing::random_work(i, max_spins);
                       hits[i].fetch_add(1, std::memory_order_relaxed);
                     },
                     {.name = loop, .schedule = schedule, .threads = p});
        std::int64_t wrong = 0;
        for (std::int64_t i = 0; i < n; ++i) wrong += hits[i].load(std::memory_order_relaxed) != 1;
        ASSERT_EQ(wrong, 0) << schedule << " n=" << n << " p=" << p;

        const auto record = last_instance(loop);
        ASSERT_TRUE(record);
        EXPECT_EQ(record->technique, technique) << schedule;
        EXPECT_EQ(record->n, n);
        EXPECT_EQ(record->p, p);
        const std::int64_t iterations =
            std::accumulate(record->threads.begin(), record->threads.end(), std::int64_t{0},
                            [](std::int64_t a, const ThreadStats& t) { return a + t.iterations; });
        EXPECT_EQ(iterations, n) << schedule;
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(AllTechniques, Coverage, ::testing::ValuesIn(testing::all_technique_names()),
                         testing::param_name);

// Index types other than int64_t, non-zero and negative starts.
TEST(Coverage, OffsetsAndIndexTypes) {
  std::vector<std::atomic<int>> hits(300);
  parallel_for(-100, 200, [&](int i) { hits[static_cast<std::size_t>(i + 100)].fetch_add(1); },
               {.schedule = "gss", .threads = 3});
  parallel_for(std::uint32_t{0}, std::uint32_t{300}, [&](std::uint32_t i) { hits[i].fetch_add(1); },
               {.schedule = "tss", .threads = 2});
  for (auto& h : hits) EXPECT_EQ(h.load(), 2);
  int calls = 0;
  parallel_for(10, 3, [&](int) { ++calls; });  // empty when end <= begin
  EXPECT_EQ(calls, 0);
}

// Bounds of mixed signs are compared by value, not after the usual
// arithmetic conversions (which turn -5 into 2^64 - 5).
TEST(Coverage, MixedSignBounds) {
  const std::vector<int> v(5);
  std::vector<std::atomic<int>> hits(v.size());
  parallel_for(0, v.size(), [&](std::size_t i) { hits[i].fetch_add(1); }, {.threads = 2});
  parallel_for_chunks(0, v.size(), [&](std::size_t first, std::size_t last) {
    for (std::size_t i = first; i < last; ++i) hits[i].fetch_add(1);
  }, {.threads = 2});
  for (auto& h : hits) EXPECT_EQ(h.load(), 2);

  // A negative begin cannot reach a body taking size_t: an error naming the
  // bounds, and no call (the body used to run at index 18446744073709551611).
  std::atomic<int> calls{0};
  try {
    parallel_for(-5, v.size(), [&](std::size_t) { calls.fetch_add(1); }, {.threads = 2});
    ADD_FAILURE() << "parallel_for(-5, v.size()) did not throw";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("[-5, 5)"), std::string::npos) << e.what();
  }
  EXPECT_THROW(parallel_for_chunks(-5, v.size(), [&](std::size_t, std::size_t) { calls.fetch_add(1); }), Error);
  EXPECT_EQ(calls.load(), 0);

  // An empty range by value is empty whatever the types: 3u > -1.
  parallel_for(3u, -1, [&](unsigned) { calls.fetch_add(1); });
  parallel_for(std::size_t{7}, -5, [&](std::size_t) { calls.fetch_add(1); });
  EXPECT_EQ(calls.load(), 0);

  // Signed on both sides: the negative indices are the body's.
  std::vector<std::atomic<int>> signed_hits(10);
  parallel_for(std::int64_t{-5}, 5, [&](std::int64_t i) { signed_hits[static_cast<std::size_t>(i + 5)].fetch_add(1); },
               {.threads = 2});
  for (auto& h : signed_hits) EXPECT_EQ(h.load(), 1);
}

}  // namespace
}  // namespace autosched
