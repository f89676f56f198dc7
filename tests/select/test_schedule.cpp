#include <autosched/core/error.hpp>
#include <autosched/select/grammar/schedule.hpp>

#include <gtest/gtest.h>

namespace autosched {
namespace {

TEST(Schedule, ParsesTechniqueChunkAndParameters) {
  Schedule s = parse_schedule("gss", "test");
  EXPECT_EQ(s.fixed.technique, TechniqueId::gss);
  EXPECT_EQ(s.fixed.chunk, 0);
  s = parse_schedule("static,chunk=64", "test");
  EXPECT_EQ(s.fixed.technique, TechniqueId::static_);
  EXPECT_EQ(s.fixed.chunk, 64);
  s = parse_schedule("TSS, chunk = expert", "test");
  EXPECT_EQ(s.fixed.technique, TechniqueId::tss);
  EXPECT_TRUE(s.fixed.expert_chunk);
  s = parse_schedule("dynamic,4", "test");  // OMP_SCHEDULE style
  EXPECT_EQ(s.fixed.technique, TechniqueId::ss);
  EXPECT_EQ(s.fixed.chunk, 4);
  s = parse_schedule("fac,mu=120,sigma=40", "test");
  EXPECT_EQ(s.fixed.params.mu_ns, 120.0);
  EXPECT_EQ(s.fixed.params.sigma_ns, 40.0);
  s = parse_schedule("wf,weights=1:1:2:2", "test");
  EXPECT_EQ(s.fixed.params.weights, (std::vector<double>{1, 1, 2, 2}));
  s = parse_schedule("bold,mu=1,sigma=2,h=3,chunk=5", "test");
  EXPECT_EQ(s.fixed.params.overhead_ns, 3.0);
  EXPECT_EQ(s.fixed.chunk, 5);
}

TEST(Schedule, SelectionSchedules) {
  const Schedule s = parse_schedule("auto:qlearn,policy=softmax", "test");
  ASSERT_TRUE(s.selection);
  EXPECT_EQ(s.selection->selector, "qlearn");
  EXPECT_EQ(s.text(), "auto:qlearn,policy=softmax");
  ASSERT_TRUE(default_schedule().selection);
  EXPECT_EQ(default_schedule().selection->selector, "auto");
}

TEST(Schedule, TextRoundTrips) {
  for (const char* text : {"gss", "static,chunk=64", "tss,chunk=expert", "fac,mu=120,sigma=40", "wf,weights=1:1:2:2",
                           "af,divider=5", "pls,swr=0.25", "rnd,start=2,seed=7"}) {
    const Schedule s = parse_schedule(text, "test");
    EXPECT_EQ(s.text(), text);
    EXPECT_EQ(parse_schedule(s.text(), "test"), s);
  }
}

struct BadInput {
  const char* text;
  const char* message_part;
};

class BadSchedules : public ::testing::TestWithParam<BadInput> {};

// Every rejection names the source, the text and what would be accepted.
TEST_P(BadSchedules, AreRejectedWithAClearMessage) {
  const BadInput bad = GetParam();
  try {
    parse_schedule(bad.text, "AUTOSCHED_SCHEDULE");
    FAIL() << bad.text << " accepted";
  } catch (const Error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find(std::string("AUTOSCHED_SCHEDULE=") + bad.text + ": expected"), std::string::npos) << msg;
    EXPECT_NE(msg.find(bad.message_part), std::string::npos) << msg;
  }
}

INSTANTIATE_TEST_SUITE_P(Table, BadSchedules,
                         ::testing::Values(BadInput{"", "a technique name or auto[:<selector>]: static, ss"},
                                           BadInput{"gsss", "a technique name or auto[:<selector>]: static, ss, fsc"},
                                           BadInput{"auto:nosuch", "a selector after 'auto:': auto, random"},
                                           BadInput{"auto:qlearn,alpha=2", "alpha = a number in [0, 1]"},
                                           BadInput{"gss,chunk=0", "chunk = a positive integer or 'expert'"},
                                           BadInput{"gss,chunk=-4", "chunk = a positive integer"},
                                           BadInput{"gss,chunk=big", "chunk = a positive integer"},
                                           BadInput{"gss,mu=3", "a key gss accepts (chunk)"},
                                           BadInput{"fac,mu=0,sigma=1", "mu = a number in (0"},
                                           BadInput{"fac,mu=x,sigma=1", "mu = a number"},
                                           BadInput{"pls,swr=1.5", "swr = a number in (0, 1]"},
                                           BadInput{"af,divider=0", "divider = an integer in [1,"},
                                           BadInput{"gss,chunk=4,chunk=5", "'chunk' repeats"},
                                           BadInput{"gss,fast", "has no '='"},
                                           BadInput{"wf,weights=1:0", "weights = positive numbers"},
                                           BadInput{"rnd,seed=-1", "seed = a non-negative integer"}),
                         [](const ::testing::TestParamInfo<BadInput>& p) { return "case" + std::to_string(p.index); });

}  // namespace
}  // namespace autosched
