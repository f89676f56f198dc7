#include <autosched/loops/schedule_environment.hpp>

#include <autosched/core/environment.hpp>
#include <autosched/core/error.hpp>
#include <autosched/core/text.hpp>

#include <atomic>
#include <memory>
#include <mutex>

namespace autosched {

const Schedule* ScheduleEnvironment::for_loop(std::string_view loop) const noexcept {
  for (const auto& [name, schedule] : per_loop) {
    if (name == loop) return &schedule;
  }
  return global ? &*global : nullptr;
}

ScheduleEnvironment parse_schedule_environment(const std::optional<std::string>& schedule,
                                               const std::optional<std::string>& schedule_for) {
  ScheduleEnvironment env;
  if (schedule) {
    try {
      env.global = parse_schedule(*schedule, "AUTOSCHED_SCHEDULE");
    } catch (const Error& e) {
      env.problems.push_back(std::string(e.what()) + "; ignoring it");
    }
  }
  if (schedule_for) {
    for (auto entry : text::split(*schedule_for, ';')) {
      if (entry.empty()) continue;
      const auto eq = entry.find('=');
      const auto loop = eq == std::string_view::npos ? std::string_view{} : text::trim(entry.substr(0, eq));
      if (loop.empty()) {
        env.problems.push_back(text::bad_value(
            "AUTOSCHED_SCHEDULE_FOR", *schedule_for,
            "<loop>=<schedule> entries separated by ';', got '" + std::string(entry) + "'; ignoring that entry"));
        continue;
      }
      try {
        env.per_loop.emplace_back(std::string(loop), parse_schedule(entry.substr(eq + 1), "AUTOSCHED_SCHEDULE_FOR[" +
                                                                                              std::string(loop) + "]"));
      } catch (const Error& e) {
        env.problems.push_back(std::string(e.what()) + "; ignoring that entry");
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
      parse_schedule_environment(environment::get("AUTOSCHED_SCHEDULE"), environment::get("AUTOSCHED_SCHEDULE_FOR")));
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
