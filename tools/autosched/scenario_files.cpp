#include "scenario_files.hpp"

#include <autosched/core/environment.hpp>
#include <autosched/core/error.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace autosched::cli {

namespace fs = std::filesystem;

namespace {
std::vector<fs::path> search_dirs() {
  std::vector<fs::path> dirs;
  if (auto env = environment::get("AUTOSCHED_SCENARIOS"); env && !env->empty()) dirs.emplace_back(*env);
  dirs.emplace_back(AUTOSCHED_SOURCE_SCENARIOS);
  dirs.emplace_back(AUTOSCHED_INSTALLED_SCENARIOS);
  return dirs;
}
}  // namespace

std::vector<std::string> resolve_scenarios(const std::vector<std::string>& names) {
  std::vector<std::string> files;
  for (const std::string& name : names) {
    if (name == "all") {
      for (const fs::path& dir : search_dirs()) {
        if (!fs::is_directory(dir)) continue;
        std::vector<std::string> found;
        for (const auto& e : fs::directory_iterator(dir)) {
          if (e.path().extension() == ".scenario") found.push_back(e.path().string());
        }
        std::sort(found.begin(), found.end());
        files.insert(files.end(), found.begin(), found.end());
        break;
      }
      continue;
    }
    if (fs::is_regular_file(name)) {
      files.push_back(name);
      continue;
    }
    bool found = false;
    for (const fs::path& dir : search_dirs()) {
      const fs::path p = dir / (name + ".scenario");
      if (fs::is_regular_file(p)) {
        files.push_back(p.string());
        found = true;
        break;
      }
    }
    if (!found) {
      detail::throw_error("--scenario=" + name + ": expected a .scenario file or a shipped scenario name (looked in " +
                          (search_dirs().empty() ? std::string() : search_dirs()[0].string()) + " and the install)");
    }
  }
  if (files.empty()) detail::throw_error("select-sim: no scenario files found");
  return files;
}

Scenario load_scenario(const std::string& path) {
  std::ifstream in(path);
  if (!in) detail::throw_error("cannot read scenario file " + path);
  std::ostringstream text;
  text << in.rdbuf();
  return parse_scenario(text.str(), fs::path(path).filename().string());
}

}  // namespace autosched::cli
