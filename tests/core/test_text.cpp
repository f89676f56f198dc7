#include <autosched/core/error.hpp>
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

TEST(Text, SplitKeyValue) {
  auto kv = text::split_key_value(" Mu = 120 ");
  EXPECT_TRUE(kv.has_equals);
  EXPECT_EQ(kv.key, "Mu");
  EXPECT_EQ(kv.value, "120");
  kv = text::split_key_value("a/b=tss,chunk=4");  // the first '=' splits
  EXPECT_EQ(kv.key, "a/b");
  EXPECT_EQ(kv.value, "tss,chunk=4");
  kv = text::split_key_value(" gss ");
  EXPECT_FALSE(kv.has_equals);
  EXPECT_EQ(kv.key, "");
  EXPECT_EQ(kv.value, "gss");
}

TEST(Text, OneOfNamesTheChoices) {
  const std::string_view names[] = {"mean", "min"};
  EXPECT_EQ(text::one_of("V", "x,label=min", "label", "min", names), 1u);
  try {
    (void)text::one_of("V", "x,label=max", "label", "max", names);
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "V=x,label=max: expected label = one of mean, min, got 'max'");
  }
}

std::string key_value_error(std::string_view whole, const text::KeyRules& rules) {
  const auto parts = text::split(whole, ',');
  const std::vector<std::string_view> items(parts.begin() + 1, parts.end());
  try {
    text::read_key_values("V", whole, items, rules, [](const std::string&, std::string_view) {});
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

TEST(Text, ReadKeyValuesAppliesKnownKeysInOrder) {
  const std::string_view keys[] = {"alpha", "chunk"};
  const std::vector<std::string_view> items = {"Alpha = 0.5", "chunk=4"};
  std::vector<std::pair<std::string, std::string>> seen;
  text::read_key_values("V", "x,Alpha = 0.5,chunk=4", items, text::KeyRules{"x", keys, {}, {}},
                        [&](const std::string& k, std::string_view v) { seen.emplace_back(k, v); });
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[0], (std::pair<std::string, std::string>{"alpha", "0.5"}));
  EXPECT_EQ(seen[1], (std::pair<std::string, std::string>{"chunk", "4"}));
}

TEST(Text, ReadKeyValuesRejectsWithOneSetOfMessages) {
  const std::string_view keys[] = {"alpha", "chunk"};
  const text::KeyRules rules{"x", keys, {}, "a note"};
  EXPECT_EQ(key_value_error("x,beta=1", rules), "V=x,beta=1: expected a key x accepts (alpha, chunk), got 'beta'");
  EXPECT_EQ(key_value_error("x,alpha=1,ALPHA=2", rules),
            "V=x,alpha=1,ALPHA=2: expected each key at most once; 'alpha' repeats");
  EXPECT_EQ(key_value_error("x,fast", rules),
            "V=x,fast: expected <key>=<value> items after the name; 'fast' has no '=' (a note). Keys for x: alpha, "
            "chunk");
}

TEST(Text, ReadKeyValuesMapsBareItems) {
  const std::string_view keys[] = {"chunk", "list"};
  text::KeyRules rules{"x", keys, {}, {}};
  std::vector<std::string> list;
  rules.bare = [&](std::size_t index, std::string_view item, std::string_view previous) -> std::optional<std::string> {
    if (index == 0) return "chunk";                  // stands for a key
    if (previous == "list") {                        // continues a list
      list.emplace_back(item);
      return "";
    }
    return std::nullopt;
  };
  const std::vector<std::string_view> items = {"4", "list=a", "b", "c"};
  std::string chunk;
  text::read_key_values("V", "x,4,list=a,b,c", items, rules, [&](const std::string& k, std::string_view v) {
    if (k == "chunk") chunk = v;
    if (k == "list") list.emplace_back(v);
  });
  EXPECT_EQ(chunk, "4");
  EXPECT_EQ(list, (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_NE(key_value_error("x,4,chunk=5", rules).find("'chunk' repeats"), std::string::npos);
}

// One escaping helper for every message that echoes input: printable ASCII
// and valid UTF-8 stay, the rest becomes \xNN; idempotent; bounded.
TEST(Text, EscapeMakesInputPrintableAndBounded) {
  EXPECT_EQ(text::escape("plain, caf\xc3\xa9 \xe2\x86\x92 ok"), "plain, caf\xc3\xa9 \xe2\x86\x92 ok");
  EXPECT_EQ(text::escape("a\tb\nc\x7f"), "a\\x09b\\x0Ac\\x7F");
  EXPECT_EQ(text::escape("\xff\xc3(\xed\xa0\x80\xf4\x90\x80\x80\xe2\x86"),
            "\\xFF\\xC3(\\xED\\xA0\\x80\\xF4\\x90\\x80\\x80\\xE2\\x86");
  const std::string once = text::escape("x\x01y\xfe");
  EXPECT_EQ(text::escape(once), once);
  EXPECT_EQ(text::escape(std::string(10, 'a'), 4), "aaaa… (6 more bytes)");
  EXPECT_EQ(text::escape("\x01\x02", 5), "\\x01… (1 more bytes)");
  // bad_value echoes the user's value escaped and bounded.
  const std::string m = text::bad_value("AUTOSCHED_X", "1\x1b[0m" + std::string(10000, '7'), "a number");
  EXPECT_TRUE(m.starts_with("AUTOSCHED_X=1\\x1B[0m777")) << m.substr(0, 40);
  EXPECT_LT(m.size(), text::max_echoed_value + 80);
  EXPECT_TRUE(m.ends_with(": expected a number")) << m;
}

}  // namespace
}  // namespace autosched
