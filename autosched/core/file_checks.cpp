#include <autosched/core/file_checks.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <utility>

namespace autosched::files {

namespace {

const char* kind_of(mode_t mode) {
  if (S_ISREG(mode)) return "";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

std::string not_regular(mode_t mode) { return std::string("it is ") + kind_of(mode) + ", not a regular file"; }

/// Closes a descriptor on every path out.
struct Descriptor {
  int fd = -1;
  ~Descriptor() {
    if (fd >= 0) ::close(fd);
  }
  int release() { return std::exchange(fd, -1); }
};

}  // namespace

std::string special_kind(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return {};
  return kind_of(st.st_mode);
}

std::string existing_problem(const std::string& path, bool directory) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    if (errno == ENAMETOOLONG) return "the path is too long (" + std::to_string(path.size()) + " bytes)";
    std::string why = std::strerror(errno);  // "No such file or directory" → "no such ..."
    if (!why.empty()) why[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(why[0])));
    return why;
  }
  if (!directory) return S_ISREG(st.st_mode) ? std::string() : not_regular(st.st_mode);
  if (S_ISDIR(st.st_mode)) return {};
  return std::string("it is ") + (S_ISREG(st.st_mode) ? "a regular file" : kind_of(st.st_mode)) + ", not a directory";
}

std::optional<std::string> read_regular(const std::string& path, std::size_t max_bytes, std::string* why) {
  std::string ignored;
  std::string& reason = why != nullptr ? *why : ignored;
  // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer.
  Descriptor d{::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC)};
  if (d.fd < 0) {
    reason = std::string("cannot open it: ") + std::strerror(errno);
    return std::nullopt;
  }
  struct stat st {};
  if (::fstat(d.fd, &st) != 0) {
    reason = std::string("cannot inspect it: ") + std::strerror(errno);
    return std::nullopt;
  }
  if (!S_ISREG(st.st_mode)) {
    reason = not_regular(st.st_mode);
    return std::nullopt;
  }
  const auto too_large = [&] {
    reason = "it is larger than " + std::to_string(max_bytes) + " bytes";
    return std::nullopt;
  };
  if (static_cast<std::uintmax_t>(st.st_size) > max_bytes) return too_large();
  std::string text;
  text.resize(static_cast<std::size_t>(st.st_size) + 1);  // one more: a file that grew is noticed
  std::size_t got = 0;
  for (;;) {
    if (got == text.size()) {
      if (got > max_bytes) return too_large();
      text.resize(std::min(max_bytes + 1, got * 2 + 4096));
    }
    const ssize_t n = ::read(d.fd, text.data() + got, text.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      reason = std::string("cannot read it: ") + std::strerror(errno);
      return std::nullopt;
    }
    if (n == 0) break;
    got += static_cast<std::size_t>(n);
  }
  if (got > max_bytes) return too_large();
  text.resize(got);
  return text;
}

std::FILE* open_for_writing(const std::string& path, std::string* why, bool append) {
  std::string ignored;
  std::string& reason = why != nullptr ? *why : ignored;
  if (const std::string kind = special_kind(path); !kind.empty()) {
    reason = std::string("it is ") + kind + ", not a regular file";
    return nullptr;
  }
  // No O_TRUNC until the descriptor is known to be a regular file: the path
  // may have been replaced since the check. O_NONBLOCK: a FIFO that appeared
  // in between fails (no reader) or opens at once, and is refused below.
  Descriptor d{::open(path.c_str(), O_WRONLY | O_CREAT | O_NONBLOCK | O_CLOEXEC | (append ? O_APPEND : 0), 0666)};
  if (d.fd < 0) {
    reason = std::string("cannot open it for writing: ") + std::strerror(errno);
    return nullptr;
  }
  struct stat st {};
  if (::fstat(d.fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    reason = not_regular(st.st_mode);
    return nullptr;
  }
  if ((!append && ::ftruncate(d.fd, 0) != 0) || ::fcntl(d.fd, F_SETFL, ::fcntl(d.fd, F_GETFL) & ~O_NONBLOCK) != 0) {
    reason = std::string("cannot truncate it: ") + std::strerror(errno);
    return nullptr;
  }
  std::FILE* f = ::fdopen(d.fd, append ? "a" : "w");
  if (f == nullptr) {
    reason = std::string("cannot open it for writing: ") + std::strerror(errno);
    return nullptr;
  }
  d.release();
  return f;
}

}  // namespace autosched::files
