#include "configurations.hpp"

#include <autosched/core/error.hpp>
#include <autosched/core/text.hpp>
#include <autosched/select/grammar/schedule.hpp>

#include <algorithm>

namespace autosched::campaign {

namespace {

std::vector<std::string> names_of(const std::vector<Configuration>& list) {
  std::vector<std::string> out;
  out.reserve(list.size());
  for (const auto& c : list) out.push_back(c.name);
  return out;
}

std::string listing(const std::vector<Configuration>& list) {
  std::string out;
  for (const auto& name : names_of(list)) out += (out.empty() ? "" : ", ") + name;
  return out;
}

/// Pieces of a list; schedules contain commas, so ';' separates when present.
std::vector<std::string> pieces(const std::string& spec) {
  const char separator = spec.find(';') != std::string::npos ? ';' : ',';
  std::vector<std::string> out;
  for (auto p : text::split(spec, separator)) {
    if (!p.empty()) out.emplace_back(p);
  }
  return out;
}

std::vector<Configuration> pick(const std::vector<Configuration>& known, const std::string& spec,
                                const std::string& option, bool schedules_allowed) {
  if (spec == "all") return known;
  if (spec == "none" || spec.empty()) return {};
  auto is_known = [&](const std::string& item) {
    return std::any_of(known.begin(), known.end(), [&](const Configuration& c) { return c.name == item; });
  };
  std::vector<std::string> items = pieces(spec);
  // A lone schedule such as "auto:qlearn,reward=loadimbalance" is one item.
  if (schedules_allowed && spec.find(';') == std::string::npos && !std::all_of(items.begin(), items.end(), is_known)) {
    items = {spec};
  }
  constexpr std::string_view dropin_prefix = "dropin:";
  std::vector<Configuration> out;
  for (const auto& item : items) {
    auto it = std::find_if(known.begin(), known.end(), [&](const Configuration& c) { return c.name == item; });
    if (it != known.end()) {
      out.push_back(*it);
    } else if (schedules_allowed && item.starts_with(dropin_prefix)) {
      const std::string schedule = item.substr(dropin_prefix.size());
      (void)parse_schedule(schedule, option);
      Configuration c{item, schedule, ConfigKind::method, {}};
      c.dropin = true;
      out.push_back(c);
    } else if (schedules_allowed && item.rfind("auto", 0) == 0) {
      (void)parse_schedule(item, option);  // rejected here, not in every app run
      out.push_back({item, item, ConfigKind::method, {}});
    } else {
      detail::throw_error(text::bad_value(option, item, "all, none or a list of: " + listing(known)));
    }
  }
  return out;
}

}  // namespace

const char* kind_name(ConfigKind kind) noexcept {
  switch (kind) {
    case ConfigKind::arm:
      return "arm";
    case ConfigKind::reference:
      return "reference";
    case ConfigKind::method:
      break;
  }
  return "method";
}

ConfigKind parse_kind(const std::string& text) {
  if (text == "arm") return ConfigKind::arm;
  if (text == "reference") return ConfigKind::reference;
  if (text == "method") return ConfigKind::method;
  detail::throw_error(text::bad_value("runs.csv kind", text, "arm, reference or method"));
}

std::vector<Configuration> oracle_arms() {
  static const char* techniques[] = {"static",       "ss",    "tss",   "auto-llvm", "guided-llvm", "mfac2",
                                     "static-steal", "awf-b", "awf-c", "awf-d",     "awf-e",       "maf"};
  std::vector<Configuration> out;
  for (const char* t : techniques) out.push_back({t, t, ConfigKind::arm, t});
  for (const char* t : techniques) {
    out.push_back(
        {std::string(t) + "+exp", std::string(t) + ",chunk=expert", ConfigKind::arm, std::string(t) + ":expert"});
  }
  return out;
}

std::vector<Configuration> references() {
  return {{"omp:static", "omp:static", ConfigKind::reference, "omp-static"},
          {"omp:dynamic", "omp:dynamic", ConfigKind::reference, "omp-dynamic"},
          {"omp:guided", "omp:guided", ConfigKind::reference, "omp-guided"}};
}

std::vector<Configuration> published_methods() {
  struct Base {
    const char* name;
    const char* schedule;
  };
  static const Base selectors[] = {{"RandomSel", "auto:random"},
                                   {"ExhaustiveSel", "auto:exhaustive"},
                                   {"ExpertSel", "auto:expert"},
                                   {"QLearn-LT", "auto:qlearn,reward=looptime"},
                                   {"QLearn-LIB", "auto:qlearn,reward=loadimbalance"},
                                   {"SARSA-LT", "auto:sarsa,reward=looptime"},
                                   {"SARSA-LIB", "auto:sarsa,reward=loadimbalance"}};
  std::vector<Configuration> out;
  for (const Base& b : selectors) out.push_back({b.name, b.schedule, ConfigKind::method, {}});
  for (const Base& b : selectors) {
    out.push_back({std::string(b.name) + "+exp", std::string(b.schedule) + ",chunk=expert", ConfigKind::method, {}});
  }
  out.push_back({"ChunkSel", "auto:chunk", ConfigKind::method, {}});
  out.push_back({"auto", "auto", ConfigKind::method, {}});
  return out;
}

std::vector<Configuration> select_methods(const std::string& spec) {
  return pick(published_methods(), spec, "--methods", true);
}

std::vector<Configuration> select_arms(const std::string& spec) { return pick(oracle_arms(), spec, "--arms", false); }

std::vector<Configuration> select_references(const std::string& spec) {
  return pick(references(), spec, "--references", false);
}

const std::vector<std::string>& app_names() {
  static const std::vector<std::string> names = {"mandelbrot",     "stream-triad",  "pisolver",
                                                 "triangle-count", "nbody-gravity", "short-range-force"};
  return names;
}

std::vector<std::string> select_apps(const std::string& spec) {
  if (spec == "all") return app_names();
  std::vector<std::string> out;
  for (const auto& item : pieces(spec)) {
    if (std::find(app_names().begin(), app_names().end(), item) == app_names().end()) {
      std::string known;
      for (const auto& n : app_names()) known += (known.empty() ? "" : ", ") + n;
      detail::throw_error(text::bad_value("--apps", item, "all or a list of: " + known));
    }
    out.push_back(item);
  }
  if (out.empty()) detail::throw_error(text::bad_value("--apps", spec, "at least one app"));
  return out;
}

}  // namespace autosched::campaign
