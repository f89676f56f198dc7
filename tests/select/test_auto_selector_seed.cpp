// AutoSelector::seed: starting from known per-arm samples is the warm start
// load_state() gives from the same statistics, and refuses what load_state()
// refuses.
#include <autosched/select/selectors/auto/auto_selector.hpp>

#include "make_outcome.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

namespace autosched {
namespace {

/// The auto3 text of the same statistics (what the store would hold).
std::string as_state(const std::vector<RunningStats>& arms) {
  std::string out = "auto3 " + std::to_string(arms.size());
  char buf[96];
  for (const RunningStats& a : arms) {
    std::snprintf(buf, sizeof buf, " %lld %.17g %.17g 0", static_cast<long long>(a.count), a.mean, a.m2);
    out += buf;
  }
  return out;
}

std::vector<int> drive(autosched::detail::AutoSelector& s, const std::vector<double>& ms, int steps) {
  std::vector<int> arms;
  for (int k = 0; k < steps; ++k) {
    const Decision d = s.choose({});
    s.observe(d, testing::outcome(ms[static_cast<std::size_t>(d.arm)]));
    arms.push_back(d.arm);
  }
  return arms;
}

}  // namespace

TEST(AutoSelectorSeed, IsTheWarmStartOfTheSameStatistics) {
  std::vector<RunningStats> known(4);
  for (double t : {12e6, 12.5e6, 11.8e6}) known[0].add(t);
  for (double t : {10e6, 10.4e6}) known[1].add(t);
  known[3].add(15e6);  // arm 2 has no samples: it is swept
  autosched::detail::AutoSelector seeded(4, AutoConfig{.warmup = 0, .seed = 9});
  autosched::detail::AutoSelector loaded(4, AutoConfig{.warmup = 0, .seed = 9});
  ASSERT_TRUE(seeded.seed(known));
  ASSERT_TRUE(loaded.load_state(as_state(known)));
  EXPECT_EQ(seeded.save_state(), loaded.save_state());
  EXPECT_EQ(seeded.best_arm(), 1);
  const Decision first = seeded.choose({});
  EXPECT_EQ(first.arm, 1);  // the stored best runs first
  EXPECT_FALSE(first.exploring);
  seeded.observe(first, testing::outcome(10.1));
  const Decision d = loaded.choose({});
  loaded.observe(d, testing::outcome(10.1));
  const std::vector<double> ms{12, 10, 11, 15};
  EXPECT_EQ(drive(seeded, ms, 200), drive(loaded, ms, 200));
}

TEST(AutoSelectorSeed, RefusesWhatNoRunProducesAndChangesNothing) {
  autosched::detail::AutoSelector s(3, AutoConfig{.warmup = 0});
  std::vector<RunningStats> none(3);
  EXPECT_FALSE(s.seed(none));                          // no arm has samples
  EXPECT_FALSE(s.seed(std::vector<RunningStats>(2)));  // other arms
  std::vector<RunningStats> negative(3);
  negative[0].add(-5);  // a metric ≤ 0: auto assumes costs
  EXPECT_FALSE(s.seed(negative));
  std::vector<RunningStats> orphan(3);
  orphan[1].mean = 3;  // a mean without samples
  orphan[2].add(1e6);
  EXPECT_FALSE(s.seed(orphan));
  EXPECT_TRUE(s.sweeping());
  EXPECT_EQ(s.best_arm(), -1);
  EXPECT_EQ(drive(s, {3, 2, 1}, 3), (std::vector<int>{0, 1, 2}));  // a fresh sweep
}

}  // namespace autosched
