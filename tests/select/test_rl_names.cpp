// The one table of RL spellings: autosched's names, LB4OMP's numbers, LB4MPI's classes.
#include <autosched/select/selectors/rl/rl_agent.hpp>
#include <autosched/select/grammar/rl_names.hpp>

#include <gtest/gtest.h>

namespace autosched {
namespace {

TEST(RlNames, EveryLearnerHasOneNameNumberAndClass) {
  ASSERT_EQ(rl_learner_names().size(), 5u);
  for (const RlLearnerName& l : rl_learner_names()) {
    EXPECT_EQ(find_rl_learner(l.name), l.learner);
    EXPECT_EQ(rl_learner_name(l.learner), l.name);
    EXPECT_EQ(RlAgent::learner_name(l.learner), l.name);
    EXPECT_EQ(find_rl_learner_alias(std::to_string(l.lb4omp_method)), l.learner);
    EXPECT_EQ(find_rl_learner_alias(l.lb4mpi_name), l.learner);
  }
}

TEST(RlNames, AliasesIgnoreCaseAndUnderscores) {
  EXPECT_EQ(find_rl_learner_alias("QLearner"), RlLearner::qlearn);
  EXPECT_EQ(find_rl_learner_alias(" sarsa_learner "), RlLearner::sarsa);
  EXPECT_EQ(find_rl_learner_alias("SARSALearner"), RlLearner::sarsa);
  EXPECT_EQ(find_rl_learner_alias("ExpectedSARSA_Learner"), RlLearner::expected_sarsa);
  EXPECT_EQ(find_rl_learner_alias("8"), RlLearner::qlearn);
  EXPECT_EQ(find_rl_learner_alias("12"), RlLearner::qv);
  EXPECT_EQ(find_rl_learner_alias("expected-sarsa"), RlLearner::expected_sarsa);
  EXPECT_FALSE(find_rl_learner_alias("13"));
  EXPECT_FALSE(find_rl_learner_alias("Einstein"));
  // The grammar's own names are exact (it lower-cases first).
  EXPECT_FALSE(find_rl_learner("QLearner"));
  EXPECT_EQ(rl_learner_list(), "qlearn, doubleq, sarsa, expected-sarsa, qv");
}

TEST(RlNames, OptionTablesCoverEveryValue) {
  EXPECT_EQ(rl_policy_names().size(), 4u);
  EXPECT_EQ(rl_reward_names().size(), 10u);
  EXPECT_EQ(rl_reward_names()[5].value, RlReward::loadimbalance);
  EXPECT_EQ(rl_init_names().size(), 3u);
  EXPECT_EQ(rl_decay_names().size(), 2u);
  EXPECT_EQ(rl_greedy_names().size(), 2u);
  EXPECT_EQ(rl_band_names().size(), 2u);
}

}  // namespace
}  // namespace autosched
