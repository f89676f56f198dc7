#include <autosched/select/schedule_environment.hpp>

#include <autosched/core/environment.hpp>
#include <autosched/core/error.hpp>
#include <autosched/core/text.hpp>

#include <algorithm>
#include <atomic>
#include <memory>
#include <mutex>

namespace autosched {

namespace {

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

/// An RL agent by LB4OMP/LB4MPI number or name; empty if unknown.
std::string agent_name(std::string_view v) {
  const std::string s = text::lower(text::trim(v));
  static const std::pair<std::string_view, std::string_view> names[] = {
      {"8", "qlearn"},           {"qlearner", "qlearn"},    {"9", "doubleq"},  {"doubleqlearner", "doubleq"},
      {"10", "sarsa"},           {"sarsa_learner", "sarsa"}, {"sarsalearner", "sarsa"},
      {"11", "expected-sarsa"},  {"expectedsarsa_learner", "expected-sarsa"},
      {"expectedsarsalearner", "expected-sarsa"},          {"12", "qv"},      {"qv_learner", "qv"},
      {"qvlearner", "qv"},       {"qlearn", "qlearn"},      {"sarsa", "sarsa"}, {"doubleq", "doubleq"},
      {"qv", "qv"},              {"expected-sarsa", "expected-sarsa"}};
  for (const auto& [k, name] : names) {
    if (k == s) return std::string(name);
  }
  return {};
}

constexpr const char* agent_accepted =
    "8 (QLearner), 9 (DoubleQLearner), 10 (SARSA_Learner), 11 (ExpectedSARSA_Learner), 12 (QV_Learner) or "
    "autosched's names qlearn, doubleq, sarsa, expected-sarsa, qv";

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
          env.problems.push_back(text::bad_value(var, *value, agent_accepted) + "; ignoring it");
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
          case 5: selector = "expert"; break;
          case 6: case 7: case 8: selector = "qlearn"; break;
          case 9: selector = "doubleq"; break;
          case 10: selector = "sarsa"; break;
          case 11: selector = "expected-sarsa"; break;
          case 12: selector = "qv"; break;
          case 15: selector = "chunk"; break;
          default: break;
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
      env.problems.push_back(text::bad_value("MPI_RL_OPTION", *mpi, std::string(agent_accepted) +
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

const Schedule* ScheduleEnvironment::for_loop(std::string_view loop) const noexcept {
  for (const auto& [name, schedule] : per_loop) {
    if (name == loop) return &schedule;
  }
  if (global) return &*global;
  return alias ? &*alias : nullptr;
}

std::string ScheduleEnvironment::with_rl_keys(std::string_view text) const {
  std::string out(text::trim(text));
  if (rl_keys.empty() || !is_selection_text(out)) return out;
  const std::string head = text::lower(text::split(out, ',').front());
  const bool rl = head == "auto:qlearn" || head == "auto:sarsa" || head == "auto:doubleq" || head == "auto:qv" ||
                  head == "auto:expected-sarsa" || head == "auto:chunk";
  if (!rl) return out;
  for (const auto& [key, value] : rl_keys) {
    if (key == "agent" && head != "auto:chunk") continue;
    const bool set = out.find("," + key + "=") != std::string::npos;
    if (!set) out += "," + key + "=" + value;
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
    for (auto entry : text::split(*schedule_for, ';')) {
      if (entry.empty()) continue;
      const auto eq = entry.find('=');
      const auto loop = eq == std::string_view::npos ? std::string_view{} : text::trim(entry.substr(0, eq));
      if (loop.empty()) {
        env.problems.push_back(text::bad_value("AUTOSCHED_SCHEDULE_FOR", *schedule_for,
                                               "<loop>=<schedule> entries separated by ';', got '" +
                                                   std::string(entry) + "'; ignoring that entry"));
        continue;
      }
      const std::string source = "AUTOSCHED_SCHEDULE_FOR[" + std::string(loop) + "]";
      try {
        env.per_loop.emplace_back(std::string(loop), parse_schedule(env.with_rl_keys(entry.substr(eq + 1)), source));
      } catch (const Error& e) {
        env.problems.push_back(text::bad_value(source, text::trim(entry.substr(eq + 1)), accepted_part(e)) +
                               "; ignoring that entry");
      }
    }
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
