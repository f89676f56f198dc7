#include <autosched/core/environment.hpp>

#include <autosched/core/error.hpp>
#include <autosched/core/text.hpp>

#include <cstdlib>

namespace autosched::environment {

std::optional<std::string> get(const char* name) {
  // getenv is safe against concurrent getenv; autosched never calls setenv.
  const char* value = std::getenv(name);
  if (value == nullptr) return std::nullopt;
  return std::string(value);
}

namespace {

/// The spellings of "no" every yes/no and file variable accepts.
bool says_no(const std::string& v) { return v == "0" || v == "no" || v == "false" || v == "off"; }

}  // namespace

bool flag(const char* name, bool fallback) {
  const auto value = get(name);
  if (!value) return fallback;
  const std::string v = text::lower(text::trim(*value));
  if (v.empty()) return fallback;
  if (v == "1" || v == "yes" || v == "true" || v == "on") return true;
  if (says_no(v)) return false;
  detail::warn(text::bad_value(name, *value, "1, yes, true, on or 0, no, false, off") + "; using " +
               (fallback ? "yes" : "no"));
  return fallback;
}

bool means_no_file(std::string_view value) {
  const std::string v = text::lower(text::trim(value));
  return v.empty() || v == "none" || says_no(v);
}

}  // namespace autosched::environment
