#pragma once
/// @file
/// The schedule a loop is given in code: text (docs/loops.md, "Schedules") or a typed
/// value, interchangeably.
///
///   {.schedule = "gss,chunk=16"}                                   // text
///   {.schedule = autosched::TechniqueSpec{.technique = autosched::TechniqueId::gss, .chunk = 16}}
///   {.schedule = autosched::parse_schedule("auto:qlearn", "mine")} // a Schedule value
///
/// Both forms are checked by the same grammar (a typed value through its
/// canonical text), so a bad value is reported the same way either way.

#include <autosched/select/grammar/schedule.hpp>
#include <autosched/techniques/technique_spec.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace autosched {

class ScheduleChoice {
 public:
  /// None: the environment's schedule for the loop, else `auto`.
  constexpr ScheduleChoice() noexcept = default;
  constexpr ScheduleChoice(const char* text) noexcept : text_(text != nullptr ? text : "") {}  // NOLINT: implicit by design
  constexpr ScheduleChoice(std::string_view text) noexcept : text_(text) {}                    // NOLINT
  ScheduleChoice(const std::string& text) noexcept : text_(text) {}                            // NOLINT
  ScheduleChoice(TechniqueSpec fixed) : typed_(Schedule{std::move(fixed), std::nullopt}) {}    // NOLINT
  ScheduleChoice(Schedule schedule) : typed_(std::move(schedule)) {}                           // NOLINT

  [[nodiscard]] bool empty() const noexcept { return !typed_ && text_.empty(); }
  /// The text given, empty for a typed value.
  [[nodiscard]] std::string_view text() const noexcept { return text_; }
  /// The typed value given, nullptr for text.
  [[nodiscard]] const Schedule* typed() const noexcept { return typed_ ? &*typed_ : nullptr; }

 private:
  std::string_view text_;
  std::optional<Schedule> typed_;
};

}  // namespace autosched
