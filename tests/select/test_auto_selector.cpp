// autosched's own selector: guarded sweep, Thompson sampling, change
// detection and warm start, on scripted loops.
#include <autosched/select/auto_selector.hpp>

#include <gtest/gtest.h>

#include <vector>

namespace autosched {
namespace {

// A scripted loop: fixed cost per arm (ms); honours budgets as the runtime
// does (the rest of the work at the fallback's cost).
struct Loop {
  std::vector<double> ms;
  Outcome run(const Decision& d) const {
    Outcome o;
    o.time_ns = ms[static_cast<std::size_t>(d.arm)] * 1e6;
    if (d.budget_ns > 0 && d.fallback >= 0 && o.time_ns > d.budget_ns) {
      o.time_ns = d.budget_ns + (1 - d.budget_ns / o.time_ns) * ms[static_cast<std::size_t>(d.fallback)] * 1e6;
      o.cut_short = true;
    }
    return o;
  }
};

std::vector<int> drive(AutoSelector& s, const Loop& loop, int steps, double* total_ms = nullptr) {
  std::vector<int> arms;
  for (int k = 0; k < steps; ++k) {
    const Decision d = s.choose({});
    const Outcome o = loop.run(d);
    s.observe(d, o);
    arms.push_back(d.arm);
    if (total_ms) *total_ms += o.time_ns / 1e6;
  }
  return arms;
}

TEST(AutoSelector, SweepsEveryArmOnceFirst) {
  AutoSelector s(5, AutoConfig{});
  const auto arms = drive(s, {{10, 11, 12, 13, 14}}, 5);
  EXPECT_EQ(arms, (std::vector<int>{0, 1, 2, 3, 4}));
  EXPECT_FALSE(s.sweeping());
}

// A catastrophic arm's trial is cut at guard × best and the arm retired.
TEST(AutoSelector, GuardCutsACatastrophicTrialAndRetiresTheArm) {
  AutoSelector s(3, AutoConfig{});
  double total = 0;
  const auto arms = drive(s, {{10, 1000, 11}}, 100, &total);
  EXPECT_TRUE(s.retired(1));
  EXPECT_EQ(std::count(arms.begin(), arms.end(), 1), 1);
  // The trial cost 2 × 10 (budget) + (1 − 20/1000) × 10 ≈ 29.8 ms, not 1000.
  EXPECT_LT(total, 100 * 11.0 + 30.0);
}

TEST(AutoSelector, ConvergesOnAPlantedOptimum) {
  AutoSelector s(6, AutoConfig{});
  const auto arms = drive(s, {{13, 12, 10, 11, 12.5, 14}}, 300);
  const auto late = std::count(arms.begin() + 100, arms.end(), 2);
  EXPECT_GE(late, 195);  // at least 97.5% of the last 200 on the best arm
  EXPECT_EQ(s.best_arm(), 2);
}

// The best arm slows down: the change is detected and the selector moves.
TEST(AutoSelector, DetectsAChangeAndMovesToTheNewBest) {
  AutoSelector s(4, AutoConfig{});
  drive(s, {{10, 12, 13, 14}}, 100);
  ASSERT_EQ(s.best_arm(), 0);
  const auto arms = drive(s, {{20, 12, 13, 14}}, 100);
  EXPECT_GE(s.changes_detected(), 1);
  EXPECT_EQ(s.best_arm(), 1);
  EXPECT_GE(std::count(arms.begin() + 50, arms.end(), 1), 45);
}

// A second run resumes from the first's state: no sweep, best arm at once.
TEST(AutoSelector, WarmStartSkipsTheSweep) {
  AutoSelector first(5, AutoConfig{});
  drive(first, {{13, 12, 10, 11, 14}}, 80);
  const std::string state = first.save_state();
  ASSERT_FALSE(state.empty());
  AutoSelector second(5, AutoConfig{});
  ASSERT_TRUE(second.load_state(state));
  EXPECT_FALSE(second.sweeping());
  const Decision d = second.choose({});
  EXPECT_EQ(d.arm, 2);
  AutoSelector other(6, AutoConfig{});
  EXPECT_FALSE(other.load_state(state));  // other portfolio size
  AutoSelector fresh(5, AutoConfig{});
  EXPECT_TRUE(fresh.save_state().empty());  // nothing settled yet
}

}  // namespace
}  // namespace autosched
