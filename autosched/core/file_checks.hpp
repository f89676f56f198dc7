#pragma once
/// @file
/// The one way autosched opens a file a user named (a trace, a selector log,
/// a replay list, a model file): only regular files, read within a size
/// bound, and never an open that can block. A FIFO, a device or a directory
/// named where a file is expected is refused with a reason the caller puts
/// in its warning, instead of hanging the program or reading /dev/zero until
/// memory runs out.

#include <cstddef>
#include <cstdio>
#include <optional>
#include <string>

namespace autosched::files {

/// The largest file autosched reads as a replay list or a model file.
inline constexpr std::size_t default_read_limit = std::size_t{64} << 20;

/// The contents of `path` when it is a regular file of at most `max_bytes`;
/// otherwise nullopt and `*why` says what is wrong ("cannot open it: ...",
/// "it is a FIFO, not a regular file", "it is larger than ... bytes").
/// Never blocks on a FIFO and never reads more than `max_bytes` + 1 bytes.
std::optional<std::string> read_regular(const std::string& path, std::size_t max_bytes, std::string* why);

/// Opens `path` for writing from its start (created, or truncated when it is
/// a regular file). A path that exists and is not a regular file is refused
/// without being opened for writing; nullptr and `*why` then. Never blocks.
/// The caller owns the FILE (std::fclose). With `append`, nothing is
/// truncated and every write goes to the end (O_APPEND): several processes
/// may add to one file.
std::FILE* open_for_writing(const std::string& path, std::string* why, bool append = false);

/// What `path` is when it exists and is not a regular file ("a FIFO", "a
/// directory", "a character device", ...); empty for a regular file or a
/// path that does not exist.
std::string special_kind(const std::string& path);

/// Why `path` cannot be used where an existing regular file (or, with
/// `directory`, a directory) is expected: "no such file or directory", "it
/// is a directory, not a regular file", "the path is too long (5004 bytes)",
/// ...; empty when it can. Never throws (std::filesystem's checks do, on a
/// path longer than the system allows).
std::string existing_problem(const std::string& path, bool directory = false);

}  // namespace autosched::files
