#include <autosched/core/c_status.hpp>

namespace autosched::c_api {

namespace {
thread_local std::string message;
}  // namespace

int fail(int code, std::string_view text) noexcept {
  try {
    message = text;
  } catch (...) {  // out of memory: the code alone must do
    message.clear();
  }
  return code;
}

const char* last_error() noexcept { return message.c_str(); }

}  // namespace autosched::c_api

extern "C" const char* autosched_last_error(void) { return autosched::c_api::last_error(); }
