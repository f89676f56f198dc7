// Files a user names (traces, logs, replay lists, model files) are opened
// only when they are regular files, read within a bound, and never by an
// open that can block: a FIFO or a device gives a reason, not a hang.
#include <autosched/core/file_checks.hpp>

#include "core/in_child.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

namespace autosched {
namespace {

using testing::in_child;

class Scratch {
 public:
  Scratch() : dir_(std::filesystem::temp_directory_path() / ("autosched-files-" + std::to_string(getpid()))) {
    std::filesystem::create_directories(dir_);
  }
  ~Scratch() {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  [[nodiscard]] std::string file(const std::string& name) const { return (dir_ / name).string(); }
  [[nodiscard]] std::string fifo(const std::string& name) const {
    const std::string path = file(name);
    EXPECT_EQ(mkfifo(path.c_str(), 0600), 0);
    return path;
  }

 private:
  std::filesystem::path dir_;
};

TEST(FileChecks, ReadsARegularFileWhole) {
  Scratch s;
  std::ofstream(s.file("a.txt")) << "one\ntwo\n";
  std::string why;
  EXPECT_EQ(files::read_regular(s.file("a.txt"), 100, &why).value_or("?"), "one\ntwo\n") << why;
  EXPECT_EQ(files::read_regular(s.file("a.txt"), 8, &why).value_or("?"), "one\ntwo\n") << why;
}

TEST(FileChecks, RefusesAFileLargerThanTheBound) {
  Scratch s;
  std::ofstream(s.file("big.txt")) << std::string(1000, 'x');
  std::string why;
  EXPECT_FALSE(files::read_regular(s.file("big.txt"), 999, &why));
  EXPECT_NE(why.find("larger than 999 bytes"), std::string::npos) << why;
}

TEST(FileChecks, NamesWhyAMissingFileCannotBeRead) {
  Scratch s;
  std::string why;
  EXPECT_FALSE(files::read_regular(s.file("missing"), 100, &why));
  EXPECT_NE(why.find("cannot open it"), std::string::npos) << why;
}

TEST(FileChecks, RefusesToReadAFifoWithoutBlocking) {
  Scratch s;
  const std::string fifo = s.fifo("pipe");
  EXPECT_EQ(in_child([&] {
              std::string why;
              return !files::read_regular(fifo, 100, &why) && why.find("a FIFO") != std::string::npos;
            }),
            "ok");
}

TEST(FileChecks, RefusesDevZeroInsteadOfReadingItForever) {
  EXPECT_EQ(in_child([] {
              std::string why;
              return !files::read_regular("/dev/zero", files::default_read_limit, &why) &&
                     why.find("character device") != std::string::npos;
            }),
            "ok");
}

TEST(FileChecks, RefusesToWriteAFifoWithoutBlocking) {
  Scratch s;
  const std::string fifo = s.fifo("pipe");
  EXPECT_EQ(in_child([&] {
              std::string why;
              return files::open_for_writing(fifo, &why) == nullptr && why.find("a FIFO") != std::string::npos;
            }),
            "ok");
}

TEST(FileChecks, RefusesToWriteADeviceOrADirectory) {
  Scratch s;
  std::string why;
  EXPECT_EQ(files::open_for_writing("/dev/full", &why), nullptr);
  EXPECT_NE(why.find("character device"), std::string::npos) << why;
  EXPECT_EQ(files::open_for_writing(s.file(""), &why), nullptr);
  EXPECT_NE(why.find("directory"), std::string::npos) << why;
}

TEST(FileChecks, WritesANewFileAndTruncatesAnOldOne) {
  Scratch s;
  std::ofstream(s.file("old.txt")) << "a long old content";
  for (const char* name : {"new.txt", "old.txt"}) {
    std::string why;
    std::FILE* f = files::open_for_writing(s.file(name), &why);
    ASSERT_NE(f, nullptr) << why;
    std::fputs("fresh", f);
    std::fclose(f);
    EXPECT_EQ(files::read_regular(s.file(name), 100, &why).value_or("?"), "fresh") << name;
  }
}

}  // namespace
}  // namespace autosched
