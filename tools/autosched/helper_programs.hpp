#pragma once
// The helper programs of the front `autosched` (subcommands.hpp): where they
// are and handing a command line over to one. They live in
// <libexecdir>/autosched beside the front's <bindir> (in the build tree:
// libexec/autosched beside bin/); AUTOSCHED_LIBEXEC_DIR names another
// directory, and then only that one is searched.
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace autosched::cli {

/// Where helper programs are looked for, in order.
std::vector<std::filesystem::path> helper_directories();
/// The path of helper `program` (e.g. "autosched-dag"), or empty when none
/// of helper_directories() has it.
std::string find_helper(std::string_view program);
/// Replaces this process with helper `program`, passing it this process's
/// command line unchanged (run_cli's). Throws an Error naming the file, the
/// directories searched and that this part was not built or installed, for
/// `what` (the subcommand, e.g. "dag run"), when the helper is missing.
[[noreturn]] void exec_helper(std::string_view program, std::string_view what);

}  // namespace autosched::cli
