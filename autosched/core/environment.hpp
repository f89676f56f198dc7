#pragma once
/// @file
/// Reading autosched's environment variables. Values are validated by the
/// component that owns them; a bad value is reported with text::bad_value.

#include <optional>
#include <string>
#include <string_view>

namespace autosched::environment {

/// The variable's value, or nullopt when unset. A set-but-empty variable is
/// returned as "" so that callers can reject it with a clear message.
std::optional<std::string> get(const char* name);

/// A yes/no variable: 1, yes, true, on or 0, no, false, off (any case, blanks
/// trimmed). Unset or empty: `fallback`. Any other value is warned about once,
/// naming the variable and the accepted values, and `fallback` is used: a
/// setting is never ignored silently.
bool flag(const char* name, bool fallback);

/// Whether the value of a variable that names a file (AUTOSCHED_DB,
/// AUTOSCHED_TRACE) means "no file": empty, off, none, 0, false or no, in
/// any case, surrounding blanks ignored.
bool means_no_file(std::string_view value);

}  // namespace autosched::environment
