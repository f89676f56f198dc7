#include <autosched/core/error.hpp>

#include <autosched/core/text.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <set>
#include <utility>

namespace autosched {

namespace {
std::string short_location(SourceLocation where) {
  std::string_view file = where.file_name();
  // Keep the path from the layer folder on, the part a bug report needs.
  if (auto pos = file.rfind("autosched/"); pos != std::string_view::npos) file.remove_prefix(pos);
  return std::string(file) + ":" + std::to_string(where.line());
}
}  // namespace

Error::Error(const std::string& message, SourceLocation where)
    : std::runtime_error(message), where_(short_location(where)) {}

namespace detail {

void throw_error(const std::string& message, SourceLocation where) { throw Error(message, where); }

namespace {
struct WarningState {
  std::mutex mutex;
  std::set<std::string, std::less<>> seen;
  std::map<std::string, int, std::less<>> per_subject;  // different messages printed per subject
  WarningSink sink;
};

/// What a warning is about: "AUTOSCHED_SCHEDULE_FOR" for
/// "AUTOSCHED_SCHEDULE_FOR[loop]=x: expected ...", bounded.
std::string_view subject_of(std::string_view message) {
  return message.substr(0, std::min<std::size_t>(message.find_first_of("=:["), 80));
}
WarningState& warning_state() {
  // Never destroyed: the background writer's last flush runs from an atexit
  // handler that may come after static destructors, and it may warn then
  // (a full disk). A destroyed set and mutex there were a use-after-free.
  static auto* state = new WarningState;
  return *state;
}
bool warnings_silenced() {
  // Read directly (not through core/env) to keep error.cpp free of cycles.
  const char* v = std::getenv("AUTOSCHED_VERBOSE");
  return v != nullptr && std::string_view(v) == "0";
}
}  // namespace

void warn(std::string_view raw) {
  // Messages echo the user's input: one line, printable, bounded.
  const std::string message = text::escape(raw, max_warning_bytes);
  auto& state = warning_state();
  std::lock_guard lock(state.mutex);
  if (state.sink) {
    state.sink(message);
    return;
  }
  if (warnings_silenced() || state.seen.contains(message)) return;
  // A flood of different warnings about one thing (16000 bad entries of one
  // variable) is cut to a few and one line saying so; neither stderr nor the
  // set of seen messages grows with it.
  auto subject = state.per_subject.find(subject_of(message));
  if (subject == state.per_subject.end())
    subject = state.per_subject.emplace(std::string(subject_of(message)), 0).first;
  if (subject->second >= max_warnings_per_subject) {
    if (subject->second == max_warnings_per_subject) {  // once; the count stops here
      ++subject->second;
      std::fprintf(stderr, "autosched: warning: %s: further warnings about it are not shown\n",
                   subject->first.c_str());
    }
    return;
  }
  ++subject->second;
  state.seen.insert(message);
  std::fprintf(stderr, "autosched: warning: %s\n", message.c_str());
}

WarningSink set_warning_sink(WarningSink sink) {
  auto& state = warning_state();
  std::lock_guard lock(state.mutex);
  return std::exchange(state.sink, std::move(sink));
}

}  // namespace detail
}  // namespace autosched
