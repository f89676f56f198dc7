#include <autosched/pinning/pinning.h>

#include <autosched/core/c_status.hpp>
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

int bad_argument(const char* what) noexcept { return autosched::c_api::fail(AUTOSCHED_EINVAL, what); }

}  // namespace

extern "C" {

int autosched_pinning_create(const char* options, autosched_pinning_manager** out) {
  if (out == nullptr) return bad_argument("autosched_pinning_create: out is NULL");
  *out = nullptr;
  int status = autosched::c_api::guarded("autosched_pinning_create", [&] {
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
  // An option text the manager refuses (a core outside the mask) is the caller's argument too.
  if (status == AUTOSCHED_EFAILED && options != nullptr) status = AUTOSCHED_EINVAL;
  return status;
}

int autosched_pinning_start(autosched_pinning_manager* manager) {
  if (manager == nullptr) return bad_argument("autosched_pinning_start: manager is NULL");
  return autosched::c_api::guarded("autosched_pinning_start", [&] {
    manager->manager.start();
    return AUTOSCHED_PINNING_OK;
  });
}

int autosched_pinning_stop(autosched_pinning_manager* manager) {
  if (manager == nullptr) return bad_argument("autosched_pinning_stop: manager is NULL");
  return autosched::c_api::guarded("autosched_pinning_stop", [&] {
    manager->manager.stop();
    return AUTOSCHED_PINNING_OK;
  });
}

int autosched_pinning_destroy(autosched_pinning_manager* manager) {
  return autosched::c_api::guarded("autosched_pinning_destroy", [&] {
    delete manager;
    return AUTOSCHED_PINNING_OK;
  });
}

int autosched_pinning_register_thread(autosched_pinning_manager* manager, autosched_pinning_thread** out) {
  if (manager == nullptr || out == nullptr)
    return bad_argument("autosched_pinning_register_thread: manager or out is NULL");
  *out = nullptr;
  return autosched::c_api::guarded("autosched_pinning_register_thread", [&] {
    *out = new autosched_pinning_thread{manager->manager.register_thread()};
    return AUTOSCHED_PINNING_OK;
  });
}

void autosched_pinning_heartbeat(autosched_pinning_thread* thread, uint64_t n) {
  if (thread != nullptr) thread->registration.heartbeat(n);
}

int autosched_pinning_unregister_thread(autosched_pinning_thread* thread) {
  return autosched::c_api::guarded("autosched_pinning_unregister_thread", [&] {
    delete thread;
    return AUTOSCHED_PINNING_OK;
  });
}

const char* autosched_pinning_last_error(void) { return autosched::c_api::last_error(); }

}  // extern "C"
