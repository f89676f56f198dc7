#include <autosched/pinning/pinning.h>

#include <autosched/pinning/manager.hpp>

#include <exception>
#include <new>
#include <string>

struct autosched_pinning_manager {
  autosched::pinning::Manager manager;
};

struct autosched_pinning_thread {
  autosched::pinning::ThreadRegistration registration;
};

namespace {

thread_local std::string last_error;

/// Runs `f`, turning every exception into a status code and a message: no
/// C++ exception may unwind through C frames.
template <class F>
int guarded(F&& f) noexcept {
  try {
    last_error.clear();
    return f();
  } catch (const std::bad_alloc&) {
    last_error = "out of memory";
  } catch (const std::exception& e) {
    try {
      last_error = e.what();
    } catch (...) {
    }
  } catch (...) {
    last_error = "unknown error";
  }
  return AUTOSCHED_PINNING_ERROR;
}

int bad_argument(const char* what) noexcept {
  try {
    last_error = what;
  } catch (...) {
  }
  return AUTOSCHED_PINNING_BAD_ARGUMENT;
}

}  // namespace

extern "C" {

int autosched_pinning_create(const char* options, autosched_pinning_manager** out) {
  if (out == nullptr) return bad_argument("autosched_pinning_create: out is NULL");
  *out = nullptr;
  int status = guarded([&] {
    namespace p = autosched::pinning;
    p::ManagerOptions o;
    if (options != nullptr) {
      o = p::parse_options(options);
    } else if (auto env = p::options_from_environment()) {
      o = *env;
    }
    *out = new autosched_pinning_manager{p::Manager(o)};
    return AUTOSCHED_PINNING_OK;
  });
  // An option text that does not parse is the caller's argument.
  if (status == AUTOSCHED_PINNING_ERROR && options != nullptr) status = AUTOSCHED_PINNING_BAD_ARGUMENT;
  return status;
}

int autosched_pinning_start(autosched_pinning_manager* manager) {
  if (manager == nullptr) return bad_argument("autosched_pinning_start: manager is NULL");
  return guarded([&] {
    manager->manager.start();
    return AUTOSCHED_PINNING_OK;
  });
}

int autosched_pinning_stop(autosched_pinning_manager* manager) {
  if (manager == nullptr) return bad_argument("autosched_pinning_stop: manager is NULL");
  return guarded([&] {
    manager->manager.stop();
    return AUTOSCHED_PINNING_OK;
  });
}

int autosched_pinning_destroy(autosched_pinning_manager* manager) {
  return guarded([&] {
    delete manager;
    return AUTOSCHED_PINNING_OK;
  });
}

int autosched_pinning_register_thread(autosched_pinning_manager* manager, autosched_pinning_thread** out) {
  if (manager == nullptr || out == nullptr)
    return bad_argument("autosched_pinning_register_thread: manager or out is NULL");
  *out = nullptr;
  return guarded([&] {
    *out = new autosched_pinning_thread{manager->manager.register_thread()};
    return AUTOSCHED_PINNING_OK;
  });
}

void autosched_pinning_heartbeat(autosched_pinning_thread* thread, uint64_t n) {
  if (thread != nullptr) thread->registration.heartbeat(n);
}

int autosched_pinning_unregister_thread(autosched_pinning_thread* thread) {
  return guarded([&] {
    delete thread;
    return AUTOSCHED_PINNING_OK;
  });
}

const char* autosched_pinning_last_error(void) { return last_error.c_str(); }

}  // extern "C"
