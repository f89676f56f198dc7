#include <autosched/select/schedule.hpp>

#include <autosched/core/error.hpp>
#include <autosched/core/text.hpp>

#include <cstdio>

namespace autosched {

namespace {

std::string technique_names() {
  std::vector<std::string_view> names;
  for (const auto& t : technique_catalogue()) names.push_back(t.name);
  return text::join(names);
}

[[noreturn]] void reject(std::string_view source, std::string_view text, const std::string& accepted) {
  detail::throw_error(text::bad_value(source, text, accepted));
}

bool accepts_key(const TechniqueInfo& info, std::string_view key) {
  for (auto k : text::split(info.keys, ' ')) {
    if (k == key) return true;
  }
  return false;
}

std::string keys_of(const TechniqueInfo& info) {
  std::string keys = "chunk";
  for (auto k : text::split(info.keys, ' ')) {
    if (!k.empty()) keys += ", " + std::string(k);
  }
  return keys;
}

}  // namespace

Schedule parse_schedule(std::string_view text, std::string_view source) {
  const auto parts = text::split(text, ',');
  const std::string head = text::lower(parts.front());
  if (head.empty()) reject(source, text, "a technique name or auto[:<selector>]: " + technique_names());
  if (is_selection_text(text)) {
    Schedule s;
    s.selection = parse_selector(text, source);
    return s;
  }
  const auto id = find_technique(head);
  if (!id) reject(source, text, "a technique name or auto[:<selector>]: " + technique_names());

  Schedule s;
  s.technique = *id;
  const TechniqueInfo& info = technique_info(*id);
  std::vector<std::string> seen;

  for (std::size_t i = 1; i < parts.size(); ++i) {
    std::string_view part = parts[i];
    auto eq = part.find('=');
    std::string key = eq == std::string_view::npos ? std::string() : text::lower(text::trim(part.substr(0, eq)));
    std::string_view value = eq == std::string_view::npos ? part : text::trim(part.substr(eq + 1));
    if (eq == std::string_view::npos) {
      if (i == 1 && text::to_int(part)) {
        key = "chunk";  // "dynamic,4"
      } else {
        reject(source, text,
               "<key>=<value> after the technique; '" + std::string(part) + "' has no '='. Keys for " +
                   std::string(info.name) + ": " + keys_of(info));
      }
    }
    for (const auto& k : seen) {
      if (k == key) reject(source, text, "each key at most once; '" + key + "' repeats");
    }
    seen.push_back(key);

    auto positive_int = [&](std::int64_t max) {
      auto v = text::to_int(value);
      if (!v || *v < 1 || *v > max) {
        reject(source, text,
               key + " = an integer in [1, " + std::to_string(max) + "], got '" + std::string(value) + "'");
      }
      return *v;
    };
    auto number = [&](double low, bool low_open, double high) {
      auto v = text::to_double(value);
      if (!v || *v < low || (low_open && *v == low) || *v > high) {
        char range[96];
        std::snprintf(range, sizeof range, "%s%g, %g]", low_open ? "(" : "[", low, high);
        reject(source, text, key + " = a number in " + range + ", got '" + std::string(value) + "'");
      }
      return *v;
    };

    if (key == "chunk") {
      if (text::lower(value) == "expert") {
        s.expert_chunk = true;
      } else {
        auto v = text::to_int(value);
        if (!v || *v < 1 || *v > max_iterations) {
          reject(source, text, "chunk = a positive integer or 'expert', got '" + std::string(value) + "'");
        }
        s.chunk = *v;
      }
      continue;
    }
    if (!accepts_key(info, key)) {
      reject(source, text, "a key " + std::string(info.name) + " accepts (" + keys_of(info) + "); got '" + key + "'");
    }
    constexpr double huge = 1e18;
    auto& p = s.params;
    if (key == "mu")
      p.mu_ns = number(0, true, huge);
    else if (key == "sigma")
      p.sigma_ns = number(0, false, huge);
    else if (key == "h")
      p.overhead_ns = number(0, false, huge);
    else if (key == "alpha")
      p.alpha = number(0, true, huge);
    else if (key == "swr")
      p.swr = number(0, true, 1);
    else if (key == "divider")
      p.divider = static_cast<int>(positive_int(1 << 20));
    else if (key == "stages")
      p.stages = static_cast<int>(positive_int(1 << 20));
    else if (key == "viss")
      p.viss = static_cast<int>(positive_int(1 << 20));
    else if (key == "start")
      p.start = positive_int(max_iterations);
    else if (key == "seed") {
      auto v = text::to_int(value);
      if (!v || *v < 0) reject(source, text, "seed = a non-negative integer, got '" + std::string(value) + "'");
      p.seed = static_cast<std::uint64_t>(*v);
    } else if (key == "weights") {
      p.weights.clear();
      for (auto w : text::split(value, ':')) {
        auto v = text::to_double(w);
        if (!v || *v <= 0) {
          reject(source, text, "weights = positive numbers separated by ':', e.g. weights=1:1:2:2");
        }
        p.weights.push_back(*v);
      }
    }
  }
  return s;
}

const Schedule& default_schedule() {
  static const Schedule s = parse_schedule("auto", "default schedule");
  return s;
}

std::string Schedule::text() const {
  if (selection) return selection->text;
  std::string out(technique_info(technique).name);
  if (expert_chunk)
    out += ",chunk=expert";
  else if (chunk > 0)
    out += ",chunk=" + std::to_string(chunk);
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
