// The region model grammar under hostile input: accepted, or rejected with
// autosched::Error — never another exception, a crash or an unbounded
// message. (Model files are fuzzed in test_model_file.cpp.) Seeded, bounded.
#include <autosched/core/error.hpp>
#include <autosched/regions/model_spec.hpp>

#include "fuzz_input.hpp"

#include <gtest/gtest.h>

#include <string>

namespace autosched {
namespace {

TEST(GrammarFuzz, RegionModelSpecs) {
  testing::fuzz_grammar(
      4,
      {"static", "static,variant=1", "Static,policy=2", "roundrobin", "random", "dtree,depth=2",
       "DecisionTree,max_depth=3", "rforest,trees=10,features=sqrt", "epsilon,epsilon=0.1", "ucb,c=2", "thompson",
       "auto", "dtree,depth=4,retrain=50"},
      20000, [](const std::string& t) { return parse_model_spec(t, "fuzz"); },
      [](const std::string&, const ModelSpec&) {});
}

}  // namespace
}  // namespace autosched
