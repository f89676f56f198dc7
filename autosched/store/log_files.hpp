#pragma once
/// @file
/// The selectors' optional logs (agent statistics, Q-tables) written by the
/// background writer: selectors append lines, the writer thread owns the files.

#include <autosched/select/selector.hpp>

#include <cstdio>
#include <map>
#include <string>

namespace autosched {

class LogFiles final : public SelectorLog {
 public:
  void append(const std::string& path, std::string line) override;

 private:
  std::map<std::string, std::FILE*> files_;  ///< touched on the writer thread only
};

}  // namespace autosched
