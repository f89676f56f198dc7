#include <autosched/techniques/exp_chunk.hpp>

#include <gtest/gtest.h>

namespace autosched {
namespace {

// The expChunk example table of LB4OMP's papers.
TEST(ExpChunk, MatchesTheReferenceTable) {
  EXPECT_EQ(exp_chunk(1000, 16), 3);
  EXPECT_EQ(exp_chunk(10000, 16), 9);
  EXPECT_EQ(exp_chunk(100000, 16), 24);
  EXPECT_EQ(exp_chunk(1000000, 20), 48);
  EXPECT_EQ(exp_chunk(1000000, 64), 30);
  EXPECT_EQ(exp_chunk(std::int64_t{1} << 20, 32), 32);
  EXPECT_EQ(exp_chunk(10000000, 128), 38);
  EXPECT_EQ(exp_chunk(200, 16), 1);
  EXPECT_EQ(exp_chunk(31, 16), 0);
}

TEST(ExpChunk, DegenerateSizes) {
  EXPECT_EQ(exp_chunk(0, 4), 0);
  EXPECT_EQ(exp_chunk(3, 4), 0);
  EXPECT_GT(exp_chunk(std::int64_t{1} << 62, 1), 0);
}

}  // namespace
}  // namespace autosched
