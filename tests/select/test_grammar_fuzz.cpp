// The schedule, selector and technique grammars under hostile input: every
// input is either accepted or rejected with autosched::Error (never another
// exception, a crash or an unbounded message), and an accepted value reads
// back from its own text as the same value. Seeded, bounded: CI runs it in
// the Release and the ASan + UBSan builds.
#include <autosched/core/error.hpp>
#include <autosched/select/grammar/schedule.hpp>
#include <autosched/select/grammar/selector_config.hpp>
#include <autosched/techniques/technique_spec.hpp>

#include "fuzz_input.hpp"

#include <gtest/gtest.h>

#include <string>

namespace autosched {
namespace {

constexpr int inputs_per_grammar = 20000;

const std::vector<std::string> schedule_seeds = {
    "static",       "gss,chunk=16", "tss,chunk=expert", "fac,mu=120,sigma=40", "wf,weights=1:1:2:2",
    "dynamic,4",    "bold,mu=100,sigma=30,h=50", "awf-b", "auto", "auto:exhaustive,portfolio=static,ss,gss:16",
    "auto:qlearn,policy=softmax,tau=1.5,reward=looptime", "auto:random", "auto:expert", "auto,portfolio=static,ss"};

template <class Parse, class Check>
void fuzz(std::uint64_t seed, const std::vector<std::string>& seeds, Parse parse, Check check) {
  testing::fuzz_grammar(seed, seeds, inputs_per_grammar, parse, check);
}

TEST(GrammarFuzz, Schedules) {
  fuzz(
      1, schedule_seeds, [](const std::string& t) { return parse_schedule(t, "fuzz"); },
      [](const std::string& t, const Schedule& s) {
        EXPECT_EQ(parse_schedule(s.text(), "fuzz"), s) << "'" << t << "' reads back differently from '" << s.text()
                                                       << "'";
      });
}

TEST(GrammarFuzz, Selectors) {
  std::vector<std::string> seeds;
  for (const auto& s : schedule_seeds) {
    if (s.starts_with("auto")) seeds.push_back(s);
  }
  fuzz(
      2, seeds, [](const std::string& t) { return parse_selector(t, "fuzz"); },
      [](const std::string&, const SelectorConfig&) {});
}

TEST(GrammarFuzz, TechniqueSpecs) {
  const std::vector<std::string> seeds = {"gss",      "gss:16", "ss:expert", "static,chunk=64",
                                          "fac,mu=1", "tss,chunk=expert", "awf-c", "rnd:1"};
  fuzz(
      3, seeds, [](const std::string& t) { return parse_technique_spec(t, "fuzz"); },
      [](const std::string& t, const TechniqueSpec& s) {
        EXPECT_EQ(parse_technique_spec(s.text(), "fuzz"), s) << "'" << t << "'";
      });
}

}  // namespace
}  // namespace autosched
