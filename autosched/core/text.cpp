#include <autosched/core/text.hpp>

#include <autosched/core/error.hpp>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <ctime>

namespace autosched::text {

std::string_view trim(std::string_view s) noexcept {
  auto blank = [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; };
  while (!s.empty() && blank(s.front())) s.remove_prefix(1);
  while (!s.empty() && blank(s.back())) s.remove_suffix(1);
  return s;
}

std::vector<std::string_view> split(std::string_view s, char separator) {
  std::vector<std::string_view> parts;
  for (;;) {
    auto pos = s.find(separator);
    parts.push_back(trim(s.substr(0, pos)));
    if (pos == std::string_view::npos) return parts;
    s.remove_prefix(pos + 1);
  }
}

std::optional<std::int64_t> to_int(std::string_view s) noexcept {
  s = trim(s);
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  std::int64_t value = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (s.empty() || ec != std::errc{} || end != s.data() + s.size()) return std::nullopt;
  return value;
}

std::optional<double> to_double(std::string_view s) noexcept {
  s = trim(s);
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  double value = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (s.empty() || ec != std::errc{} || end != s.data() + s.size() || !std::isfinite(value)) {
    return std::nullopt;
  }
  return value;
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string join(const std::vector<std::string_view>& items, std::string_view separator) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i != 0) out += separator;
    out += items[i];
  }
  return out;
}

namespace {
/// Length of the valid UTF-8 sequence at the start of `s`, or 0.
std::size_t utf8_length(std::string_view s) noexcept {
  const auto b = [&](std::size_t i) { return static_cast<unsigned char>(s[i]); };
  const unsigned char c = b(0);
  std::size_t n = 0;
  unsigned low = 0x80, high = 0xBF;  // the range of the second byte
  if (c >= 0xC2 && c <= 0xDF) {
    n = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    n = 3;
    if (c == 0xE0) low = 0xA0;   // overlong
    if (c == 0xED) high = 0x9F;  // UTF-16 surrogates
  } else if (c >= 0xF0 && c <= 0xF4) {
    n = 4;
    if (c == 0xF0) low = 0x90;   // overlong
    if (c == 0xF4) high = 0x8F;  // beyond U+10FFFF
  } else {
    return 0;
  }
  if (s.size() < n || b(1) < low || b(1) > high) return 0;
  for (std::size_t i = 2; i < n; ++i)
    if (b(i) < 0x80 || b(i) > 0xBF) return 0;
  return n;
}
}  // namespace

std::string escape(std::string_view s, std::size_t max_bytes) {
  std::string out;
  out.reserve(std::min(s.size(), max_bytes) + 16);
  std::size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    std::size_t n = 1;
    char piece[8];
    std::string_view add;
    if (c >= 0x20 && c < 0x7F) {
      add = s.substr(i, 1);
    } else if (c >= 0x80 && (n = utf8_length(s.substr(i))) > 0) {
      add = s.substr(i, n);
    } else {
      n = 1;
      std::snprintf(piece, sizeof piece, "\\x%02X", c);
      add = piece;
    }
    if (out.size() + add.size() > max_bytes) break;
    out += add;
    i += n;
  }
  if (i < s.size()) out += "… (" + std::to_string(s.size() - i) + " more bytes)";
  return out;
}

std::string bad_value(std::string_view name, std::string_view value, std::string_view accepted) {
  std::string out = escape(name, max_echoed_value);
  out += '=';
  out += escape(value, max_echoed_value);
  out += ": expected ";
  out += accepted;
  return out;
}

double number_in(std::string_view name, std::string_view whole, std::string_view key, std::string_view value,
                 double low, double high) {
  const auto v = to_double(value);
  if (!v || *v < low || *v > high) {
    char range[80];
    std::snprintf(range, sizeof range, "[%g, %g]", low, high);
    detail::throw_error(
        bad_value(name, whole, std::string(key) + " = a number in " + range + ", got '" + std::string(value) + "'"));
  }
  return *v;
}

std::int64_t integer_in(std::string_view name, std::string_view whole, std::string_view key, std::string_view value,
                        std::int64_t low, std::int64_t high) {
  const auto v = to_int(value);
  if (!v || *v < low || *v > high) {
    detail::throw_error(bad_value(name, whole,
                                  std::string(key) + " = an integer in [" + std::to_string(low) + ", " +
                                      std::to_string(high) + "], got '" + std::string(value) + "'"));
  }
  return *v;
}

std::size_t one_of(std::string_view name, std::string_view whole, std::string_view key, std::string_view value,
                   std::span<const std::string_view> accepted) {
  for (std::size_t i = 0; i < accepted.size(); ++i) {
    if (accepted[i] == value) return i;
  }
  detail::throw_error(bad_value(name, whole,
                                std::string(key) + " = one of " + join({accepted.begin(), accepted.end()}) +
                                    ", got '" + std::string(value) + "'"));
}

KeyValue split_key_value(std::string_view item) noexcept {
  const auto eq = item.find('=');
  if (eq == std::string_view::npos) return {{}, trim(item), false};
  return {trim(item.substr(0, eq)), trim(item.substr(eq + 1)), true};
}

void read_key_values(std::string_view name, std::string_view whole, std::span<const std::string_view> items,
                     const KeyRules& rules,
                     const std::function<void(const std::string& key, std::string_view value)>& apply) {
  const std::string keys = join({rules.keys.begin(), rules.keys.end()});
  std::vector<std::string> seen;
  std::string previous;
  for (std::size_t i = 0; i < items.size(); ++i) {
    const KeyValue kv = split_key_value(items[i]);
    std::string key = lower(kv.key);
    if (!kv.has_equals) {
      std::optional<std::string> as_key = rules.bare ? rules.bare(i, kv.value, previous) : std::nullopt;
      if (!as_key) {
        std::string accepted = "<key>=<value> items after the name; '" + std::string(kv.value) + "' has no '='";
        if (!rules.bare_note.empty()) accepted += " (" + std::string(rules.bare_note) + ")";
        accepted += ". Keys for " + std::string(rules.owner) + ": " + keys;
        detail::throw_error(bad_value(name, whole, accepted));
      }
      if (as_key->empty()) continue;  // consumed by the callback
      key = *as_key;
    } else {
      bool known = false;
      for (std::string_view k : rules.keys) known = known || k == key;
      if (!known) {
        detail::throw_error(bad_value(
            name, whole, "a key " + std::string(rules.owner) + " accepts (" + keys + "), got '" + key + "'"));
      }
    }
    for (const std::string& k : seen) {
      if (k == key) detail::throw_error(bad_value(name, whole, "each key at most once; '" + key + "' repeats"));
    }
    seen.push_back(key);
    previous = key;
    apply(key, kv.value);
  }
}

std::string utc_now(const char* format) {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char buffer[64];
  const std::size_t n = std::strftime(buffer, sizeof buffer, format, &utc);
  return std::string(buffer, n);
}

}  // namespace autosched::text
