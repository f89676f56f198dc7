// includes point only downward. Every #include <autosched/<layer>/...>
// in a layer's folder must name that layer or a lower one.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <string>

namespace {

// Lowest first; layers of one rank may not include each other: drive and
// store sit side by side (the session wires them), and so do the front-ends.
// pinning's manager uses only core; its team pinning observes the driver,
// and loops and the drop-in start it (AUTOSCHED_PINNING).
const std::map<std::string, int> rank = {
    {"core", 0},    {"measure", 1}, {"techniques", 2}, {"select", 3}, {"store", 4},   {"drive", 4},
    {"session", 5}, {"pinning", 5}, {"loops", 6},      {"omp", 6},    {"mpi", 6},     {"regions", 6},
    {"dag", 6},
};

TEST(Layering, LowerLayersNeverIncludeHigherOnes) {
  namespace fs = std::filesystem;
  const fs::path root = fs::path(AUTOSCHED_SOURCE_DIR) / "autosched";
  const std::regex include(R"(#include\s*<autosched/([a-z_]+)/)");
  int files = 0;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    if (!entry.is_regular_file()) continue;
    const auto ext = entry.path().extension();
    if (ext != ".hpp" && ext != ".cpp") continue;
    const std::string layer = fs::relative(entry.path(), root).begin()->string();
    auto own = rank.find(layer);
    if (own == rank.end()) continue;  // autosched.hpp umbrella
    ++files;
    std::ifstream in(entry.path());
    std::string line;
    while (std::getline(in, line)) {
      std::smatch m;
      if (!std::regex_search(line, m, include)) continue;
      const std::string target = m[1];
      auto other = rank.find(target);
      ASSERT_NE(other, rank.end()) << entry.path() << " includes unknown layer " << target;
      const bool ok = other->second < own->second || target == layer;
      EXPECT_TRUE(ok) << entry.path() << " (" << layer << ") includes " << target;
    }
  }
  EXPECT_GT(files, 20);
}

// Inside select: grammar, then selectors, then engine; an area includes only
// itself and the areas before it (the grammar knows no selector; the
// selectors know no decision point; the engine makes and drives them).
TEST(Layering, SelectAreasIncludeOnlyDownward) {
  namespace fs = std::filesystem;
  const std::map<std::string, int> area = {{"grammar", 0}, {"selectors", 1}, {"engine", 2}};
  const fs::path root = fs::path(AUTOSCHED_SOURCE_DIR) / "autosched" / "select";
  const std::regex include(R"(#include\s*<autosched/select/([a-z_]+)/)");
  int files = 0;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    if (!entry.is_regular_file()) continue;
    const auto rel = fs::relative(entry.path(), root);
    if (std::distance(rel.begin(), rel.end()) < 2) continue;  // select.hpp, CMakeLists.txt
    const std::string own = rel.begin()->string();
    ASSERT_TRUE(area.count(own)) << entry.path() << " is in no area of select/ (grammar, selectors, engine)";
    ++files;
    std::ifstream in(entry.path());
    std::string line;
    while (std::getline(in, line)) {
      std::smatch m;
      if (!std::regex_search(line, m, include)) continue;
      const auto target = area.find(m[1]);
      ASSERT_NE(target, area.end()) << entry.path() << " includes select/" << m[1] << ", no area";
      EXPECT_LE(target->second, area.at(own)) << entry.path() << " (" << own << ") includes " << m[1];
    }
  }
  EXPECT_GT(files, 40);
}

}  // namespace
