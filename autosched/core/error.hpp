#pragma once
/// @file
/// The one error policy of autosched: a single exception type, a
/// throw helper that records where it was thrown, warnings for problems the
/// application can run through, and debug-build contract checks.

#include <autosched/core/source_location.hpp>
#include <cstddef>
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace autosched {

/// Thrown for every error autosched reports: bad input (the message names the
/// input, its value and what is accepted), misuse of the API, failed I/O.
class Error : public std::runtime_error {
 public:
  Error(const std::string& message, SourceLocation where);
  /// "file:line" of the throw site inside autosched, for bug reports.
  [[nodiscard]] const std::string& where() const noexcept { return where_; }

 private:
  std::string where_;
};

namespace detail {

/// Throws autosched::Error with `message`, recording the caller's location.
[[noreturn]] void throw_error(const std::string& message, SourceLocation where = SourceLocation::current());

/// Reports a problem the computation continues through (bad environment value,
/// missing profile, corrupt file). Printed on stderr as "autosched: warning: ..."
/// unless AUTOSCHED_VERBOSE=0; identical messages are printed once per process.
/// The message is escaped and bounded first (text::escape, max_warning_bytes),
/// for the sink too. On stderr, after max_warnings_per_subject different
/// messages about one subject (the message up to its first '=', ':' or '['),
/// one line says that further ones are not shown.
void warn(std::string_view message);

inline constexpr std::size_t max_warning_bytes = 1024;
inline constexpr int max_warnings_per_subject = 20;

/// Where warnings go; tests install a sink to assert on them. An empty
/// function restores the default (stderr). Returns the previous sink.
using WarningSink = std::function<void(std::string_view)>;
WarningSink set_warning_sink(WarningSink sink);

}  // namespace detail
}  // namespace autosched

/// Contract check, active in debug builds only: a broken precondition is a bug
/// in autosched or in the caller, never an input error.
#ifndef NDEBUG
#define AUTOSCHED_ASSERT(cond) \
  ((cond) ? static_cast<void>(0) : ::autosched::detail::throw_error("internal contract violated: " #cond))
#else
#define AUTOSCHED_ASSERT(cond) static_cast<void>(0)
#endif
