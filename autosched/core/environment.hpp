#pragma once
/// @file
/// Reading autosched's environment variables. Values are validated by the
/// component that owns them; a bad value is reported with text::bad_value.

#include <optional>
#include <string>

namespace autosched::environment {

/// The variable's value, or nullopt when unset. A set-but-empty variable is
/// returned as "" so that callers can reject it with a clear message.
std::optional<std::string> get(const char* name);

/// A yes/no variable: 1, yes, true, on or 0, no, false, off (any case, blanks
/// trimmed). Unset or empty: `fallback`. Any other value is warned about once,
/// naming the variable and the accepted values, and `fallback` is used: a
/// setting is never ignored silently.
bool flag(const char* name, bool fallback);

}  // namespace autosched::environment
