#pragma once
// A directory of its own for each store test, removed afterwards.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace autosched::testing {

class TempDir {
 public:
  TempDir() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    path_ = std::filesystem::temp_directory_path() /
            ("autosched-" + std::string(info->test_suite_name()) + "-" + info->name() + "-" + std::to_string(getpid()));
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  [[nodiscard]] std::string file(const std::string& name) const { return (path_ / name).string(); }
  [[nodiscard]] const std::filesystem::path& path() const noexcept { return path_; }

  /// Files in the directory whose name starts with `prefix`.
  [[nodiscard]] int count_starting_with(const std::string& prefix) const {
    int n = 0;
    for (const auto& e : std::filesystem::directory_iterator(path_)) {
      n += e.path().filename().string().rfind(prefix, 0) == 0 ? 1 : 0;
    }
    return n;
  }

 private:
  std::filesystem::path path_;
};

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/// `size` bytes that start like an SQLite file and are damaged after its
/// magic: the store moves such a file aside (a user's file without the magic
/// is refused and left alone).
inline std::string damaged_sqlite_file(std::size_t size) {
  std::string bytes("SQLite format 3", 16);
  bytes.resize(size, '\x5a');
  return bytes;
}

inline void write_file(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

}  // namespace autosched::testing
