#pragma once
/// @file
/// Strict parsing of the small texts autosched reads from options, environment
/// variables and files: whole-token numbers, key=value lists, trimming.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
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

/// `s` made safe to print in one line of a message: control characters
/// (newline and escape included) and bytes that are not valid UTF-8 become
/// "\xNN"; valid UTF-8 stays. Idempotent (a backslash is kept as is), so a
/// message may pass through it twice. Beyond `max_bytes` of output the rest
/// is cut at a character boundary and "… (N more bytes)" appended.
std::string escape(std::string_view s, std::size_t max_bytes = 4096);

/// The longest value bad_value() echoes; the rest is summarised.
inline constexpr std::size_t max_echoed_value = 200;

/// The standard message for a rejected value:
/// "<name>=<value>: expected <accepted>". The name and value are escaped and
/// bounded (escape(), max_echoed_value): they are the user's input.
std::string bad_value(std::string_view name, std::string_view value, std::string_view accepted);

/// `value`, given for `key` inside the setting `name`=`whole` (a
/// key=value list), as a number in [low, high]. Otherwise throws
/// autosched::Error: "<name>=<whole>: expected <key> = a number in [low, high], got '<value>'".
double number_in(std::string_view name, std::string_view whole, std::string_view key, std::string_view value,
                 double low, double high);
/// The same for an integer in [low, high].
std::int64_t integer_in(std::string_view name, std::string_view whole, std::string_view key, std::string_view value,
                        std::int64_t low, std::int64_t high);

/// The index in `accepted` of `value` (compared as given: lower-case it
/// first for case-insensitive keys). Otherwise throws autosched::Error:
/// "<name>=<whole>: expected <key> = one of a, b, c, got '<value>'".
std::size_t one_of(std::string_view name, std::string_view whole, std::string_view key, std::string_view value,
                   std::span<const std::string_view> accepted);

/// One item of a `<key>=<value>` list, split at its first '=' and trimmed.
struct KeyValue {
  std::string_view key;    ///< empty when the item has no '='
  std::string_view value;  ///< the whole item when it has no '='
  bool has_equals = false;
};
KeyValue split_key_value(std::string_view item) noexcept;

/// How read_key_values() judges the items of one setting.
struct KeyRules {
  std::string_view owner;                  ///< who accepts the keys, for messages: "gss", "qlearn"
  std::span<const std::string_view> keys;  ///< the keys `owner` accepts
  /// An item without '=' at position `index` (0 = first item after the
  /// head), after items whose last key was `previous`: returns the key it
  /// stands for (e.g. "chunk" for the 4 of "dynamic,4"), "" when the callback
  /// consumed the item itself (a list continuing a key), or nullopt to reject
  /// it. Unset: every such item is rejected.
  std::function<std::optional<std::string>(std::size_t index, std::string_view item, std::string_view previous)> bare;
  std::string_view bare_note;  ///< added to the message rejecting an item without '='
};

/// The one reader of `<head>,<key>=<value>,...` settings (schedules, selector
/// options, region models, environment aliases). `items` are the
/// comma-separated parts after the head of the setting `name`=`whole`; keys
/// are compared lower-case. Calls `apply(key, value)` for each item in order,
/// after rejecting, with the standard message naming `name`, `whole` and what
/// is accepted: an item without '=' (unless `rules.bare` maps it), a key
/// `rules.owner` does not accept, and a key given twice.
void read_key_values(std::string_view name, std::string_view whole, std::span<const std::string_view> items,
                     const KeyRules& rules, const std::function<void(const std::string& key, std::string_view value)>& apply);

/// The current UTC time formatted with strftime's `format` ("%Y-%m-%d").
std::string utc_now(const char* format);

}  // namespace autosched::text
