#include <autosched/core/error.hpp>
#include <autosched/regions/feature.hpp>
#include <autosched/regions/model_spec.hpp>
#include <autosched/regions/variant_space.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

using autosched::Error;
using autosched::Feature;
using autosched::Knob;
using autosched::ModelSpec;
using autosched::VariantSpace;

TEST(Feature, QuantisesExactLinearAndLog2) {
  EXPECT_EQ(Feature("n").quantise(12.5), 12.5);
  EXPECT_FALSE(std::signbit(Feature("n").quantise(-0.0)));  // -0 and 0 are one key
  const Feature lin = Feature::linear("x", 0, 1, 10);
  EXPECT_EQ(lin.quantise(0.0), 0);
  EXPECT_EQ(lin.quantise(0.349), 3);
  EXPECT_EQ(lin.quantise(0.999), 9);
  EXPECT_EQ(lin.quantise(-5), 0);  // clamped
  EXPECT_EQ(lin.quantise(7), 9);
  const Feature lg = Feature::log2("n");
  EXPECT_EQ(lg.quantise(1), 0);
  EXPECT_EQ(lg.quantise(1023), 9);
  EXPECT_EQ(lg.quantise(1024), 10);
  EXPECT_LT(lg.quantise(0), lg.quantise(1e-300));  // non-positive values share the lowest bin
}

TEST(Feature, DescribeAndParseRoundTrip) {
  for (const Feature& f : {Feature("rows"), Feature::log2("nnz"), Feature::linear("x", -1.5, 2.25, 7)}) {
    EXPECT_EQ(Feature::parse(f.describe()), f) << f.describe();
  }
  EXPECT_THROW(Feature::linear("x", 1, 1, 3), Error);
  EXPECT_THROW(Feature::linear("x", 0, 1, 0), Error);
  EXPECT_THROW(Feature::parse("x:cubic"), Error);
  EXPECT_THROW(Feature::parse(""), Error);
}

TEST(VariantSpace, PacksKnobsInMixedRadixLastFastest) {
  const VariantSpace s({Knob::labels("kernel", {"csr", "ell"}), Knob::range("tile", std::int64_t{8}, 32, 8)});
  ASSERT_EQ(s.size(), 8);
  EXPECT_EQ(s.value<std::string>(0, "kernel"), "csr");
  EXPECT_EQ(s.value<int>(0, "tile"), 8);
  EXPECT_EQ(s.value<int>(5, "tile"), 16);  // 5 = 1·4 + 1
  EXPECT_EQ(s.value<std::string>(5, "kernel"), "ell");
  EXPECT_EQ(s.value<int>(5, "kernel"), 1);  // a label's number is its index
  EXPECT_EQ(s.label(7), "kernel=ell,tile=32");
  EXPECT_EQ(s.signature(), "kernel{csr|ell};tile:int{8|16|24|32}");
  EXPECT_THROW((void)s.value<int>(0, "block"), Error);
}

TEST(VariantSpace, RealRangeHasExactDecimalSteps) {
  const VariantSpace s({Knob::range("gpu_fraction", 0.0, 1.0, 0.1)});
  ASSERT_EQ(s.size(), 11);
  EXPECT_EQ(s.value<double>(3, "gpu_fraction"), 0.3);
  EXPECT_EQ(s.value<double>(10, "gpu_fraction"), 1.0);
  EXPECT_EQ(s.label(3), "0.3");
}

TEST(VariantSpace, RejectsBadKnobs) {
  EXPECT_THROW(VariantSpace(std::vector<Knob>{}), Error);
  EXPECT_THROW(VariantSpace({Knob::labels("a", {})}), Error);
  EXPECT_THROW(VariantSpace({Knob::labels("a", {"x"}), Knob::labels("a", {"y"})}), Error);
  EXPECT_THROW(Knob::range("t", std::int64_t{8}, 4, 1), Error);
  EXPECT_THROW(Knob::range("t", 0.0, 1.0, 0.0), Error);
  EXPECT_THROW(Knob::labels("bad name", {"x"}), Error);
  EXPECT_THROW(VariantSpace::count(0), Error);
  EXPECT_EQ(VariantSpace::count(3).label(2), "2");
}

TEST(ModelSpec, ParsesOursAndApollosSpellings) {
  auto m = autosched::parse_model_spec("dtree,depth=3,min_train=12,explore=random", "test");
  EXPECT_EQ(m.kind, ModelSpec::Kind::dtree);
  EXPECT_EQ(m.depth, 3);
  EXPECT_EQ(m.min_train, 12);
  EXPECT_TRUE(m.min_train_set);
  EXPECT_TRUE(m.explore_random);
  m = autosched::parse_model_spec("DecisionTree,max_depth=4", "test");
  EXPECT_EQ(m.kind, ModelSpec::Kind::dtree);
  EXPECT_EQ(m.depth, 4);
  m = autosched::parse_model_spec("RandomForest,num_trees=7,features=sqrt,seed=5", "test");
  EXPECT_EQ(m.kind, ModelSpec::Kind::rforest);
  EXPECT_EQ(m.trees, 7);
  EXPECT_TRUE(m.sqrt_features);
  EXPECT_EQ(m.seed, 5u);
  m = autosched::parse_model_spec("Static,policy=2", "test");
  EXPECT_EQ(m.kind, ModelSpec::Kind::static_);
  EXPECT_EQ(m.variant, 2);
  EXPECT_EQ(autosched::parse_model_spec("RoundRobin", "t").kind, ModelSpec::Kind::round_robin);
  m = autosched::parse_model_spec("ucb,c=0.5,label=min,skip_first=1,coverage=2", "t");
  EXPECT_EQ(m.ucb_c, 0.5);
  EXPECT_TRUE(m.label_by_min);
  EXPECT_TRUE(m.skip_first);
  EXPECT_EQ(m.coverage, 2);
}

TEST(ModelSpec, ErrorsNameTheInputAndWhatIsAccepted) {
  auto message = [](const char* text) {
    try {
      (void)autosched::parse_model_spec(text, "AUTOSCHED_REGION_MODEL");
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message("cart").find("AUTOSCHED_REGION_MODEL=cart"), std::string::npos);
  EXPECT_NE(message("cart").find("dtree"), std::string::npos);
  EXPECT_NE(message("dtree,trees=3").find("a key dtree accepts"), std::string::npos);
  EXPECT_NE(message("dtree,depth=x").find("depth = an integer"), std::string::npos);
  EXPECT_NE(message("epsilon-greedy,epsilon=1.5").find("epsilon = a number in [0, 1]"), std::string::npos);
  EXPECT_NE(message("dtree,depth=2,depth=3").find("repeats"), std::string::npos);
  EXPECT_NE(message("rforest,features=half").find("features = sqrt or all"), std::string::npos);
}

// Read once per process; ctest runs each test in its own process.
TEST(ModelSpec, ABadEnvironmentDefaultIsAWarningAndAuto) {
  setenv("AUTOSCHED_REGION_MODEL", "cart,depth=2", 1);
  std::vector<std::string> warnings;
  auto previous = autosched::detail::set_warning_sink([&](std::string_view w) { warnings.emplace_back(w); });
  const ModelSpec m = autosched::default_model_spec();
  autosched::detail::set_warning_sink(previous);
  unsetenv("AUTOSCHED_REGION_MODEL");
  if (warnings.empty() && m.kind == ModelSpec::Kind::automatic) GTEST_SKIP() << "default read earlier in this process";
  EXPECT_EQ(m.kind, ModelSpec::Kind::automatic);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("AUTOSCHED_REGION_MODEL=cart,depth=2"), std::string::npos) << warnings[0];
  EXPECT_NE(warnings[0].find("regions use 'auto'"), std::string::npos) << warnings[0];
}
