#include <autosched/select/grammar/schedule.hpp>

#include <autosched/core/error.hpp>
#include <autosched/core/text.hpp>

namespace autosched {

Schedule parse_schedule(std::string_view text, std::string_view source) {
  if (is_selection_text(text)) return Schedule{{}, parse_selector(text, source)};
  // Say that `auto` would do too, not only a technique.
  const std::string_view head = text::split(text::split(text, ',').front(), ':').front();
  if (!find_technique(text::lower(head))) {
    detail::throw_error(text::bad_value(source, text, "a technique name or auto[:<selector>]: " + technique_names()));
  }
  return Schedule{parse_technique_spec(text, source), std::nullopt};
}

const Schedule& default_schedule() {
  static const Schedule s = parse_schedule("auto", "default schedule");
  return s;
}

std::string Schedule::text() const { return selection ? selection->text : fixed.text(); }

}  // namespace autosched
