#include <autosched/core/error.hpp>
#include <autosched/loops/loops.hpp>

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

namespace autosched {
namespace {

TEST(ScheduleEnvironment, GlobalAndPerLoopSchedules) {
  const auto env = parse_schedule_environment("gss,chunk=8", "a/b=tss; stream:12:5 = static,chunk=4");
  EXPECT_TRUE(env.problems.empty());
  ASSERT_TRUE(env.global);
  EXPECT_EQ(env.for_loop("other")->technique, TechniqueId::gss);
  EXPECT_EQ(env.for_loop("a/b")->technique, TechniqueId::tss);
  EXPECT_EQ(env.for_loop("stream:12:5")->chunk, 4);
}

TEST(ScheduleEnvironment, BadValuesBecomeProblemsNotErrors) {
  const auto env = parse_schedule_environment("fastest", "x=gss;=tss;y=nope;z");
  ASSERT_EQ(env.problems.size(), 4u);
  EXPECT_NE(env.problems[0].find("AUTOSCHED_SCHEDULE=fastest: expected a technique name"), std::string::npos);
  EXPECT_NE(env.problems[0].find("ignoring it"), std::string::npos);
  EXPECT_NE(env.problems[1].find("AUTOSCHED_SCHEDULE_FOR="), std::string::npos);
  EXPECT_NE(env.problems[2].find("AUTOSCHED_SCHEDULE_FOR[y]=nope"), std::string::npos);
  EXPECT_FALSE(env.global);
  EXPECT_EQ(env.for_loop("x")->technique, TechniqueId::gss);  // the good entry survives
}

// End to end: the variables steer loops that have no schedule option, the
// per-loop one wins over the global one, and a schedule option wins over both.
// A bad value warns and the loop runs on its default.
TEST(ScheduleEnvironment, SteersLoopsWithoutAScheduleOption) {
  setenv("AUTOSCHED_SCHEDULE", "gss", 1);
  setenv("AUTOSCHED_SCHEDULE_FOR", "env/special=tss", 1);
  detail::reload_schedule_environment();
  parallel_for(0, 100, [](int) {}, {.name = "env/plain", .threads = 2});
  parallel_for(0, 100, [](int) {}, {.name = "env/special", .threads = 2});
  parallel_for(0, 100, [](int) {}, {.name = "env/coded", .schedule = "fac2", .threads = 2});
  EXPECT_EQ(last_instance("env/plain")->technique, "gss");
  EXPECT_EQ(last_instance("env/special")->technique, "tss");
  EXPECT_EQ(last_instance("env/coded")->technique, "fac2");

  std::vector<std::string> warnings;
  auto previous = detail::set_warning_sink([&](std::string_view m) { warnings.emplace_back(m); });
  setenv("AUTOSCHED_SCHEDULE", "gss,chunk=zero", 1);
  unsetenv("AUTOSCHED_SCHEDULE_FOR");
  detail::reload_schedule_environment();
  parallel_for(0, 100, [](int) {}, {.name = "env/plain", .threads = 2});
  detail::set_warning_sink(previous);
  unsetenv("AUTOSCHED_SCHEDULE");
  detail::reload_schedule_environment();
  EXPECT_EQ(last_instance("env/plain")->technique, "static");
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("AUTOSCHED_SCHEDULE=gss,chunk=zero: expected chunk = a positive integer"),
            std::string::npos)
      << warnings[0];
}

}  // namespace
}  // namespace autosched
