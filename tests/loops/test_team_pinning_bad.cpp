// A bad AUTOSCHED_PINNING: one warning naming the variable and the accepted
// policies, no manager, and the loops run as usual.
#include <autosched/core/error.hpp>
#include <autosched/pinning/team_pinning.hpp>

#include "team_pinning_support.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <mutex>
#include <string>
#include <vector>

namespace autosched {
namespace {

TEST(TeamPinningBadValue, WarnsOnceAndLoopsRunUnpinned) {
  ::setenv("AUTOSCHED_PINNING", "sideways,eps=2", 1);
  std::mutex m;
  std::vector<std::string> warnings;
  auto previous = detail::set_warning_sink([&](std::string_view w) {
    std::lock_guard lock(m);
    if (w.find("AUTOSCHED_PINNING") != std::string_view::npos) warnings.emplace_back(w);
  });
  for (int k = 0; k < 4; ++k) {
    EXPECT_EQ(testing::run_counted_loop(10000, 2), 0);
    EXPECT_EQ(testing::run_counted_loop(10000, 2, "ss,chunk=7"), 0);
  }
  detail::set_warning_sink(std::move(previous));

  EXPECT_EQ(loop_pinning_manager(), nullptr);
  ASSERT_EQ(warnings.size(), 1u);
  for (const char* word : {"AUTOSCHED_PINNING", "sideways", "round-robin", "autopin", "off", "unpinned"}) {
    EXPECT_NE(warnings[0].find(word), std::string::npos) << word << " missing from: " << warnings[0];
  }
  EXPECT_NE(loop_pinning_status().find("not pinned"), std::string::npos) << loop_pinning_status();
}

}  // namespace
}  // namespace autosched
