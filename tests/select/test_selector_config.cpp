// The selection grammar: auto[:<selector>][,<key>=<value>...].
#include <autosched/core/error.hpp>
#include <autosched/select/grammar/schedule_environment.hpp>
#include <autosched/select/engine/selector_factory.hpp>
#include <autosched/select/grammar/selector_config.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace autosched {
namespace {

std::string replay_file(const std::string& name, const std::string& body) {
  const auto path = std::filesystem::temp_directory_path() / ("autosched-replay-" + std::to_string(getpid()) + name);
  std::ofstream(path) << body;
  return path.string();
}

// A replay file naming an arm the portfolio lacks is rejected when the
// schedule is read (a warning for an environment value), not at the first
// loop, where it used to throw out of the loop.
TEST(SelectorConfig, AReplayedArmOutsideThePortfolioIsRejectedWhenRead) {
  const std::string good = replay_file("good", "arm\nstatic\n1\ngss\n");
  const std::string bad = replay_file("bad", "arm\nstatic\nnot-a-technique\n");
  const std::string far = replay_file("far", "arm\n0\n3\n");
  const SelectorConfig ok = parse_selector("auto:qlearn,portfolio=static,ss,gss,replay=" + good, "test");
  EXPECT_EQ(ok.replay_arms.size(), 3u);
  for (const std::string& file : {bad, far}) {
    const std::string text = "auto:qlearn,portfolio=static,ss,gss,policy=replay,replay=" + file;
    try {
      parse_selector(text, "test");
      ADD_FAILURE() << "accepted " << file;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("replay = a file of arms of the portfolio (static, ss, gss)"),
                std::string::npos)
          << e.what();
    }
  }
  // Read from the environment: a warning naming the variable, the schedule ignored.
  const std::string value = "auto:qlearn,policy=replay,replay=" + bad;
  const auto env = parse_schedule_environment([&](const char* name) -> std::optional<std::string> {
    if (std::string_view(name) == "AUTOSCHED_SCHEDULE") return value;
    return std::nullopt;
  });
  EXPECT_FALSE(env.global.has_value());
  ASSERT_EQ(env.problems.size(), 1u);
  EXPECT_NE(env.problems[0].find("AUTOSCHED_SCHEDULE="), std::string::npos) << env.problems[0];
  EXPECT_NE(env.problems[0].find("'not-a-technique'"), std::string::npos) << env.problems[0];

  // The chunk selector's arms come from the loop's size: an index beyond them
  // is skipped with a warning when the selector is made, never thrown.
  const SelectorConfig chunk = parse_selector("auto:chunk,replay=" + far, "test");
  const Portfolio arms = selector_portfolio(chunk, Context{.n = 64, .p = 4});
  ASSERT_LT(arms.size(), 4u);
  std::vector<std::string> warnings;
  auto previous = detail::set_warning_sink([&](std::string_view w) { warnings.emplace_back(w); });
  std::unique_ptr<Selector> selector;
  EXPECT_NO_THROW(selector = make_selector(chunk, arms, 1, nullptr, "loop/x"));
  detail::set_warning_sink(previous);
  EXPECT_NE(selector, nullptr);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("arm '3'"), std::string::npos) << warnings[0];
  for (const auto& f : {good, bad, far}) std::filesystem::remove(f);
}

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
  c = parse_selector("auto,predict=no,margin=0.05,trials=3", "test");
  EXPECT_FALSE(c.automatic.predict);
  EXPECT_DOUBLE_EQ(c.automatic.margin, 0.05);
  EXPECT_EQ(c.automatic.max_trials, 3);
  EXPECT_TRUE(parse_selector("auto", "test").automatic.predict);
  EXPECT_DOUBLE_EQ(parse_selector("auto", "test").automatic.jitter, 0.05);
  EXPECT_DOUBLE_EQ(parse_selector("auto,jitter=0", "test").automatic.jitter, 0.0);
  EXPECT_DOUBLE_EQ(parse_selector("auto,jitter=0.1", "test").automatic.jitter, 0.1);
}

TEST(SelectorConfig, RejectsBadPredictionKeys) {
  EXPECT_THROW(parse_selector("auto,predict=maybe", "test"), Error);
  EXPECT_THROW(parse_selector("auto,stick=sometimes", "test"), Error);
  EXPECT_FALSE(parse_selector("auto,stick=no", "test").automatic.stick);
  EXPECT_TRUE(parse_selector("auto", "test").automatic.stick);
  EXPECT_THROW(parse_selector("auto,margin=-1", "test"), Error);
  EXPECT_THROW(parse_selector("auto,trials=1", "test"), Error);
  EXPECT_DOUBLE_EQ(parse_selector("auto", "test").automatic.reprofile, 0.75);
  EXPECT_DOUBLE_EQ(parse_selector("auto,reprofile=0", "test").automatic.reprofile, 0.0);
  EXPECT_DOUBLE_EQ(parse_selector("auto,reprofile=0.5", "test").automatic.reprofile, 0.5);
  EXPECT_THROW(parse_selector("auto,reprofile=1.5", "test"), Error);
  EXPECT_THROW(parse_selector("auto,reprofile=-0.1", "test"), Error);
  EXPECT_THROW(parse_selector("auto,jitter=0.95", "test"), Error);
  EXPECT_THROW(parse_selector("auto,jitter=-0.1", "test"), Error);
  EXPECT_THROW(parse_selector("auto:qlearn,predict=no", "test"), Error);  // an auto key only
}

TEST(SelectorConfig, PortfoliosForAContext) {
  const Context ctx{std::int64_t{1} << 20, 4, {}};
  EXPECT_EQ(selector_portfolio(parse_selector("auto", "t"), ctx).size(), 24u);  // auto_portfolio()
  EXPECT_EQ(selector_portfolio(parse_selector("auto:exhaustive", "t"), ctx).size(), 12u);
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
