#include <autosched/core/system_info.hpp>
#include <autosched/core/version.hpp>

#include <gtest/gtest.h>

#include <cctype>

namespace autosched {
namespace {

TEST(SystemInfo, DescribesThisMachine) {
  const SystemInfo& s = system_info();
  EXPECT_FALSE(s.cpu_model.empty());
  EXPECT_GE(s.hardware_threads, 1);
  EXPECT_GE(s.physical_cores, 1);
  EXPECT_LE(s.physical_cores, s.hardware_threads);
  EXPECT_EQ(s.library_version, AUTOSCHED_VERSION_STRING);
  EXPECT_FALSE(s.compiler.empty());
}

TEST(SystemInfo, FingerprintIsSixteenHexDigitsAndStable) {
  const SystemInfo& s = system_info();
  ASSERT_EQ(s.fingerprint.size(), 16u);
  for (char c : s.fingerprint) EXPECT_TRUE(std::isxdigit(static_cast<unsigned char>(c))) << s.fingerprint;
  EXPECT_EQ(&system_info(), &s);  // probed once
}

}  // namespace
}  // namespace autosched
