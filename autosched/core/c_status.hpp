#pragma once
/// @file
/// What every C interface of autosched (loops, MPI loops, regions, pinning)
/// shares at its boundary: the status codes of autosched_status.h, one
/// thread-local message of the last failed call, and one guard that turns
/// whatever a call throws into a status and that message, so that no C++
/// exception unwinds through C frames.

#include <autosched/core/autosched_status.h>
#include <autosched/core/error.hpp>

#include <exception>
#include <new>
#include <string>
#include <string_view>

namespace autosched::c_api {

/// Records `message` as this thread's last error and returns `code`.
int fail(int code, std::string_view message) noexcept;

/// This thread's last error, "" when none.
const char* last_error() noexcept;

/// Thrown through the guard when the caller's own code failed (a body that
/// threw, a rank that failed): the guard returns AUTOSCHED_EBODY with
/// `message` after "<call>: ".
struct CallerFailed {
  std::string message;
};

/// Runs `f` (which returns a status) and turns every exception into a status
/// and a message that starts with `call`: CallerFailed → AUTOSCHED_EBODY,
/// autosched::Error (an input the library rejects) → `rejected`
/// (AUTOSCHED_EINVAL unless the call says otherwise), out of memory and
/// anything else → AUTOSCHED_EFAILED.
template <class F>
int guarded(std::string_view call, F&& f, int rejected = AUTOSCHED_EINVAL) noexcept {
  try {
    try {
      return f();
    } catch (const CallerFailed& e) {
      return fail(AUTOSCHED_EBODY, std::string(call) + ": " + e.message);
    } catch (const Error& e) {
      return fail(rejected, std::string(call) + ": " + e.what());
    } catch (const std::bad_alloc&) {
      return fail(AUTOSCHED_EFAILED, std::string(call) + ": out of memory");
    } catch (const std::exception& e) {
      return fail(AUTOSCHED_EFAILED, std::string(call) + ": " + e.what());
    } catch (...) {
      return fail(AUTOSCHED_EFAILED, std::string(call) + ": an unknown exception");
    }
  } catch (...) {  // building the message ran out of memory
    return fail(AUTOSCHED_EFAILED, "out of memory");
  }
}

}  // namespace autosched::c_api
