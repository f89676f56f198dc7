#include <autosched/core/environment.hpp>

#include <cstdlib>

namespace autosched::environment {

std::optional<std::string> get(const char* name) {
  // getenv is safe against concurrent getenv; autosched never calls setenv.
  const char* value = std::getenv(name);
  if (value == nullptr) return std::nullopt;
  return std::string(value);
}

}  // namespace autosched::environment
