// A schedule given in code as a typed value runs exactly like its text.
#include <autosched/loops/loops.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <vector>

namespace autosched {
namespace {

std::int64_t covered(const std::string& loop, const ScheduleChoice& schedule) {
  std::vector<std::atomic<int>> hits(1000);
  parallel_for(0, 1000, [&](int i) { hits[static_cast<std::size_t>(i)]++; },
               {.name = loop, .schedule = schedule, .threads = 2});
  std::int64_t once = 0;
  for (auto& h : hits) once += h.load() == 1;
  return once;
}

TEST(ScheduleChoice, ATechniqueSpecRunsAsItsText) {
  EXPECT_EQ(covered("choice/typed", TechniqueSpec{TechniqueId::gss, 16, false, {}}), 1000);
  const auto typed = last_instance("choice/typed");
  EXPECT_EQ(covered("choice/text", "gss,chunk=16"), 1000);
  const auto text = last_instance("choice/text");
  EXPECT_EQ(typed->technique, "gss");
  EXPECT_EQ(typed->chunk, 16);
  EXPECT_EQ(typed->technique, text->technique);
  EXPECT_EQ(typed->chunk, text->chunk);
}

TEST(ScheduleChoice, ATypedSelectionSchedule) {
  EXPECT_EQ(covered("choice/selection", parse_schedule("auto:exhaustive,portfolio=static,ss", "test")), 1000);
  EXPECT_EQ(last_instance("choice/selection")->selector, "exhaustive");
}

TEST(ScheduleChoice, ChangingTheTypedValueTakesEffect) {
  covered("choice/changing", TechniqueSpec{TechniqueId::static_, 0, false, {}});
  EXPECT_EQ(last_instance("choice/changing")->technique, "static");
  covered("choice/changing", TechniqueSpec{TechniqueId::tss, 0, false, {}});
  EXPECT_EQ(last_instance("choice/changing")->technique, "tss");
  covered("choice/changing", "ss");
  EXPECT_EQ(last_instance("choice/changing")->technique, "ss");
}

TEST(ScheduleChoice, ABadTypedValueIsRejectedLikeBadText) {
  try {
    covered("choice/bad", TechniqueSpec{TechniqueId::gss, -3, false, {}});
    FAIL() << "accepted a negative chunk";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("LoopOptions::schedule"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("-3"), std::string::npos) << e.what();
  }
}

TEST(ScheduleChoice, EmptyMeansTheEnvironmentOrAuto) {
  EXPECT_TRUE(ScheduleChoice{}.empty());
  EXPECT_TRUE(ScheduleChoice{""}.empty());
  EXPECT_FALSE(ScheduleChoice{TechniqueSpec{}}.empty());
}

}  // namespace
}  // namespace autosched
