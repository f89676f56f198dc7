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
  testing::FuzzInput input({"static", "static,variant=1", "Static,policy=2", "roundrobin", "random",
                            "dtree,depth=2", "DecisionTree,max_depth=3", "rforest,trees=10,features=sqrt",
                            "epsilon,epsilon=0.1", "ucb,c=2", "thompson", "auto", "dtree,depth=4,retrain=50"},
                           4);
  int accepted = 0, rejected = 0;
  for (int i = 0; i < 20000; ++i) {
    const std::string text = input.next();
    try {
      (void)parse_model_spec(text, "fuzz");
      ++accepted;
    } catch (const Error& e) {
      ASSERT_LT(std::string(e.what()).size(), 4096u) << "input " << i;
      ++rejected;
    } catch (const std::exception& e) {
      FAIL() << "input " << i << " threw a non-autosched exception: " << e.what();
    }
  }
  EXPECT_GT(accepted, 0);
  EXPECT_GT(rejected, 0);
}

}  // namespace
}  // namespace autosched
