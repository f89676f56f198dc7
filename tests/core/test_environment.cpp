// Reading environment variables: yes/no settings accept the usual spellings
// and warn about anything else instead of ignoring it.
#include <autosched/core/environment.hpp>
#include <autosched/core/error.hpp>

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

namespace autosched {
namespace {

TEST(Environment, FlagAcceptsTheUsualSpellingsAndWarnsOtherwise) {
  const char* name = "AUTOSCHED_TEST_FLAG_FOR_ENVIRONMENT";
  std::vector<std::string> warnings;
  auto previous = detail::set_warning_sink([&](std::string_view w) { warnings.emplace_back(w); });
  unsetenv(name);
  EXPECT_TRUE(environment::flag(name, true));
  EXPECT_FALSE(environment::flag(name, false));
  for (const char* yes : {"1", "yes", "TRUE", " on "}) {
    setenv(name, yes, 1);
    EXPECT_TRUE(environment::flag(name, false)) << yes;
  }
  for (const char* no : {"0", "No", "false", "OFF"}) {
    setenv(name, no, 1);
    EXPECT_FALSE(environment::flag(name, true)) << no;
  }
  setenv(name, "", 1);
  EXPECT_TRUE(environment::flag(name, true));
  EXPECT_TRUE(warnings.empty());
  setenv(name, "yess", 1);
  EXPECT_FALSE(environment::flag(name, false));
  unsetenv(name);
  detail::set_warning_sink(previous);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("AUTOSCHED_TEST_FLAG_FOR_ENVIRONMENT=yess: expected 1, yes, true, on or 0"),
            std::string::npos)
      << warnings[0];
}

}  // namespace
}  // namespace autosched
