#include <autosched/store/log_files.hpp>

#include <autosched/core/error.hpp>
#include <autosched/store/background_writer.hpp>

namespace autosched {

void LogFiles::append(const std::string& path, std::string line) {
  used_.store(true, std::memory_order_relaxed);
  BackgroundWriter::instance().post_task([this, path, line = std::move(line)] {
    auto it = files_.find(path);
    if (it == files_.end()) {
      std::FILE* f = std::fopen(path.c_str(), "w");
      if (f == nullptr) {
        detail::warn("cannot write the selector log " + path);
        return;
      }
      it = files_.emplace(path, f).first;
    }
    std::fputs(line.c_str(), it->second);
    if (line.empty() || line.back() != '\n') std::fputc('\n', it->second);
    std::fflush(it->second);
  });
}

}  // namespace autosched
