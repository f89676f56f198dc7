// One grammar for technique + chunk + parameters, in its full and compact spellings.
#include <autosched/core/error.hpp>
#include <autosched/techniques/technique_spec.hpp>

#include <gtest/gtest.h>

namespace autosched {
namespace {

TechniqueSpec spec(std::string_view text) { return parse_technique_spec(text, "test"); }

TEST(TechniqueSpec, BothSpellingsGiveTheSameValue) {
  EXPECT_EQ(spec("gss:16"), spec("gss,chunk=16"));
  EXPECT_EQ(spec("ss:expert"), spec("ss,chunk=expert"));
  EXPECT_EQ(spec("dynamic,4"), spec("ss:4"));  // OMP_SCHEDULE's bare chunk
  EXPECT_EQ(spec("fac:8,mu=120,sigma=40"), spec("fac,chunk=8,mu=120,sigma=40"));
  const TechniqueSpec s = spec("GSS : 16");
  EXPECT_EQ(s.technique, TechniqueId::gss);
  EXPECT_EQ(s.chunk, 16);
  EXPECT_FALSE(s.expert_chunk);
  EXPECT_TRUE(spec("tss:EXPERT").expert_chunk);
}

TEST(TechniqueSpec, PrintsBothSpellings) {
  EXPECT_EQ(spec("gss,chunk=16").label(), "gss:16");
  EXPECT_EQ(spec("gss:16").text(), "gss,chunk=16");
  EXPECT_EQ(spec("ss,chunk=expert").label(), "ss:expert");
  EXPECT_EQ(spec("fac,mu=120,sigma=40").label(), "fac");
  for (const char* text : {"static", "gss:16", "ss:expert", "awf-b"}) {
    EXPECT_EQ(spec(text).label(), text);
    EXPECT_EQ(spec(spec(text).label()), spec(text));
  }
  for (const char* text : {"gss", "static,chunk=64", "tss,chunk=expert", "fac,mu=120,sigma=40", "wf,weights=1:1:2:2",
                           "af,divider=5", "pls,swr=0.25", "rnd,start=2,seed=7"}) {
    EXPECT_EQ(spec(text).text(), text);
    EXPECT_EQ(spec(spec(text).text()), spec(text));
  }
}

struct Bad {
  const char* text;
  const char* part;
};
class BadSpecs : public ::testing::TestWithParam<Bad> {};

// One set of messages for both spellings, naming the source, the whole
// setting and what is accepted.
TEST_P(BadSpecs, NameSourceValueAndWhatIsAccepted) {
  try {
    (void)parse_technique_spec(GetParam().text, "SRC", "whole-setting");
    FAIL() << GetParam().text << " accepted";
  } catch (const Error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("SRC=whole-setting: expected "), std::string::npos) << m;
    EXPECT_NE(m.find(GetParam().part), std::string::npos) << m;
  }
}

INSTANTIATE_TEST_SUITE_P(Table, BadSpecs,
                         ::testing::Values(Bad{"nope:4", "a technique: static, ss, fsc"},
                                           Bad{"gss:0", "chunk = a positive integer or 'expert', got '0'"},
                                           Bad{"gss,chunk=zero", "chunk = a positive integer or 'expert', got 'zero'"},
                                           Bad{"gss:x", "got 'x'"}, Bad{"gss:16,chunk=8", "'chunk' repeats"},
                                           Bad{"gss,chunk=4,chunk=5", "'chunk' repeats"},
                                           Bad{"gss,mu=3", "a key gss accepts (chunk), got 'mu'"},
                                           Bad{"gss,fast", "'fast' has no '='"},
                                           Bad{"fac,mu=0", "mu = a number in (0, "},
                                           Bad{"af,divider=0", "divider = an integer in [1, "}),
                         [](const ::testing::TestParamInfo<Bad>& p) { return "case" + std::to_string(p.index); });

// Without `whole`, the text itself is named.
TEST(TechniqueSpec, NamesTheTextWhenAlone) {
  try {
    (void)parse_technique_spec("gss:0", "AUTOSCHED_SCHEDULE");
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("AUTOSCHED_SCHEDULE=gss:0: expected chunk"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace autosched
