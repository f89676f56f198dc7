#include <autosched/techniques/catalogue.hpp>

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace autosched {
namespace {

// The portfolio of docs/techniques.md, by its user-visible names.
const char* const spec_names[] = {"static", "ss",           "fsc", "mfsc",  "gss",   "guided-llvm", "auto-llvm",
                                  "tss",    "static-steal", "fac", "mfac",  "fac2",  "mfac2",       "wf",
                                  "tap",    "bold",         "awf", "awf-b", "awf-c", "awf-d",       "awf-e",
                                  "af",     "maf",          "pls", "tfss",  "fiss",  "viss",        "rnd"};

TEST(Catalogue, HoldsTheTwentyEightTechniquesOfTheSpec) {
  ASSERT_EQ(std::size(spec_names), 28u);
  std::set<std::string> names;
  for (int i = 0; i < technique_count; ++i) names.emplace(technique_catalogue()[i].name);
  for (const char* n : spec_names) EXPECT_TRUE(names.count(n)) << n;
  EXPECT_EQ(names.size(), 28u);
}

TEST(Catalogue, EveryEntryIsDescribed) {
  for (const auto& t : technique_catalogue()) {
    EXPECT_EQ(&technique_info(t.id), &t);
    EXPECT_FALSE(t.paper.empty()) << t.name;
    EXPECT_FALSE(t.formula.empty()) << t.name;
    EXPECT_FALSE(t.chunk.empty()) << t.name;
  }
}

TEST(Catalogue, FindsNamesAndLb4ompSpellings) {
  EXPECT_EQ(find_technique("GSS"), TechniqueId::gss);
  EXPECT_EQ(find_technique("dynamic"), TechniqueId::ss);
  EXPECT_EQ(find_technique("guided"), TechniqueId::guided_llvm);
  EXPECT_EQ(find_technique("trapezoidal"), TechniqueId::tss);
  EXPECT_EQ(find_technique("fac2a"), TechniqueId::mfac2);
  EXPECT_EQ(find_technique("af_a"), TechniqueId::maf);
  EXPECT_EQ(find_technique("awf_c"), TechniqueId::awf_c);
  EXPECT_EQ(find_technique("static_steal"), TechniqueId::static_steal);
  EXPECT_FALSE(find_technique("auto"));  // the selection keyword, never a technique
  EXPECT_FALSE(find_technique("nope"));
}

}  // namespace
}  // namespace autosched
