#pragma once
// The files a command writes where the user says (--csv, --out's tables,
// --gantt's data, db export): through the same rule as every file a user
// names (core/file_checks.hpp). A path that exists and is not a regular
// file is refused before it is opened (a FIFO blocked the command, a
// device swallowed the output), and a write that fails (a full disk) is an
// error naming the option, never a silent loss.
#include <autosched/core/error.hpp>
#include <autosched/core/file_checks.hpp>
#include <autosched/core/text.hpp>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <string>
#include <string_view>

namespace autosched::cli {

inline std::string output_label(std::string_view option, const std::string& path) {
  return std::string(option) + "=" + text::escape(path, text::max_echoed_value) + ": ";
}

/// Opens `path` for writing from its start; errors name `option`.
inline std::ofstream open_output(std::string_view option, const std::string& path,
                                 std::ios::openmode mode = std::ios::out | std::ios::trunc) {
  if (const std::string kind = files::special_kind(path); !kind.empty())
    detail::throw_error(output_label(option, path) + "it is " + kind + ", not a regular file");
  std::ofstream f(path, mode);
  if (!f) detail::throw_error(output_label(option, path) + "cannot create this file (" + std::strerror(errno) + ")");
  return f;
}

/// Closes `f`; a write that failed on the way is an error naming `option`.
inline void close_output(std::ofstream& f, std::string_view option, const std::string& path) {
  f.close();
  if (!f) detail::throw_error(output_label(option, path) + "writing it failed (a full disk?)");
}

/// The whole `content` into `path`, or an error naming `option`.
inline void write_output(std::string_view option, const std::string& path, const std::string& content) {
  std::ofstream f = open_output(option, path);
  f << content;
  close_output(f, option, path);
}

}  // namespace autosched::cli
