#include <autosched/core/error.hpp>
#include <autosched/loops/loops.hpp>

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

namespace autosched {
namespace {

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
  EXPECT_EQ(last_instance("env/plain")->selector, "auto");  // the default
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("AUTOSCHED_SCHEDULE=gss,chunk=zero: expected chunk = a positive integer"),
            std::string::npos)
      << warnings[0];
}

}  // namespace
}  // namespace autosched
