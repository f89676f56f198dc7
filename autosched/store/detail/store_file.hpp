#pragma once
/// @file
/// The store as a file among others: its identity (to notice that a peer
/// replaced it), a lock on its directory (so that processes finding the
/// same unusable file take turns), the kind of filesystem it is on, and
/// moving it aside. Private to the store.

#include <sys/types.h>

#include <filesystem>
#include <string>
#include <utility>

namespace autosched::detail {

/// Device and inode of `path`; {0, 0} when it does not exist.
std::pair<dev_t, ino_t> file_identity(const std::string& path);

/// Whether `path` holds bytes that are not an SQLite file (no SQLite header):
/// a user's file named by mistake, which is refused rather than moved aside.
/// False for an empty or missing file.
bool foreign_file(const std::string& path);

/// Holds an exclusive flock on a directory while it lives.
class DirectoryLock {
 public:
  explicit DirectoryLock(const std::filesystem::path& dir);
  ~DirectoryLock();  // closing the descriptor releases the lock
  DirectoryLock(const DirectoryLock&) = delete;
  DirectoryLock& operator=(const DirectoryLock&) = delete;

 private:
  int fd_;
};

/// The name of the network filesystem `dir` is on ("nfs", "lustre", …), or
/// empty when it is local.
std::string network_filesystem(const std::filesystem::path& dir);

/// Renames `path` (and its WAL) to "<path>.unusable-<local time>-<pid>",
/// keeping it for inspection, and warns that it `problem` ("is corrupt (…)").
/// Throws autosched::Error when it cannot be renamed.
void move_aside(const std::string& path, const std::string& problem);

}  // namespace autosched::detail
