#pragma once
/// @file
/// The selectors' optional logs (agent statistics, Q-tables) written by the
/// background writer: selectors append lines, the writer thread owns the files.
/// Only regular (or new) files are opened; one that cannot be opened or whose
/// writes fail is named in one warning and then left alone.

#include <autosched/select/selectors/selector.hpp>

#include <atomic>
#include <cstdio>
#include <map>
#include <string>

namespace autosched {

class LogFiles final : public SelectorLog {
 public:
  void append(const std::string& path, std::string line) override;
  /// Whether any line was appended: then the writer must be drained at exit.
  [[nodiscard]] bool used() const noexcept { return used_.load(std::memory_order_relaxed); }

 private:
  std::atomic<bool> used_{false};
  struct Log {
    std::FILE* file = nullptr;  ///< nullptr: it could not be opened (warned)
    bool failed = false;        ///< a write failed (warned once)
  };
  std::map<std::string, Log> files_;  ///< touched on the writer thread only
};

}  // namespace autosched
