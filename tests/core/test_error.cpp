#include <autosched/core/error.hpp>

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace autosched {
namespace {

TEST(Error, CarriesMessageAndThrowSite) {
  try {
    detail::throw_error("bad thing");
    FAIL() << "no exception";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "bad thing");
    EXPECT_NE(e.where().find("test_error.cpp:"), std::string::npos) << e.where();
  }
}

TEST(Error, WarningsGoToTheInstalledSink) {
  std::vector<std::string> seen;
  auto previous = detail::set_warning_sink([&](std::string_view m) { seen.emplace_back(m); });
  detail::warn("first");
  detail::warn("second");
  detail::set_warning_sink(previous);
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[0], "first");
}

}  // namespace
}  // namespace autosched
