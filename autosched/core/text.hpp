#pragma once
/// @file
/// Strict parsing of the small texts autosched reads from options, environment
/// variables and files: whole-token numbers, key=value lists, trimming.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace autosched::text {

/// `s` without leading and trailing blanks.
std::string_view trim(std::string_view s) noexcept;

/// Splits on `separator`, trimming each piece; "" gives one empty piece.
std::vector<std::string_view> split(std::string_view s, char separator);

/// The whole of `s` as a base-10 integer, or nullopt (no partial matches: "12x" fails).
std::optional<std::int64_t> to_int(std::string_view s) noexcept;

/// The whole of `s` as a finite floating-point number, or nullopt.
std::optional<double> to_double(std::string_view s) noexcept;

/// Lower-case ASCII copy.
std::string lower(std::string_view s);

/// "a, b, c" — for the "accepted values" part of error messages.
std::string join(const std::vector<std::string_view>& items, std::string_view separator = ", ");

/// The standard message for a rejected value (STYLE §13):
/// "<name>=<value>: expected <accepted>".
std::string bad_value(std::string_view name, std::string_view value, std::string_view accepted);

/// `value`, given for `key` inside the setting `name`=`whole` (a
/// key=value list), as a number in [low, high]. Otherwise throws
/// autosched::Error: "<name>=<whole>: expected <key> = a number in [low, high], got '<value>'".
double number_in(std::string_view name, std::string_view whole, std::string_view key, std::string_view value,
                 double low, double high);
/// The same for an integer in [low, high].
std::int64_t integer_in(std::string_view name, std::string_view whole, std::string_view key, std::string_view value,
                        std::int64_t low, std::int64_t high);

}  // namespace autosched::text
