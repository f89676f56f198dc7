// A region's model file named by the user (RegionOptions::model_file, or
// load= in the model spec) that is a FIFO or a device: refused with a
// warning, the region explores. Opening a FIFO used to block forever and
// /dev/zero was read until memory ran out; each check runs in a child with a
// deadline so that a regression fails instead of hanging.
#include <autosched/core/error.hpp>
#include <autosched/regions/region.hpp>

#include "core/in_child.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

namespace autosched {
namespace {

/// Constructs a region with `options` and says whether it warned that the
/// model file `path` is unusable because of `reason`.
bool refused_with_warning(RegionOptions options, const std::string& path, const std::string& reason) {
  std::vector<std::string> seen;
  detail::set_warning_sink([&](std::string_view m) { seen.emplace_back(m); });
  Region region("files", std::move(options));
  detail::set_warning_sink({});
  for (const std::string& m : seen) {
    if (m.find("model file " + path + " is unusable") != std::string::npos && m.find(reason) != std::string::npos)
      return true;
  }
  return false;
}

RegionOptions with_file(const std::string& path) {
  return {.features = {"x"}, .variants = {"a", "b"}, .model = "round-robin", .model_file = path, .persist = false};
}

RegionOptions with_load(const std::string& path) {
  return {.features = {"x"}, .variants = {"a", "b"}, .model = "round-robin,load=" + path, .persist = false};
}

TEST(RegionFiles, AFifoAsModelFileIsRefusedWithoutBlocking) {
  const std::string fifo =
      (std::filesystem::temp_directory_path() / ("autosched-region-fifo-" + std::to_string(getpid()))).string();
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_EQ(testing::in_child([&] { return refused_with_warning(with_file(fifo), fifo, "it is a FIFO"); }), "ok");
  EXPECT_EQ(testing::in_child([&] { return refused_with_warning(with_load(fifo), fifo, "it is a FIFO"); }), "ok");
  std::filesystem::remove(fifo);
}

TEST(RegionFiles, DevZeroAsModelFileIsRefusedInsteadOfReadForever) {
  EXPECT_EQ(testing::in_child(
                [] { return refused_with_warning(with_file("/dev/zero"), "/dev/zero", "it is a character device"); }),
            "ok");
  EXPECT_EQ(testing::in_child(
                [] { return refused_with_warning(with_load("/dev/zero"), "/dev/zero", "it is a character device"); }),
            "ok");
}

}  // namespace
}  // namespace autosched
