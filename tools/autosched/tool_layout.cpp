#include "tool_layout.hpp"

#include "cli_app.hpp"

#include <autosched/core/error.hpp>
#include <autosched/core/file_checks.hpp>
#include <autosched/core/text.hpp>

#include <cstdlib>
#include <vector>

namespace autosched::cli {

namespace fs = std::filesystem;

namespace {

/// The first of `candidates` that is a file, as an absolute path, or empty.
std::string first_file(const std::vector<fs::path>& candidates) {
  std::error_code ec;
  for (const fs::path& p : candidates) {
    if (fs::is_regular_file(p, ec)) return fs::absolute(p).lexically_normal().string();
  }
  return {};
}

}  // namespace

fs::path front_directory() {
  std::error_code ec;
  const fs::path here = fs::read_symlink("/proc/self/exe", ec).parent_path();
  if (running_program() == Program::front || ec) return here;
  // A helper: <libexecdir>/autosched relative to <bindir> as installed, or
  // the build tree's libexec/autosched beside bin/.
  for (const char* up : {AUTOSCHED_HELPERS_TO_BIN_INSTALLED, AUTOSCHED_HELPERS_TO_BIN_BUILD}) {
    const fs::path bin = (here / up).lexically_normal();
    if (fs::is_regular_file(bin / "autosched", ec)) return bin;
  }
  return (here / AUTOSCHED_HELPERS_TO_BIN_INSTALLED).lexically_normal();
}

std::string dropin_library() {
  if (const char* set = std::getenv("AUTOSCHED_OMP_LIBRARY"); set != nullptr && *set != '\0') {
    if (const std::string why = files::existing_problem(set); !why.empty())
      detail::throw_error("AUTOSCHED_OMP_LIBRARY=" + text::escape(set, text::max_echoed_value) + ": " + why);
    return set;
  }
  return first_file({front_directory().parent_path() / AUTOSCHED_INSTALL_LIBDIR_NAME / "libautosched-omp.so",
                     AUTOSCHED_INSTALLED_OMP_LIBRARY, AUTOSCHED_BUILD_OMP_LIBRARY});
}

std::string learned_plugin_library() {
#if AUTOSCHED_CLI_TORCH
  return first_file({front_directory().parent_path() / AUTOSCHED_INSTALL_LIBDIR_NAME / "autosched" /
                         "libautosched-dag-learn.so",
                     AUTOSCHED_INSTALLED_DAG_LEARN_PLUGIN, AUTOSCHED_BUILD_DAG_LEARN_PLUGIN});
#else
  return {};
#endif
}

}  // namespace autosched::cli
