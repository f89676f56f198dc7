#pragma once
/// @file
/// The selectors' optional logs (agent statistics, Q-tables) written by the
/// background writer: selectors append lines, the writer thread owns the files.

#include <autosched/select/selector.hpp>

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
  std::map<std::string, std::FILE*> files_;  ///< touched on the writer thread only
};

}  // namespace autosched
