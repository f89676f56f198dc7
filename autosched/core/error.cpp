#include <autosched/core/error.hpp>

#include <cstdio>
#include <cstdlib>
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
  WarningSink sink;
};
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

void warn(std::string_view message) {
  auto& state = warning_state();
  std::lock_guard lock(state.mutex);
  if (state.sink) {
    state.sink(message);
    return;
  }
  if (!state.seen.emplace(message).second || warnings_silenced()) return;
  std::fprintf(stderr, "autosched: warning: %.*s\n", static_cast<int>(message.size()), message.data());
}

WarningSink set_warning_sink(WarningSink sink) {
  auto& state = warning_state();
  std::lock_guard lock(state.mutex);
  return std::exchange(state.sink, std::move(sink));
}

}  // namespace detail
}  // namespace autosched
