#include <autosched/techniques/technique_spec.hpp>

#include <autosched/core/error.hpp>
#include <autosched/core/text.hpp>

#include <cstdio>
#include <vector>

namespace autosched {

std::string technique_names() {
  std::vector<std::string_view> names;
  for (const auto& t : technique_catalogue()) names.push_back(t.name);
  return text::join(names);
}

namespace {

/// "chunk" and the keys of `info` (catalogue: space separated).
std::vector<std::string_view> keys_of(const TechniqueInfo& info) {
  std::vector<std::string_view> keys = {"chunk"};
  for (auto k : text::split(info.keys, ' ')) {
    if (!k.empty()) keys.push_back(k);
  }
  return keys;
}

/// Reads the chunk value of either spelling ("16", "expert") into `spec`.
void read_chunk(TechniqueSpec& spec, std::string_view value, std::string_view source, std::string_view whole) {
  if (text::lower(value) == "expert") {
    spec.expert_chunk = true;
    return;
  }
  const auto v = text::to_int(value);
  if (!v || *v < 1 || *v > max_iterations) {
    detail::throw_error(
        text::bad_value(source, whole, "chunk = a positive integer or 'expert', got '" + std::string(value) + "'"));
  }
  spec.chunk = *v;
}

}  // namespace

TechniqueSpec parse_technique_spec(std::string_view text, std::string_view source, std::string_view whole) {
  if (whole.empty()) whole = text;
  const auto parts = text::split(text, ',');
  const std::string_view head = parts.front();
  const auto colon = head.find(':');
  const std::string name = text::lower(text::trim(head.substr(0, colon)));
  const auto id = find_technique(name);
  if (!id) {
    detail::throw_error(
        text::bad_value(source, whole, "a technique: " + technique_names() + "; got '" + std::string(head) + "'"));
  }
  TechniqueSpec spec;
  spec.technique = *id;
  const bool compact_chunk = colon != std::string_view::npos;
  if (compact_chunk) read_chunk(spec, text::trim(head.substr(colon + 1)), source, whole);

  const TechniqueInfo& info = technique_info(*id);
  const auto keys = keys_of(info);
  text::KeyRules rules{info.name, keys, {}, "a number right after the technique is the chunk"};
  rules.bare = [](std::size_t index, std::string_view item, std::string_view) -> std::optional<std::string> {
    if (index == 0 && text::to_int(item)) return "chunk";  // "dynamic,4"
    return std::nullopt;
  };
  const std::vector<std::string_view> items(parts.begin() + 1, parts.end());
  bool chunk_seen = compact_chunk;
  text::read_key_values(source, whole, items, rules, [&](const std::string& key, std::string_view value) {
    auto positive_int = [&](std::int64_t max) { return text::integer_in(source, whole, key, value, 1, max); };
    // (low, high]: a bound the formula divides by is excluded.
    auto number = [&](double low, bool low_open, double high) {
      const auto v = text::to_double(value);
      if (!v || *v < low || (low_open && *v == low) || *v > high) {
        char range[96];
        std::snprintf(range, sizeof range, "%s%g, %g]", low_open ? "(" : "[", low, high);
        detail::throw_error(
            text::bad_value(source, whole, key + " = a number in " + range + ", got '" + std::string(value) + "'"));
      }
      return *v;
    };
    constexpr double huge = 1e18;
    TechniqueParams& p = spec.params;
    if (key == "chunk") {
      if (chunk_seen) detail::throw_error(text::bad_value(source, whole, "each key at most once; 'chunk' repeats"));
      chunk_seen = true;
      read_chunk(spec, value, source, whole);
    } else if (key == "mu") {
      p.mu_ns = number(0, true, huge);
    } else if (key == "sigma") {
      p.sigma_ns = number(0, false, huge);
    } else if (key == "h") {
      p.overhead_ns = number(0, false, huge);
    } else if (key == "alpha") {
      p.alpha = number(0, true, huge);
    } else if (key == "swr") {
      p.swr = number(0, true, 1);
    } else if (key == "divider") {
      p.divider = static_cast<int>(positive_int(1 << 20));
    } else if (key == "stages") {
      p.stages = static_cast<int>(positive_int(1 << 20));
    } else if (key == "viss") {
      p.viss = static_cast<int>(positive_int(1 << 20));
    } else if (key == "start") {
      p.start = positive_int(max_iterations);
    } else if (key == "seed") {
      const auto v = text::to_int(value);
      if (!v || *v < 0) {
        detail::throw_error(
            text::bad_value(source, whole, "seed = a non-negative integer, got '" + std::string(value) + "'"));
      }
      p.seed = static_cast<std::uint64_t>(*v);
    } else if (key == "weights") {
      p.weights.clear();
      for (auto w : text::split(value, ':')) {
        const auto v = text::to_double(w);
        if (!v || *v <= 0) {
          detail::throw_error(
              text::bad_value(source, whole, "weights = positive numbers separated by ':', e.g. weights=1:1:2:2"));
        }
        p.weights.push_back(*v);
      }
    }
  });
  return spec;
}

std::string TechniqueSpec::label() const {
  std::string out(technique_info(technique).name);
  if (expert_chunk) {
    out += ":expert";
  } else if (chunk > 0) {
    out += ':' + std::to_string(chunk);
  }
  return out;
}

std::string TechniqueSpec::text() const {
  std::string out(technique_info(technique).name);
  if (expert_chunk) {
    out += ",chunk=expert";
  } else if (chunk > 0) {
    out += ",chunk=" + std::to_string(chunk);
  }
  char buf[64];
  auto add = [&](const char* key, double v) {
    std::snprintf(buf, sizeof buf, ",%s=%g", key, v);
    out += buf;
  };
  const TechniqueParams defaults;
  if (params.mu_ns) add("mu", *params.mu_ns);
  if (params.sigma_ns) add("sigma", *params.sigma_ns);
  if (params.overhead_ns) add("h", *params.overhead_ns);
  if (params.alpha != defaults.alpha) add("alpha", params.alpha);
  if (params.swr != defaults.swr) add("swr", params.swr);
  if (params.divider != defaults.divider) add("divider", params.divider);
  if (params.stages != defaults.stages) add("stages", params.stages);
  if (params.viss != defaults.viss) add("viss", params.viss);
  if (params.start != defaults.start) add("start", static_cast<double>(params.start));
  if (params.seed != defaults.seed) out += ",seed=" + std::to_string(params.seed);
  if (!params.weights.empty()) {
    out += ",weights=";
    for (std::size_t i = 0; i < params.weights.size(); ++i) {
      std::snprintf(buf, sizeof buf, "%s%g", i ? ":" : "", params.weights[i]);
      out += buf;
    }
  }
  return out;
}

}  // namespace autosched
