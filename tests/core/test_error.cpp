#include <autosched/core/error.hpp>

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>
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

/// What the default sink writes to stderr while `f` runs.
template <class F>
std::string stderr_of(F&& f) {
  std::fflush(stderr);
  char path[] = "/tmp/autosched-stderr-XXXXXX";
  const int file = mkstemp(path);
  EXPECT_GE(file, 0);
  const int saved = dup(2);
  dup2(file, 2);
  f();
  std::fflush(stderr);
  dup2(saved, 2);
  close(saved);
  close(file);
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  std::remove(path);
  return out.str();
}

// Warnings echo the user's input: each is one escaped line of bounded length,
// and a flood about one subject is cut to a few lines and one saying so.
TEST(Error, WarningsAreEscapedBoundedAndSummarised) {
  if (const char* v = std::getenv("AUTOSCHED_VERBOSE"); v && std::string_view(v) == "0") GTEST_SKIP();
  std::vector<std::string> seen;
  auto previous = detail::set_warning_sink([&](std::string_view m) { seen.emplace_back(m); });
  detail::warn("X=a\nb\x1b[2J\xc3\x28 caf\xc3\xa9" + std::string(100000, 'z'));
  detail::set_warning_sink(previous);
  ASSERT_EQ(seen.size(), 1u);  // the sink sees what stderr would
  EXPECT_LE(seen[0].size(), detail::max_warning_bytes + 40);
  EXPECT_TRUE(seen[0].starts_with("X=a\\x0Ab\\x1B[2J\\xC3( caf\xc3\xa9zzz")) << seen[0].substr(0, 40);
  EXPECT_NE(seen[0].find("more bytes)"), std::string::npos);

  const std::string err = stderr_of([] {
    for (int i = 0; i < 16000; ++i)
      detail::warn("FLOOD_SUBJECT[" + std::to_string(i) + "]=" + std::string(100000, 'v') + "\x01");
    detail::warn("OTHER_SUBJECT=1: still shown");
  });
  std::size_t lines = 0;
  for (char c : err) lines += c == '\n' ? 1 : 0;
  EXPECT_EQ(lines, static_cast<std::size_t>(detail::max_warnings_per_subject) + 2) << err.substr(0, 300);
  EXPECT_LT(err.size(), (detail::max_warnings_per_subject + 2) * (detail::max_warning_bytes + 80));
  EXPECT_EQ(err.find('\x01'), std::string::npos);
  EXPECT_NE(err.find("FLOOD_SUBJECT: further warnings about it are not shown"), std::string::npos);
  EXPECT_NE(err.find("OTHER_SUBJECT=1: still shown"), std::string::npos);
}

}  // namespace
}  // namespace autosched
