#include <autosched/core/text.hpp>

#include <gtest/gtest.h>

namespace autosched {
namespace {

TEST(Text, ToIntAcceptsWholeTokensOnly) {
  EXPECT_EQ(text::to_int("42"), 42);
  EXPECT_EQ(text::to_int(" -7 "), -7);
  EXPECT_EQ(text::to_int("+3"), 3);
  EXPECT_EQ(text::to_int("4611686018427387904"), std::int64_t{1} << 62);
  EXPECT_FALSE(text::to_int("12x"));
  EXPECT_FALSE(text::to_int("1.5"));
  EXPECT_FALSE(text::to_int(""));
  EXPECT_FALSE(text::to_int("99999999999999999999"));  // out of range
}

TEST(Text, ToDoubleRejectsNonFinite) {
  EXPECT_DOUBLE_EQ(*text::to_double("1.5e3"), 1500.0);
  EXPECT_DOUBLE_EQ(*text::to_double("0.25"), 0.25);
  EXPECT_FALSE(text::to_double("inf"));
  EXPECT_FALSE(text::to_double("nan"));
  EXPECT_FALSE(text::to_double("1,5"));
}

TEST(Text, SplitTrimsPieces) {
  const auto parts = text::split(" gss , chunk=4 ,", ',');
  ASSERT_EQ(parts.size(), 3u);
  EXPECT_EQ(parts[0], "gss");
  EXPECT_EQ(parts[1], "chunk=4");
  EXPECT_EQ(parts[2], "");
}

TEST(Text, BadValueNamesVariableValueAndAcceptedValues) {
  EXPECT_EQ(text::bad_value("AUTOSCHED_RL_ALPHA", "1.7", "a number in [0,1]"),
            "AUTOSCHED_RL_ALPHA=1.7: expected a number in [0,1]");
}

}  // namespace
}  // namespace autosched
