// auto's cross-loop prior: per-arm deviations of the simulator, learned
// relative to each loop's level, applied to the next loop's ranking, kept as
// text in the store.
#include <autosched/select/selectors/auto/arm_corrections.hpp>
#include <autosched/select/selectors/auto/auto_selector.hpp>

#include "auto_test_support.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace autosched {
namespace {

TechniqueSpec arm(std::string_view text) { return parse_technique_spec(text, "test"); }

std::vector<RunningStats> samples(std::initializer_list<double> means) {
  std::vector<RunningStats> out;
  for (const double m : means) {
    RunningStats s;
    if (m > 0) s.add(m);
    out.push_back(s);
  }
  return out;
}

TEST(ArmCorrections, LearnsEachArmsDeviationFromTheLoopsLevel) {
  const Portfolio arms{arm("static"), arm("gss"), arm("ss:16")};
  ArmCorrections prior;
  const std::vector<double> predicted{10, 10, 10};
  // Loop 1 runs 2× slower than predicted overall; ss:16 a further 1.5×.
  // log ratios: ln2, ln2, ln3 → level ln2 (median) → deviations 0, 0, ln1.5.
  prior.learn(arms, predicted, samples({20, 20, 30}));
  EXPECT_DOUBLE_EQ(prior.factor(arm("ss:16")), 1.0);  // one loop is not enough evidence
  // Loop 2 at its own level (0.5×), ss:16 again 1.5× off.
  prior.learn(arms, predicted, samples({5, 5, 7.5}));
  EXPECT_NEAR(prior.factor(arm("ss:16")), 1.5, 1e-9);
  EXPECT_NEAR(prior.factor(arm("static")), 1.0, 1e-9);
  EXPECT_DOUBLE_EQ(prior.factor(arm("tss")), 1.0);  // never measured
}

TEST(ArmCorrections, OneMeasuredArmTeachesNothing) {
  const Portfolio arms{arm("static"), arm("gss")};
  ArmCorrections prior;
  const std::vector<double> predicted{10, 10};
  for (int loop = 0; loop < 3; ++loop) prior.learn(arms, predicted, samples({30, 0}));
  EXPECT_FALSE(prior.changed());
  EXPECT_DOUBLE_EQ(prior.factor(arm("static")), 1.0);
}

TEST(ArmCorrections, TextRoundTripAndDamage) {
  const Portfolio arms{arm("static"), arm("ss:16")};
  ArmCorrections prior;
  const std::vector<double> predicted{10, 10};
  prior.learn(arms, predicted, samples({10, 20}));
  prior.learn(arms, predicted, samples({10, 20}));
  EXPECT_TRUE(prior.changed());
  const std::string text = prior.text();
  EXPECT_FALSE(prior.changed());
  ArmCorrections loaded;
  ASSERT_TRUE(loaded.parse(text));
  EXPECT_NEAR(loaded.factor(arm("ss:16")), prior.factor(arm("ss:16")), 1e-12);
  EXPECT_FALSE(loaded.parse("auto-corrections 2\nss:16 2 0.1 0"));
  EXPECT_FALSE(loaded.parse("auto-corrections 1\nss:16 -4 0.1 0"));
  EXPECT_FALSE(loaded.parse("auto-corrections 1\nss:16 2 nan 0"));
  EXPECT_FALSE(loaded.parse("something else"));
  EXPECT_NEAR(loaded.factor(arm("ss:16")), prior.factor(arm("ss:16")), 1e-12);  // unchanged by the damage
}

TEST(ArmCorrections, AutoRanksWithThePrior) {
  // Four arms predicted 100, 101, 102, 150 µs; the prior says this machine
  // makes `gss` 30% slower than the simulator thinks: it leaves the shortlist.
  const Portfolio arms{arm("static"), arm("gss"), arm("fac2"), arm("ss")};
  ArmCorrections prior;
  for (int loop = 0; loop < 2; ++loop) {
    const std::vector<double> predicted{10, 10, 10, 10};
    prior.learn(arms, predicted, samples({10, 13, 10, 10}));
  }
  ASSERT_NEAR(prior.factor(arm("gss")), 1.3, 1e-9);
  // A profile whose simulated times rank static < gss < fac2 closely: uniform
  // cost with a high dispatch overhead (static has one chunk per worker).
  const CostProfile profile = CostProfile::uniform(4096, 100.0, 2000.0);
  autosched::detail::AutoSelector with(arms, testing::profile_first());
  with.use_prior(&prior);
  autosched::detail::AutoSelector without(arms, testing::profile_first());
  const Context context{4096, 4, {}};
  Outcome o;
  o.time_ns = 1e6;
  o.profile = &profile;
  for (autosched::detail::AutoSelector* s : {&with, &without}) s->observe(s->choose(context), o);
  EXPECT_NEAR(with.predicted()[1] / without.predicted()[1], 1.3, 1e-9);
  EXPECT_DOUBLE_EQ(with.predicted()[0], without.predicted()[0]);
}

}  // namespace
}  // namespace autosched
