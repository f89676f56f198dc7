// auto's settled path (AutoConfig::settled_path) is a shortcut for the
// instances where nothing is pending but the Thompson draw: it must decide
// and learn exactly as the full path does. Two selectors, one with the
// shortcut and one without, meet the same noisy loop (outliers, a slower
// process, a change of shape, trials cut short); every decision and the
// final state must agree, and the shortcut must really have been taken.
#include <autosched/core/split_mix.hpp>
#include <autosched/select/selectors/auto/auto_selector.hpp>
#include <autosched/techniques/loop_simulator.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

namespace autosched {
namespace {

TechniqueSpec arm(std::string_view text) { return parse_technique_spec(text, "test"); }

/// 4096 iterations whose first `heavy` blocks (of 64) cost 100× the others.
CostProfile head_of(int heavy) {
  std::vector<double> blocks(64);
  for (std::size_t b = 0; b < blocks.size(); ++b) blocks[b] = (static_cast<int>(b) < heavy ? 100.0 : 1.0) * 6400;
  return CostProfile::from_blocks(4096, blocks, 5);
}

/// A loop time that depends only on the step and the arm, so that both
/// selectors see the same time whenever they make the same choice: the
/// arm's simulated time × the process level × 3% noise, and now and then a
/// preempted instance (6×) or a fast outlier (÷ 6).
double loop_ns(const CostProfile& profile, const TechniqueSpec& spec, int step, int arm, double level) {
  std::uint64_t state = static_cast<std::uint64_t>(step) * 1000003u + static_cast<std::uint64_t>(arm);
  SplitMix64 random(splitmix64(state));
  double ns =
      simulate_loop(profile, spec, {.workers = 4}).time_ns * level * (1.0 + 0.03 * sum_of_twelve_normal(random));
  const std::uint64_t roll = random() % 200;
  if (roll == 0) ns *= 6.0;
  if (roll == 1) ns /= 6.0;
  return ns;
}

struct Step {
  Decision decision;
  bool settled = false;
};

/// Runs `s` for `steps` instances: the loop's shape changes at step 400
/// (another head), the process runs 30% slower from 700 on; trials over
/// their budget are cut short as the runtime does.
std::vector<Step> drive(autosched::detail::AutoSelector& s, const Portfolio& arms, int steps) {
  const CostProfile before = head_of(8), after = head_of(40);
  std::vector<Step> trace;
  for (int t = 0; t < steps; ++t) {
    const CostProfile& profile = t < 400 ? before : after;
    const double level = t < 700 ? 1.0 : 1.3;
    const bool settled = s.settled();
    const Decision d = s.choose(Context{profile.n(), 4, {}});
    trace.push_back({d, settled});
    Outcome o;
    if (d.profile) {
      o.time_ns = 1e6;
      o.profile = &profile;
    } else {
      o.time_ns = loop_ns(profile, arms[static_cast<std::size_t>(d.arm)], t, d.arm, level);
      if (d.budget_ns > 0 && d.fallback >= 0 && o.time_ns > d.budget_ns) {
        o.time_ns = d.budget_ns + loop_ns(profile, arms[static_cast<std::size_t>(d.fallback)], t, d.fallback, level);
        o.cut_short = true;
      }
    }
    o.metrics.loop_time_ns = o.time_ns;
    s.observe(d, o);
  }
  return trace;
}

void expect_same_decisions(autosched::detail::AutoSelector& shortcut, autosched::detail::AutoSelector& full, const Portfolio& arms, int steps) {
  const std::vector<Step> a = drive(shortcut, arms, steps), b = drive(full, arms, steps);
  int settled = 0;
  for (int t = 0; t < steps; ++t) {
    const Decision& x = a[static_cast<std::size_t>(t)].decision;
    const Decision& y = b[static_cast<std::size_t>(t)].decision;
    ASSERT_EQ(x.arm, y.arm) << "step " << t;
    ASSERT_EQ(x.exploring, y.exploring) << "step " << t;
    ASSERT_EQ(x.profile, y.profile) << "step " << t;
    ASSERT_EQ(x.fallback, y.fallback) << "step " << t;
    ASSERT_DOUBLE_EQ(x.budget_ns, y.budget_ns) << "step " << t;
    EXPECT_FALSE(b[static_cast<std::size_t>(t)].settled);  // the full path never settles
    settled += a[static_cast<std::size_t>(t)].settled ? 1 : 0;
  }
  EXPECT_EQ(shortcut.best_arm(), full.best_arm());
  EXPECT_EQ(shortcut.changes_detected(), full.changes_detected());
  EXPECT_GE(shortcut.changes_detected(), 2);  // the shape change and the slower process
  EXPECT_GT(settled, steps * 3 / 4);          // the shortcut carried most instances
}

/// Two saved states: the same fields, numbers equal to 1e-9 (the paths sum
/// the pooled spread in another order, so the last bits may differ).
void expect_same_state(const std::string& x, const std::string& y) {
  std::istringstream a(x), b(y);
  std::string u, v;
  int fields = 0;
  while (a >> u) {
    ASSERT_TRUE(b >> v) << "field " << fields;
    char* end_u = nullptr;
    char* end_v = nullptr;
    const double du = std::strtod(u.c_str(), &end_u), dv = std::strtod(v.c_str(), &end_v);
    if (*end_u == '\0' && *end_v == '\0') {
      EXPECT_NEAR(du, dv, 1e-9 * std::max(std::abs(du), std::abs(dv))) << "field " << fields;
    } else {
      EXPECT_EQ(u, v) << "field " << fields;
    }
    ++fields;
  }
  EXPECT_FALSE(b >> v);
  EXPECT_GT(fields, 2);
}

TEST(AutoSettledPath, DecidesAndLearnsAsTheFullPath) {
  const Portfolio arms{arm("static"), arm("gss"), arm("fac2"), arm("ss:16"), arm("ss:64"), arm("fac2:8")};
  autosched::detail::AutoSelector shortcut(arms, AutoConfig{});
  autosched::detail::AutoSelector full(arms, AutoConfig{.settled_path = false});
  expect_same_decisions(shortcut, full, arms, 1000);
  expect_same_state(shortcut.save_state(), full.save_state());
}

TEST(AutoSettledPath, AWarmStartedSelectorSettlesAsTheFullPath) {
  const Portfolio arms{arm("static"), arm("gss"), arm("fac2"), arm("ss:16")};
  autosched::detail::AutoSelector teacher(arms, AutoConfig{});
  drive(teacher, arms, 300);
  autosched::detail::AutoSelector shortcut(arms, AutoConfig{.seed = 7});
  autosched::detail::AutoSelector full(arms, AutoConfig{.seed = 7, .settled_path = false});
  ASSERT_TRUE(shortcut.load_state(teacher.save_state()));
  ASSERT_TRUE(full.load_state(teacher.save_state()));
  expect_same_decisions(shortcut, full, arms, 1000);
  expect_same_state(shortcut.save_state(), full.save_state());
}

TEST(AutoSettledPath, ArmsKnownOnlyByIndexSettleAsTheFullPath) {
  // A tunable region's arms: no profile, a sweep, then the draw; the loop
  // becomes 40% slower on its best arm at step 300 (a change).
  const std::vector<double> ms{12, 10, 10.2, 11, 30, 10.1};
  autosched::detail::AutoSelector shortcut(6, AutoConfig{});
  autosched::detail::AutoSelector full(6, AutoConfig{.settled_path = false});
  int settled = 0;
  for (int t = 0; t < 800; ++t) {
    settled += shortcut.settled() ? 1 : 0;
    const Decision x = shortcut.choose({}), y = full.choose({});
    ASSERT_EQ(x.arm, y.arm) << "step " << t;
    ASSERT_EQ(x.exploring, y.exploring) << "step " << t;
    ASSERT_EQ(x.fallback, y.fallback) << "step " << t;
    std::uint64_t state = static_cast<std::uint64_t>(t);
    SplitMix64 random(splitmix64(state));
    double ns = ms[static_cast<std::size_t>(x.arm)] * 1e6 * (1.0 + 0.03 * sum_of_twelve_normal(random));
    if (t >= 300 && x.arm == 1) ns *= 1.4;
    Outcome o;
    o.time_ns = ns;
    shortcut.observe(x, o);
    full.observe(y, o);
  }
  EXPECT_GE(full.changes_detected(), 1);
  EXPECT_EQ(shortcut.changes_detected(), full.changes_detected());
  EXPECT_GT(settled, 400);
  expect_same_state(shortcut.save_state(), full.save_state());
}

}  // namespace
}  // namespace autosched
