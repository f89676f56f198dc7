#pragma once
/// @file
/// Where a call was made, as a default argument captures it. std::source_location
/// where the standard library provides it (g++); otherwise the compiler
/// builtins (clang 14 with libstdc++ 12 lacks it). The two compilers count
/// columns differently, so call-site loop ids differ between their builds.

#include <cstdint>
#include <version>

#if defined(__cpp_lib_source_location)
#include <source_location>
#endif

namespace autosched {

class SourceLocation {
 public:
#if defined(__cpp_lib_source_location)
  static constexpr SourceLocation current(std::source_location s = std::source_location::current()) noexcept {
    return SourceLocation(s.file_name(), s.line(), s.column());
  }
  // NOLINTNEXTLINE(google-explicit-constructor): a std::source_location is one
  constexpr SourceLocation(const std::source_location& s) noexcept
      : file_(s.file_name()), line_(s.line()), column_(s.column()) {}
#else
  static constexpr SourceLocation current(const char* file = __builtin_FILE(),
                                          std::uint_least32_t line = __builtin_LINE(),
                                          std::uint_least32_t column = __builtin_COLUMN()) noexcept {
    return SourceLocation(file, line, column);
  }
#endif
  constexpr SourceLocation() noexcept = default;

  [[nodiscard]] constexpr const char* file_name() const noexcept { return file_; }
  [[nodiscard]] constexpr std::uint_least32_t line() const noexcept { return line_; }
  [[nodiscard]] constexpr std::uint_least32_t column() const noexcept { return column_; }

 private:
  constexpr SourceLocation(const char* file, std::uint_least32_t line, std::uint_least32_t column) noexcept
      : file_(file), line_(line), column_(column) {}
  const char* file_ = "";
  std::uint_least32_t line_ = 0;
  std::uint_least32_t column_ = 0;
};

}  // namespace autosched
