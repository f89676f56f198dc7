#include <autosched/store/detail/store_file.hpp>

#include <autosched/core/error.hpp>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <cstring>
#include <ctime>

namespace autosched::detail {

std::pair<dev_t, ino_t> file_identity(const std::string& path) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) return {0, 0};
  return {st.st_dev, st.st_ino};
}

bool foreign_file(const std::string& path) {
  const int fd = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return false;
  static constexpr char magic[] = "SQLite format 3";  // 16 bytes with its terminating zero
  char head[sizeof magic] = {};
  const ssize_t n = read(fd, head, sizeof head);
  close(fd);
  if (n <= 0) return false;  // empty: SQLite makes it a database
  return n < static_cast<ssize_t>(sizeof head) || std::memcmp(head, magic, sizeof magic) != 0;
}

DirectoryLock::DirectoryLock(const std::filesystem::path& dir)
    : fd_(open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC)) {
  if (fd_ >= 0) flock(fd_, LOCK_EX);
}

DirectoryLock::~DirectoryLock() {
  if (fd_ >= 0) close(fd_);
}

std::string network_filesystem(const std::filesystem::path& dir) {
  struct statfs fs {};
  if (statfs(dir.empty() ? "." : dir.c_str(), &fs) != 0) return {};
  switch (static_cast<unsigned long>(fs.f_type)) {
    case 0x6969:
      return "nfs";
    case 0x517b:
      return "smb";
    case 0xff534d42:
      return "cifs";
    case 0xfe534d42:
      return "smb2";
    case 0x0bd00bd0:
      return "lustre";
    case 0x47504653:
      return "gpfs";
    case 0x19830326:
      return "beegfs";
    case 0x00c36400:
      return "ceph";
    case 0x5346414f:
      return "afs";
    case 0x65735546:
      return "fuse";  // sshfs and most cluster filesystems mounted through FUSE
    default:
      return {};
  }
}

void move_aside(const std::string& path, const std::string& problem) {
  namespace fs = std::filesystem;
  char stamp[32];
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  localtime_r(&t, &tm);
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
  const std::string aside = path + ".unusable-" + stamp + "-" + std::to_string(getpid());
  std::error_code ec;
  fs::rename(path, aside, ec);
  if (ec) {
    throw_error("store " + path + " " + problem + ", and it cannot be moved aside (" + ec.message() +
                "); set AUTOSCHED_DB to another path");
  }
  fs::rename(path + "-wal", aside + "-wal", ec);
  fs::remove(path + "-shm", ec);  // an index of the WAL, rebuilt from it
  warn("store " + path + " " + problem + "; moved it to " + aside + " and started a new one");
}

}  // namespace autosched::detail
