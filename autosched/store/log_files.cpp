#include <autosched/store/log_files.hpp>

#include <autosched/core/error.hpp>
#include <autosched/core/file_checks.hpp>
#include <autosched/store/background_writer.hpp>

#include <cerrno>
#include <cstring>

namespace autosched {

void LogFiles::append(const std::string& path, std::string line) {
  used_.store(true, std::memory_order_relaxed);
  BackgroundWriter::instance().post_task([this, path, line = std::move(line)] {
    auto it = files_.find(path);
    if (it == files_.end()) {
      std::string why;
      std::FILE* f = files::open_for_writing(path, &why);
      // A path that cannot be written is warned about once and left alone.
      it = files_.emplace(path, Log{f, f == nullptr}).first;
      if (f == nullptr) detail::warn("cannot write the selector log " + path + " (" + why + ")");
    }
    Log& log = it->second;
    if (log.file == nullptr || log.failed) return;
    std::fputs(line.c_str(), log.file);
    if (line.empty() || line.back() != '\n') std::fputc('\n', log.file);
    if (std::fflush(log.file) != 0 || std::ferror(log.file) != 0) {
      const int error = errno;
      log.failed = true;
      detail::warn("selector log " + path + ": writing failed (" + std::strerror(error) +
                   "); it is incomplete and is not written to again");
    }
  });
}

}  // namespace autosched
