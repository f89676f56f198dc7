#pragma once
// Where the tool's files are, found from the running program so that the
// build tree and an installed prefix, even a moved one, work alike:
//   build tree                         installed
//   bin/autosched                      <bindir>/autosched               the front
//   libexec/autosched/autosched-*      <libexecdir>/autosched/autosched-*  helpers
//   bin/autosched-<app>                <libexecdir>/autosched/autosched-<app>  benchmark apps
//   autosched/omp/libautosched-omp.so  <libdir>/libautosched-omp.so     the drop-in
//   .../libautosched-dag-learn.so      <libdir>/autosched/...           the learned policy
#include <filesystem>
#include <string>

namespace autosched::cli {

/// The directory of the front `autosched` (bin/): the running program's,
/// or, in a helper, the bin directory beside its libexec directory.
std::filesystem::path front_directory();
/// Path of libautosched-omp.so for `autosched run`, or empty when not found
/// (AUTOSCHED_OMP_LIBRARY, else beside the front: ../<libdir>, else the
/// installed and the build tree's).
std::string dropin_library();
/// Path of libautosched-dag-learn.so, or empty when not built or not found.
std::string learned_plugin_library();

}  // namespace autosched::cli
