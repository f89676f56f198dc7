#include "scenario_files.hpp"

#include <autosched/core/environment.hpp>
#include <autosched/core/error.hpp>
#include <autosched/core/file_checks.hpp>
#include <autosched/core/text.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace autosched::cli {

namespace fs = std::filesystem;

namespace {

constexpr const char* variable = "AUTOSCHED_SCENARIOS";

/// AUTOSCHED_SCENARIOS when set (it must be a directory: a mistyped path
/// would otherwise silently fall back to the shipped scenarios), then the
/// source tree's and the installed scenarios.
std::vector<fs::path> search_dirs() {
  std::vector<fs::path> dirs;
  if (auto env = environment::get(variable); env && !env->empty()) {
    if (const std::string why = files::existing_problem(*env, true); !why.empty())
      detail::throw_error(std::string(variable) + "=" + text::escape(*env, text::max_echoed_value) + ": " + why);
    dirs.emplace_back(*env);
  }
  dirs.emplace_back(AUTOSCHED_SOURCE_SCENARIOS);
  dirs.emplace_back(AUTOSCHED_INSTALLED_SCENARIOS);
  return dirs;
}

bool from_variable(const fs::path& dir) {
  const auto env = environment::get(variable);
  return env && !env->empty() && dir == fs::path(*env);
}

}  // namespace

std::vector<std::string> resolve_scenarios(const std::vector<std::string>& names) {
  std::vector<std::string> files;
  for (const std::string& name : names) {
    if (name == "all") {
      for (const fs::path& dir : search_dirs()) {
        std::error_code ec;
        if (!fs::is_directory(dir, ec)) continue;
        std::vector<std::string> found;
        for (const auto& e : fs::directory_iterator(dir, ec)) {
          if (e.path().extension() == ".scenario") found.push_back(e.path().string());
        }
        if (found.empty() && from_variable(dir))
          detail::throw_error(std::string(variable) + "=" + text::escape(dir.string(), text::max_echoed_value) +
                              ": --scenario all found no .scenario file in this directory");
        std::sort(found.begin(), found.end());
        files.insert(files.end(), found.begin(), found.end());
        break;
      }
      continue;
    }
    if (std::error_code ec; fs::is_regular_file(name, ec)) {
      files.push_back(name);
      continue;
    }
    bool found = false;
    for (const fs::path& dir : search_dirs()) {
      const fs::path p = dir / (name + ".scenario");
      if (std::error_code ec; fs::is_regular_file(p, ec)) {
        files.push_back(p.string());
        found = true;
        break;
      }
    }
    if (!found) {
      detail::throw_error("--scenario=" + text::escape(name, text::max_echoed_value) + ": expected a .scenario file or a shipped scenario name (looked in " +
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
