// The selection grammar: auto[:<selector>][,<key>=<value>...].
#include <autosched/core/error.hpp>
#include <autosched/select/selector_config.hpp>

#include <gtest/gtest.h>

namespace autosched {
namespace {

TEST(SelectorConfig, ParsesSelectorsKeysAndPortfolios) {
  SelectorConfig c = parse_selector("auto", "test");
  EXPECT_EQ(c.selector, "auto");
  c = parse_selector("auto:qlearn,policy=softmax,reward=looptime,tau=1.5", "test");
  EXPECT_EQ(c.selector, "qlearn");
  EXPECT_EQ(c.rl.policy, RlPolicy::softmax);
  EXPECT_DOUBLE_EQ(c.rl.tau, 1.5);
  c = parse_selector("auto:exhaustive,portfolio=static,ss:4,gss,drift=0.2", "test");
  ASSERT_EQ(c.portfolio.size(), 3u);
  EXPECT_EQ(c.portfolio[1].label(), "ss:4");
  EXPECT_DOUBLE_EQ(c.drift, 0.2);
  c = parse_selector("auto:chunk,agent=sarsa,technique=gss", "test");
  EXPECT_EQ(c.chunk_agent, "sarsa");
  EXPECT_EQ(c.chunk_technique, TechniqueId::gss);
  c = parse_selector("auto,chunk=expert", "test");
  EXPECT_TRUE(c.expert_chunk);
  c = parse_selector("auto:sarsa,rewards=0.1:-1:-3,alpha=0.3,decay=step", "test");
  EXPECT_DOUBLE_EQ(c.rl.r_minus, -3);
  EXPECT_EQ(c.rl.decay, RlDecay::step);
}

TEST(SelectorConfig, PortfoliosForAContext) {
  const Context ctx{std::int64_t{1} << 20, 4, {}};
  EXPECT_EQ(selector_portfolio(parse_selector("auto", "t"), ctx).size(), 12u);
  const auto expert = selector_portfolio(parse_selector("auto,chunk=expert", "t"), ctx);
  EXPECT_TRUE(expert[3].expert_chunk);
  // N/(2^(i−1)P), i = 1..⌊log2(N/P)⌋ − 1: N/P = 2^18 → 17 arms, 2^18 down to 4.
  const auto chunks = selector_portfolio(parse_selector("auto:chunk,technique=gss", "t"), ctx);
  ASSERT_EQ(chunks.size(), 17u);
  EXPECT_EQ(chunks.front().chunk, std::int64_t{1} << 18);
  EXPECT_EQ(chunks.back().chunk, 4);
  EXPECT_EQ(chunks.front().technique, TechniqueId::gss);
  // N < 4P: a single arm instead of LB4OMP's invalid allocation.
  EXPECT_EQ(selector_portfolio(parse_selector("auto:chunk", "t"), Context{10, 4, {}}).size(), 1u);
}

TEST(SelectorConfig, MakesEverySelector) {
  const Portfolio arms = auto4omp_portfolio();
  for (auto name : selector_names()) {
    const auto sel = make_selector(parse_selector("auto:" + std::string(name), "t"), arms, 1, nullptr, "p");
    EXPECT_EQ(sel->name(), name);
  }
}

struct Bad {
  const char* text;
  const char* part;
};
class BadSelectors : public ::testing::TestWithParam<Bad> {};

TEST_P(BadSelectors, AreRejectedWithTheirName) {
  try {
    parse_selector(GetParam().text, "AUTOSCHED_SCHEDULE");
    FAIL() << GetParam().text;
  } catch (const Error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find(std::string("AUTOSCHED_SCHEDULE=") + GetParam().text + ": expected"), std::string::npos) << m;
    EXPECT_NE(m.find(GetParam().part), std::string::npos) << m;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Table, BadSelectors,
    ::testing::Values(Bad{"auto:qlaern", "a selector after 'auto:': auto, random"},
                      Bad{"auto:", "a selector after 'auto:'"},
                      Bad{"auto:qlearn,policy=greedy", "policy = one of explore-first"},
                      Bad{"auto:qlearn,reward=speed", "reward = one of looptime"},
                      Bad{"auto:qlearn,alpha=1.7", "alpha = a number in [0, 1]"},
                      Bad{"auto:qlearn,rewards=1:2:3", "rewards = r+:r0:r-"},
                      Bad{"auto:random,alpha=0.5", "a key random accepts"}, Bad{"auto,guard=0.5", "guard = a number"},
                      Bad{"auto,portfolio=", "portfolio = at least one arm"},
                      Bad{"auto,portfolio=static,nope", "a technique: static, ss"},
                      Bad{"auto,portfolio=profiling", "an arm <technique>"}, Bad{"auto,chunk=4", "chunk = expert"},
                      Bad{"auto:chunk,agent=expert", "agent = one of qlearn"},
                      Bad{"auto:qlearn,replay=/nonexistent/file", "replay = a readable file"},
                      Bad{"auto,fast", "has no '='"}, Bad{"auto:qlearn,alpha=0.5,alpha=0.6", "'alpha' repeats"}),
    [](const ::testing::TestParamInfo<Bad>& p) { return "case" + std::to_string(p.index); });

}  // namespace
}  // namespace autosched
