#include <autosched/core/environment.hpp>

#include <autosched/core/text.hpp>

#include <cstdlib>

namespace autosched::environment {

std::optional<std::string> get(const char* name) {
  // getenv is safe against concurrent getenv; autosched never calls setenv.
  const char* value = std::getenv(name);
  if (value == nullptr) return std::nullopt;
  return std::string(value);
}

bool means_no_file(std::string_view value) {
  const std::string v = text::lower(text::trim(value));
  return v.empty() || v == "off" || v == "none" || v == "0" || v == "false" || v == "no";
}

}  // namespace autosched::environment
