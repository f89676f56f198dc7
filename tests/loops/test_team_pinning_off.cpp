// AUTOSCHED_PINNING=off: the loops start no manager and register no thread.
#include <autosched/core/error.hpp>
#include <autosched/pinning/team_pinning.hpp>

#include "team_pinning_support.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

namespace autosched {
namespace {

TEST(TeamPinningOff, StartsNoManager) {
  ::setenv("AUTOSCHED_PINNING", "off", 1);
  int warnings = 0;
  auto previous = detail::set_warning_sink([&](std::string_view w) {
    if (w.find("pinning") != std::string_view::npos) ++warnings;  // warned by the thread starting the loop
  });
  for (int k = 0; k < 3; ++k) EXPECT_EQ(testing::run_counted_loop(10000, 2), 0);
  detail::set_warning_sink(std::move(previous));
  EXPECT_EQ(loop_pinning_manager(), nullptr);
  EXPECT_EQ(warnings, 0);
  const std::string status = loop_pinning_status();
  EXPECT_NE(status.find("AUTOSCHED_PINNING=off"), std::string::npos) << status;
  EXPECT_NE(status.find("not pinned"), std::string::npos) << status;
}

}  // namespace
}  // namespace autosched
