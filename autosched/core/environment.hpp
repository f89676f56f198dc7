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

}  // namespace autosched::environment
