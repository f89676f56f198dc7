// The level reference's balanced split (apps/common/app.hpp, ReferenceShares):
// every iteration exactly once, each thread's own share from the front, the
// others' from the back, and the same under real threads racing for blocks.
#include "common/app.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <thread>
#include <utility>
#include <vector>

namespace {

using autosched::apps::ReferenceShares;
using Block = std::pair<std::int64_t, std::int64_t>;

std::vector<Block> take_all(ReferenceShares& shares, int me) {
  std::vector<Block> blocks;
  std::int64_t begin = 0, end = 0;
  while (shares.take(me, begin, end)) blocks.emplace_back(begin, end);
  return blocks;
}

TEST(ReferenceShares, OneThreadTakesItsShareFrontFirstThenTheOthersFromTheBack) {
  // n = 256 on 2 threads: shares [0, 128) and [128, 256), blocks of 256 / 128 = 2.
  ReferenceShares shares(256, 2);
  std::int64_t begin = 0, end = 0;
  ASSERT_TRUE(shares.take(1, begin, end));  // thread 1 starts on its own share
  EXPECT_EQ(begin, 128);
  EXPECT_EQ(end, 130);
  const auto rest = take_all(shares, 0);
  ASSERT_EQ(rest.size(), 64u + 63u);
  EXPECT_EQ(rest.front(), Block(0, 2));
  EXPECT_EQ(rest[63], Block(126, 128));
  EXPECT_EQ(rest[64], Block(254, 256));  // then thread 1's share, from its back
  EXPECT_EQ(rest.back(), Block(130, 132));
  EXPECT_FALSE(shares.take(1, begin, end));
}

TEST(ReferenceShares, SmallAndUnevenRangesAreCoveredExactlyOnce) {
  for (const std::int64_t n : {0, 1, 2, 3, 7, 64, 129, 1000, 4099}) {
    for (const int threads : {1, 2, 3, 5}) {
      ReferenceShares shares(n, threads);
      std::vector<int> seen(static_cast<std::size_t>(n), 0);
      // Round robin over the threads: owners and thieves interleave.
      std::vector<bool> done(static_cast<std::size_t>(threads), false);
      for (int left = threads, t = 0; left > 0; t = (t + 1) % threads) {
        if (done[t]) continue;
        std::int64_t begin = 0, end = 0;
        if (!shares.take(t, begin, end)) {
          done[t] = true;
          --left;
          continue;
        }
        ASSERT_LT(begin, end) << "n=" << n << " P=" << threads;
        for (std::int64_t i = begin; i < end; ++i) ++seen[static_cast<std::size_t>(i)];
      }
      for (std::int64_t i = 0; i < n; ++i) ASSERT_EQ(seen[static_cast<std::size_t>(i)], 1) << "n=" << n << " i=" << i;
    }
  }
}

TEST(ReferenceShares, ARacingTeamCoversEveryIterationExactlyOnce) {
  constexpr std::int64_t n = 200003;
  constexpr int threads = 4;
  ReferenceShares shares(n, threads);
  std::vector<int> seen(n, 0);  // each element written by one thread only if blocks never overlap
  std::vector<std::thread> team;
  for (int t = 0; t < threads; ++t)
    team.emplace_back([&, t] {
      std::int64_t begin = 0, end = 0;
      while (shares.take(t, begin, end))
        for (std::int64_t i = begin; i < end; ++i) ++seen[static_cast<std::size_t>(i)];
    });
  for (auto& member : team) member.join();
  for (std::int64_t i = 0; i < n; ++i) ASSERT_EQ(seen[static_cast<std::size_t>(i)], 1) << "i=" << i;
}

}  // namespace
