#pragma once
/// @file
/// The schedules set from the environment, for unmodified programs and
/// experiments:
///   AUTOSCHED_SCHEDULE=<schedule>                      every loop without a schedule option
///   AUTOSCHED_SCHEDULE_FOR="<loop>=<schedule>;..."     per loop, wins over AUTOSCHED_SCHEDULE
/// Read once per process. A bad value is reported as a warning naming the
/// variable, the value and what is accepted, and ignored: the application's
/// computation continues with the default schedule.

#include <autosched/loops/schedule.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace autosched {

struct ScheduleEnvironment {
  std::optional<Schedule> global;
  std::vector<std::pair<std::string, Schedule>> per_loop;
  std::vector<std::string> problems;  ///< one message per rejected value

  /// The schedule the environment gives `loop`, or nullptr.
  [[nodiscard]] const Schedule* for_loop(std::string_view loop) const noexcept;
};

/// Interprets the two variables' values (nullopt = unset). Never throws for
/// bad values: they are collected in `problems`.
ScheduleEnvironment parse_schedule_environment(const std::optional<std::string>& schedule,
                                               const std::optional<std::string>& schedule_for);

/// This process's environment, read (and its problems warned about) once.
const ScheduleEnvironment& schedule_environment();

namespace detail {
/// Reads the variables again (tests that change them with setenv).
void reload_schedule_environment();
/// Incremented by every reload, so that loops re-resolve their schedule.
std::uint64_t schedule_environment_generation() noexcept;
}  // namespace detail

}  // namespace autosched
