#include <autosched/select/grammar/schedule_environment.hpp>

#include <autosched/core/environment.hpp>
#include <autosched/core/error.hpp>
#include <autosched/core/text.hpp>
#include <autosched/select/grammar/rl_names.hpp>

#include <algorithm>
#include <atomic>
#include <memory>
#include <mutex>

namespace autosched {

namespace {

/// Problems reported for one variable's entries before the rest are counted.
constexpr std::size_t max_problems_per_variable = 8;

// The part of an autosched::Error message after "<name>=<value>: expected ".
std::string accepted_part(const Error& e) {
  const std::string m = e.what();
  const auto at = m.find(": expected ");
  return at == std::string::npos ? m : m.substr(at + 11);
}

struct RlAlias {
  const char* suffix;
  const char* key;
};
constexpr RlAlias rl_aliases[] = {
    {"ALPHA", "alpha"},       {"GAMMA", "gamma"},         {"EPSILON", "epsilon"}, {"ALPHA_DECAY", "alpha-decay"},
    {"EPS_DECAY", "eps-decay"}, {"ALPHA_MIN", "alpha-min"}, {"EPS_MIN", "eps-min"}, {"TAU", "tau"},
    {"INV_MULT", "inv-mult"}, {"AVG_WINDOW", "window"},   {"REWARD", "reward"},   {"REWARD_NUM", "rewards"},
    {"INIT", "init"},         {"POLICY", "policy"},       {"DECAY", "decay"},     {"AGENT_STATS", "stats"},
    {"CHUNK_TYPE", "agent"},  {"SELECTOR_TYPE", "agent"},
};

/// An RL agent by LB4OMP/LB4MPI number or name, in autosched's spelling;
/// empty if unknown.
std::string agent_name(std::string_view v) {
  const auto learner = find_rl_learner_alias(v);
  return learner ? std::string(rl_learner_name(*learner)) : std::string();
}

/// "8 (QLearner), 9 (DoubleQLearner), … or autosched's names qlearn, …".
std::string agent_accepted() {
  std::string out;
  for (const auto& l : rl_learner_names()) {
    if (!out.empty()) out += ", ";
    out += std::to_string(l.lb4omp_method) + " (" + std::string(l.lb4mpi_name) + ")";
  }
  return out + " or autosched's names " + rl_learner_list();
}

/// The selector of a selection text: "qlearn" for "auto:qlearn,alpha=0.3".
std::string selector_of(std::string_view text) {
  const std::string head = text::lower(text::split(text, ',').front());
  return head.size() > 5 ? std::string(text::trim(std::string_view(head).substr(5))) : std::string("auto");
}

void read_rl_keys(const EnvironmentLookup& get, ScheduleEnvironment& env) {
  for (const char* prefix : {"KMP_RL_", "LB4MPI_RL_"}) {
    for (const RlAlias& a : rl_aliases) {
      const std::string var = std::string(prefix) + a.suffix;
      const auto value = get(var.c_str());
      if (!value) continue;
      std::string v(text::trim(*value));
      if (std::string_view(a.key) == "rewards") std::replace(v.begin(), v.end(), ',', ':');
      if (std::string_view(a.key) == "agent") {
        const std::string name = agent_name(v);
        if (name.empty()) {
          env.problems.push_back(text::bad_value(var, *value, agent_accepted()) + "; ignoring it");
          continue;
        }
        v = name;
      }
      try {  // validate with the grammar, report under the variable's name
        parse_selector(std::string(std::string_view(a.key) == "agent" ? "auto:chunk," : "auto:qlearn,") + a.key + "=" + v,
                       var);
      } catch (const Error& e) {
        env.problems.push_back(text::bad_value(var, *value, accepted_part(e)) + "; ignoring it");
        continue;
      }
      // LB4MPI's spelling is read second and wins over LB4OMP's.
      std::erase_if(env.rl_keys, [&](const auto& kv) { return kv.first == a.key; });
      env.rl_keys.emplace_back(a.key, v);
      env.aliases_used.push_back(var + "=" + *value + " → " + a.key + "=" + v);
    }
  }
}

std::optional<Schedule> alias_schedule(const EnvironmentLookup& get, ScheduleEnvironment& env) {
  if (auto omp = get("OMP_SCHEDULE")) {
    const auto parts = text::split(*omp, ',');
    if (parts.size() == 2 && text::lower(parts[0]) == "auto") {
      const auto method = text::to_int(parts[1]);
      std::string selector;
      if (method) {
        switch (*method) {
          case 2: selector = "random"; break;
          case 3: selector = "exhaustive"; break;
          case 4: selector = "binary"; break;
          // 6 "QLearnerOld" and 7 "SARSALearnerOld" both run the Q-learner in LB4OMP.
          case 6: case 7: selector = "qlearn"; break;
          case 5: selector = "expert"; break;
          case 15: selector = "chunk"; break;
          default: selector = agent_name(parts[1]); break;  // 8–12: the learners' table
        }
      }
      if (method && (*method == 13 || *method == 14)) {
        env.problems.push_back(text::bad_value("OMP_SCHEDULE", *omp,
                                               "auto,2 … auto,12 or auto,15; 13 (R-learning) and 14 (Deep-Q) are "
                                               "empty stubs in LB4OMP and have no counterpart here; ignoring it"));
      } else if (!selector.empty()) {
        const auto golden = get("KMP_Golden_Chunksize");
        const bool exp_chunk = !(golden && text::trim(*golden) == "0");
        const std::string text = "auto:" + selector + (exp_chunk && selector != "chunk" ? ",chunk=expert" : "");
        env.aliases_used.push_back("OMP_SCHEDULE=" + *omp + " → " + text);
        return parse_schedule(env.with_rl_keys(text), "OMP_SCHEDULE");
      }
      // auto, auto,1 and auto,>=16 mean LLVM's auto: left to the OpenMP runtime.
    }
  }
  if (auto mpi = get("MPI_RL_OPTION")) {
    const std::string v = text::lower(text::trim(*mpi));
    std::string selector = agent_name(v);
    if (v == "15" || v == "chunkparameterselector") selector = "chunk";
    if (v == "16" || v == "stealratioselector") {
      env.problems.push_back(text::bad_value("MPI_RL_OPTION", *mpi,
                                             "an agent for loops; StealRatioSelector (16) applies to MPI work "
                                             "stealing only; ignoring it"));
    } else if (selector.empty() && v != "0") {
      env.problems.push_back(text::bad_value("MPI_RL_OPTION", *mpi, agent_accepted() +
                                                                        ", 15 (ChunkParameterSelector) or 0; ignoring it"));
    } else if (!selector.empty()) {
      const std::string text = "auto:" + selector;
      env.aliases_used.push_back("MPI_RL_OPTION=" + *mpi + " → " + text);
      return parse_schedule(env.with_rl_keys(text), "MPI_RL_OPTION");
    }
  }
  return std::nullopt;
}

}  // namespace

const Schedule* ScheduleEnvironment::for_loop(std::string_view loop,
                                              std::span<const std::string_view> aliases) const noexcept {
  for (std::size_t i = 0; i < per_loop.size(); ++i) {
    if (per_loop[i].first == loop) {
      note_match(i);
      return &per_loop[i].second;
    }
  }
  for (const std::string_view name : aliases) {
    for (std::size_t i = 0; i < per_loop.size(); ++i) {
      if (!name.empty() && per_loop[i].first == name) {
        note_match(i);
        return &per_loop[i].second;
      }
    }
  }
  if (global) return &*global;
  return alias ? &*alias : nullptr;
}

void ScheduleEnvironment::note_match(std::size_t index) const noexcept {
  if (matched && index < per_loop.size()) matched[index].store(true, std::memory_order_relaxed);
}

std::vector<std::string> ScheduleEnvironment::unmatched() const {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < per_loop.size(); ++i) {
    if (!matched || !matched[i].load(std::memory_order_relaxed)) out.push_back(per_loop[i].first);
  }
  return out;
}

std::string ScheduleEnvironment::with_rl_keys(std::string_view text) const {
  std::string out(text::trim(text));
  if (rl_keys.empty() || !is_selection_text(out)) return out;
  const std::string selector = selector_of(out);
  if (!find_rl_learner(selector) && selector != "chunk") return out;
  std::vector<std::string> set;  // the keys the text gives itself
  const auto items = text::split(out, ',');
  for (std::size_t i = 1; i < items.size(); ++i) set.push_back(text::lower(text::split_key_value(items[i]).key));
  for (const auto& [key, value] : rl_keys) {
    if (key == "agent" && selector != "chunk") continue;
    if (std::find(set.begin(), set.end(), key) == set.end()) out += "," + key + "=" + value;
  }
  return out;
}

ScheduleEnvironment parse_schedule_environment(const EnvironmentLookup& get) {
  ScheduleEnvironment env;
  read_rl_keys(get, env);
  try {
    env.alias = alias_schedule(get, env);
  } catch (const Error& e) {
    env.problems.push_back(std::string(e.what()) + "; ignoring it");
  }
  if (auto schedule = get("AUTOSCHED_SCHEDULE")) {
    try {
      env.global = parse_schedule(env.with_rl_keys(*schedule), "AUTOSCHED_SCHEDULE");
    } catch (const Error& e) {
      env.problems.push_back(text::bad_value("AUTOSCHED_SCHEDULE", *schedule, accepted_part(e)) + "; ignoring it");
    }
  }
  if (auto schedule_for = get("AUTOSCHED_SCHEDULE_FOR")) {
    // Each problem names its entry only, never the whole value, and a value
    // with many bad entries gives a few problems and one count of the rest.
    std::size_t bad_entries = 0;
    auto problem = [&](std::string message) {
      if (++bad_entries <= max_problems_per_variable) env.problems.push_back(std::move(message));
    };
    for (auto entry : text::split(*schedule_for, ';')) {
      if (entry.empty()) continue;
      const text::KeyValue item = text::split_key_value(entry);  // <loop>=<schedule>
      const std::string_view loop = item.key;
      if (loop.empty()) {
        problem(text::bad_value("AUTOSCHED_SCHEDULE_FOR", "…;" + std::string(entry) + ";…",
                                "<loop>=<schedule> entries separated by ';'; ignoring that entry"));
        continue;
      }
      const std::string source = "AUTOSCHED_SCHEDULE_FOR[" + text::escape(loop, text::max_echoed_value) + "]";
      try {
        env.per_loop.emplace_back(std::string(loop), parse_schedule(env.with_rl_keys(item.value), source));
      } catch (const Error& e) {
        problem(text::bad_value(source, item.value, accepted_part(e)) + "; ignoring that entry");
      }
    }
    if (bad_entries > max_problems_per_variable) {
      env.problems.push_back("AUTOSCHED_SCHEDULE_FOR: … and " + std::to_string(bad_entries - max_problems_per_variable) +
                             " more bad entries, ignored");
    }
    env.matched = std::shared_ptr<std::atomic<bool>[]>(new std::atomic<bool>[env.per_loop.size()]());
  }
  return env;
}

namespace {
std::mutex env_mutex;
std::shared_ptr<const ScheduleEnvironment> current_env;
std::atomic<std::uint64_t> generation{0};

std::shared_ptr<const ScheduleEnvironment> read_now() {
  auto env = std::make_shared<const ScheduleEnvironment>(
      parse_schedule_environment([](const char* name) { return environment::get(name); }));
  for (const auto& p : env->problems) detail::warn(p);
  return env;
}
}  // namespace

const ScheduleEnvironment& schedule_environment() {
  std::lock_guard lock(env_mutex);
  if (!current_env) current_env = read_now();
  return *current_env;
}

OmpScheduleReading read_omp_schedule(std::string_view value, bool alias) {
  OmpScheduleReading r;
  std::string text = text::lower(text::trim(value));
  if (const auto colon = text.find(':'); colon != std::string::npos &&
                                         (text.rfind("monotonic", 0) == 0 || text.rfind("nonmonotonic", 0) == 0)) {
    text = std::string(text::trim(std::string_view(text).substr(colon + 1)));
  }
  const auto parts = text::split(text, ',');
  r.kind = std::string(parts[0]);
  if (parts.size() == 2) {
    if (auto chunk = text::to_int(parts[1])) r.chunk = static_cast<long>(*chunk);
  }
  if (alias) return r;  // auto,N: Auto4OMP's selectors
  std::string grammar = r.kind;
  if (parts.size() == 2 && r.chunk > 0) grammar += ",chunk=" + std::to_string(r.chunk);
  try {
    r.schedule = parse_schedule(grammar, "OMP_SCHEDULE");
  } catch (const Error& e) {
    r.problem = e.what();
  }
  return r;
}

void warn_unmatched_schedule_for() {
  const std::vector<std::string> names = schedule_environment().unmatched();
  if (names.empty()) return;
  std::string list;
  for (std::size_t i = 0; i < names.size() && i < max_problems_per_variable; ++i) {
    list += (i == 0 ? "'" : ", '") + text::escape(names[i], text::max_echoed_value) + "'";
  }
  if (names.size() > max_problems_per_variable) {
    list += " and " + std::to_string(names.size() - max_problems_per_variable) + " more";
  }
  detail::warn("AUTOSCHED_SCHEDULE_FOR: " + list + " matched"
               " no loop this process ran; a loop is named by its id or by the name the report and the trace show "
               "for it (docs/selection.md)");
}

namespace detail {
void reload_schedule_environment() {
  auto fresh = read_now();
  std::lock_guard lock(env_mutex);
  // References handed out earlier stay valid: the old value is retired, not freed.
  static std::vector<std::shared_ptr<const ScheduleEnvironment>> retired;
  if (current_env) retired.push_back(current_env);
  current_env = std::move(fresh);
  generation.fetch_add(1, std::memory_order_release);
}

std::uint64_t schedule_environment_generation() noexcept { return generation.load(std::memory_order_acquire); }
}  // namespace detail

}  // namespace autosched
