#include <autosched/core/error.hpp>
#include <autosched/select/grammar/schedule_environment.hpp>

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

namespace autosched {
namespace {

EnvironmentLookup lookup(std::map<std::string, std::string> vars) {
  return [vars = std::move(vars)](const char* name) -> std::optional<std::string> {
    auto it = vars.find(name);
    if (it == vars.end()) return std::nullopt;
    return it->second;
  };
}

TEST(ScheduleEnvironment, GlobalAndPerLoopSchedules) {
  const auto env = parse_schedule_environment(lookup(
      {{"AUTOSCHED_SCHEDULE", "gss,chunk=8"}, {"AUTOSCHED_SCHEDULE_FOR", "a/b=tss; stream:12:5 = static,chunk=4"}}));
  EXPECT_TRUE(env.problems.empty());
  ASSERT_TRUE(env.global);
  EXPECT_EQ(env.for_loop("other")->fixed.technique, TechniqueId::gss);
  EXPECT_EQ(env.for_loop("a/b")->fixed.technique, TechniqueId::tss);
  EXPECT_EQ(env.for_loop("stream:12:5")->fixed.chunk, 4);
}

// Another name of a loop (an MPI loop's own name under its id mpi:<name>, the
// drop-in's file:line) finds its AUTOSCHED_SCHEDULE_FOR entry before the
// global schedule; the id wins over an alias; a match by alias counts as a match.
TEST(ScheduleEnvironment, PerLoopEntriesMatchAnAliasBeforeTheGlobalSchedule) {
  const auto env = parse_schedule_environment(
      lookup({{"AUTOSCHED_SCHEDULE", "static"}, {"AUTOSCHED_SCHEDULE_FOR", "pi=gss;mpi:both=tss;both=fac2"}}));
  ASSERT_TRUE(env.problems.empty());
  const std::string_view pi[] = {"pi"};
  ASSERT_NE(env.for_loop("mpi:pi", pi), nullptr);
  EXPECT_EQ(env.for_loop("mpi:pi", pi)->text(), "gss");
  EXPECT_EQ(env.for_loop("mpi:pi")->text(), "static");  // without the alias: the global one
  const std::string_view both[] = {"", "both"};
  EXPECT_EQ(env.for_loop("mpi:both", both)->text(), "tss");
  // pi matched by its alias, mpi:both by its id; "both" was never needed
  EXPECT_EQ(env.unmatched(), std::vector<std::string>{"both"});
}

TEST(ScheduleEnvironment, BadValuesBecomeProblemsNotErrors) {
  const auto env =
      parse_schedule_environment(lookup({{"AUTOSCHED_SCHEDULE", "fastest"}, {"AUTOSCHED_SCHEDULE_FOR", "x=gss;=tss;y=nope;z"}}));
  ASSERT_EQ(env.problems.size(), 4u);
  EXPECT_NE(env.problems[0].find("AUTOSCHED_SCHEDULE=fastest: expected a technique name"), std::string::npos);
  EXPECT_NE(env.problems[0].find("ignoring it"), std::string::npos);
  EXPECT_NE(env.problems[1].find("AUTOSCHED_SCHEDULE_FOR="), std::string::npos);
  EXPECT_NE(env.problems[2].find("AUTOSCHED_SCHEDULE_FOR[y]=nope"), std::string::npos);
  EXPECT_FALSE(env.global);
  EXPECT_EQ(env.for_loop("x")->fixed.technique, TechniqueId::gss);  // the good entry survives
}

// 16000 bad entries used to give 16000 problems each repeating the whole
// value (1.6 GB of warnings): now a few, each naming its entry only, escaped
// and bounded, and one line counting the rest.
TEST(ScheduleEnvironment, ManyBadEntriesGiveFewBoundedProblems) {
  std::string value;
  for (int i = 0; i < 16000; ++i) value += "loop" + std::to_string(i) + "=nope\x1b[31m\xff;";
  value += "good=gss;" + std::string(100000, 'x') + "=static,chunk=" + std::string(5000, '9');
  const auto env = parse_schedule_environment(lookup({{"AUTOSCHED_SCHEDULE_FOR", value}}));
  ASSERT_EQ(env.problems.size(), 9u);
  std::size_t total = 0;
  for (const auto& p : env.problems) {
    total += p.size();
    EXPECT_LT(p.size(), 1024u) << p.substr(0, 200);
    EXPECT_EQ(p.find('\x1b'), std::string::npos) << p;  // control characters escaped
    EXPECT_EQ(p.find('\xff'), std::string::npos) << p;  // so is invalid UTF-8
  }
  EXPECT_LT(total, 8000u);
  EXPECT_NE(env.problems[0].find("AUTOSCHED_SCHEDULE_FOR[loop0]=nope\\x1B[31m\\xFF"), std::string::npos)
      << env.problems[0];
  EXPECT_EQ(env.problems[0].find("loop1"), std::string::npos) << env.problems[0];
  EXPECT_NE(env.problems.back().find("and 15993 more bad entries"), std::string::npos) << env.problems.back();
  EXPECT_EQ(env.for_loop("good")->fixed.technique, TechniqueId::gss);
}

// Auto4OMP's method numbers, with expChunk on as in Auto4OMP.
TEST(ScheduleEnvironment, OmpScheduleAliases) {
  const std::pair<const char*, const char*> map[] = {{"auto,2", "random"},   {"auto,3", "exhaustive"}, {"auto,4", "binary"},
                                                     {"auto,5", "expert"},   {"auto,6", "qlearn"},     {"auto,7", "qlearn"},
                                                     {"auto,8", "qlearn"},   {"auto,9", "doubleq"},    {"auto,10", "sarsa"},
                                                     {"auto,11", "expected-sarsa"}, {"auto,12", "qv"}, {"auto,15", "chunk"}};
  for (const auto& [value, selector] : map) {
    const auto env = parse_schedule_environment(lookup({{"OMP_SCHEDULE", value}}));
    ASSERT_TRUE(env.alias) << value;
    EXPECT_EQ(env.alias->selection->selector, selector) << value;
    EXPECT_EQ(env.for_loop("any"), &*env.alias);
    ASSERT_EQ(env.aliases_used.size(), 1u);
    if (std::string(selector) != "chunk") {
      EXPECT_TRUE(env.alias->selection->expert_chunk) << value;
    }
  }
  const auto off = parse_schedule_environment(lookup({{"OMP_SCHEDULE", "auto,3"}, {"KMP_Golden_Chunksize", "0"}}));
  EXPECT_FALSE(off.alias->selection->expert_chunk);
  // LLVM's own auto and other OpenMP schedules are the OpenMP runtime's business.
  for (const char* v : {"auto", "auto,1", "auto,16", "dynamic,4"}) {
    EXPECT_FALSE(parse_schedule_environment(lookup({{"OMP_SCHEDULE", v}})).alias) << v;
  }
  const auto stub = parse_schedule_environment(lookup({{"OMP_SCHEDULE", "auto,14"}}));
  EXPECT_FALSE(stub.alias);
  ASSERT_EQ(stub.problems.size(), 1u);
  EXPECT_NE(stub.problems[0].find("OMP_SCHEDULE=auto,14: expected"), std::string::npos);
}

TEST(ScheduleEnvironment, PrecedenceOfTheVariables) {
  const auto env = parse_schedule_environment(
      lookup({{"AUTOSCHED_SCHEDULE", "gss"}, {"OMP_SCHEDULE", "auto,3"}, {"MPI_RL_OPTION", "QLearner"}}));
  EXPECT_EQ(env.for_loop("x")->fixed.technique, TechniqueId::gss);
  const auto mpi = parse_schedule_environment(lookup({{"MPI_RL_OPTION", "SARSA_Learner"}}));
  EXPECT_EQ(mpi.for_loop("x")->selection->selector, "sarsa");
  EXPECT_EQ(parse_schedule_environment(lookup({{"MPI_RL_OPTION", "15"}})).alias->selection->selector, "chunk");
}

// KMP_RL_* and LB4MPI_RL_* fill the keys an RL schedule leaves unset.
TEST(ScheduleEnvironment, RlKeyAliases) {
  const auto env = parse_schedule_environment(lookup({{"OMP_SCHEDULE", "auto,10"},
                                                      {"KMP_RL_ALPHA", "0.3"},
                                                      {"LB4MPI_RL_REWARD", "loadimbalance"},
                                                      {"KMP_RL_REWARD_NUM", "0.5,-1,-3"},
                                                      {"KMP_RL_POLICY", "softmax"},
                                                      {"LB4MPI_RL_SELECTOR_TYPE", "9"}}));
  ASSERT_TRUE(env.alias);
  const SelectorConfig& c = *env.alias->selection;
  EXPECT_DOUBLE_EQ(c.rl.alpha, 0.3);
  EXPECT_EQ(c.rl.reward, RlReward::loadimbalance);
  EXPECT_DOUBLE_EQ(c.rl.r_minus, -3);
  EXPECT_EQ(c.rl.policy, RlPolicy::softmax);
  // A key the schedule sets itself wins; non-RL schedules are left alone.
  EXPECT_EQ(env.with_rl_keys("auto:qlearn,alpha=0.9").find("alpha=0.3"), std::string::npos);
  EXPECT_EQ(env.with_rl_keys("auto:exhaustive"), "auto:exhaustive");
  EXPECT_NE(env.with_rl_keys("auto:chunk").find("agent=doubleq"), std::string::npos);
  EXPECT_EQ(env.with_rl_keys("auto:qlearn").find("agent="), std::string::npos);
}

TEST(ScheduleEnvironment, BadAliasValuesAreNamed) {
  const auto env = parse_schedule_environment(
      lookup({{"KMP_RL_ALPHA", "1.7"}, {"LB4MPI_RL_POLICY", "explore_first"}, {"MPI_RL_OPTION", "Einstein"}}));
  ASSERT_EQ(env.problems.size(), 3u);
  EXPECT_NE(env.problems[0].find("KMP_RL_ALPHA=1.7: expected alpha = a number in [0, 1]"), std::string::npos)
      << env.problems[0];
  EXPECT_NE(env.problems[1].find("LB4MPI_RL_POLICY=explore_first: expected policy = one of explore-first"),
            std::string::npos)
      << env.problems[1];
  EXPECT_NE(env.problems[2].find("MPI_RL_OPTION=Einstein: expected 8 (QLearner)"), std::string::npos)
      << env.problems[2];
  EXPECT_TRUE(env.rl_keys.empty());
}

}  // namespace
}  // namespace autosched
