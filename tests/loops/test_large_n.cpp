// Iteration spaces near 2^40 through parallel_for_chunks, with a chunk
// parameter of at least 2^22: the chunks of every technique must tile the
// space with no gap, no overlap and no overflow.
#include <autosched/core/index_range.hpp>
#include <autosched/loops/loops.hpp>

#include "loop_test_support.hpp"

#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <mutex>
#include <vector>

namespace autosched {
namespace {

class LargeN : public ::testing::TestWithParam<std::string> {};

TEST_P(LargeN, ChunksTileTheSpaceExactly) {
  const std::int64_t begin = 3;
  const std::int64_t n = (std::int64_t{1} << 40) + 12345;
  for (std::int64_t chunk : {std::int64_t{1} << 22, (std::int64_t{1} << 23) + 1}) {
    std::vector<std::vector<IndexRange>> per_thread(4);
    parallel_for_chunks(
        begin, begin + n,
        [&](std::int64_t first, std::int64_t last) {
          per_thread[static_cast<std::size_t>(omp_get_thread_num())].push_back({first, last});
        },
        {.name = "large-n", .schedule = testing::schedule_for(GetParam(), std::to_string(chunk)), .threads = 4});
    std::vector<IndexRange> all;
    for (auto& v : per_thread) all.insert(all.end(), v.begin(), v.end());
    std::sort(all.begin(), all.end(), [](const IndexRange& a, const IndexRange& b) { return a.begin < b.begin; });
    ASSERT_FALSE(all.empty());
    EXPECT_EQ(all.front().begin, begin);
    EXPECT_EQ(all.back().end, begin + n);
    std::int64_t total = 0;
    for (std::size_t i = 0; i < all.size(); ++i) {
      ASSERT_LT(all[i].begin, all[i].end) << "empty chunk";
      if (i > 0) {
        ASSERT_EQ(all[i - 1].end, all[i].begin) << "gap or overlap at chunk " << i;
      }
      total += all[i].end - all[i].begin;
    }
    EXPECT_EQ(total, n);
  }
}

INSTANTIATE_TEST_SUITE_P(AllTechniques, LargeN, ::testing::ValuesIn(testing::all_technique_names()),
                         testing::param_name);

TEST(LargeN, MoreThanTwoToTheSixtyTwoIterationsIsRejected) {
  EXPECT_THROW(parallel_for_chunks(std::int64_t{-1} << 62, std::int64_t{1} << 62, [](std::int64_t, std::int64_t) {}),
               Error);
}

}  // namespace
}  // namespace autosched
