#include "helper_programs.hpp"

#include "cli_app.hpp"
#include "tool_layout.hpp"

#include <autosched/core/error.hpp>

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace autosched::cli {

namespace fs = std::filesystem;

std::vector<fs::path> helper_directories() {
  if (const char* set = std::getenv("AUTOSCHED_LIBEXEC_DIR"); set != nullptr && *set != '\0') return {fs::path(set)};
  const fs::path bin = front_directory();
  std::vector<fs::path> dirs;
  for (const char* down : {AUTOSCHED_BIN_TO_HELPERS_INSTALLED, AUTOSCHED_BIN_TO_HELPERS_BUILD}) {
    const fs::path dir = (bin / down).lexically_normal();
    if (std::find(dirs.begin(), dirs.end(), dir) == dirs.end()) dirs.push_back(dir);
  }
  return dirs;
}

std::string find_helper(std::string_view program) {
  std::error_code ec;
  for (const fs::path& dir : helper_directories()) {
    const fs::path p = dir / program;
    if (fs::is_regular_file(p, ec) && access(p.c_str(), X_OK) == 0) return p.string();
  }
  return {};
}

void exec_helper(std::string_view program, std::string_view what) {
  const std::string path = find_helper(program);
  if (path.empty()) {
    std::string where;
    for (const fs::path& dir : helper_directories()) where += (where.empty() ? "" : ", ") + dir.string();
    detail::throw_error(std::string(what) + ": the helper program " + std::string(program) +
                        " that runs it was not found (looked in " + where +
                        "): this part of autosched was not built or not installed (AUTOSCHED_LIBEXEC_DIR names "
                        "another directory)");
  }
  std::fflush(stdout);
  std::fflush(stderr);
  char** argv = command_line_arguments();
  execv(path.c_str(), argv);
  detail::throw_error(std::string(what) + ": cannot start " + path + ": " + std::strerror(errno));
}

}  // namespace autosched::cli
