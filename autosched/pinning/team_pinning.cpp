// AUTOSCHED_PINNING for every team the loop driver runs (team_pinning.hpp):
// an observer of the driver, so parallel_for's teams and the OpenMP drop-in's
// alike are pinned without either knowing of it.
//
// Speed signal. The pinning manager judges a thread by its heartbeat rate
// once it sends heartbeats, else by its CPU share. A team thread registers
// when it begins its first share (drive::Observer::on_worker_begin) and beats
// once per loop instance, with the number of iterations it ran in that
// instance, when its share is done (on_worker_end): the driver counts a
// worker's iterations anyway (ThreadStats::iterations), so this costs one
// relaxed atomic add per thread per instance and nothing per chunk (the
// dispatch path stays at about one atomic per chunk). Beating per chunk would be finer grained but would add
// work to every chunk; busy time is only measured when chunks are timed, so
// it is not available to every schedule. Iterations per second measure what
// the manager wants under the self-scheduling techniques (a thread on a
// crowded core takes fewer chunks). Under a static schedule every thread
// runs the same share of each instance, so all team threads beat at the
// team's pace and the signal cannot tell them apart.
#include <autosched/pinning/team_pinning.hpp>

#include <autosched/core/environment.hpp>
#include <autosched/core/error.hpp>
#include <autosched/drive/observer.hpp>
#include <autosched/pinning/options.hpp>

#include <pthread.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <exception>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <string>
#include <utility>

namespace autosched {

namespace {

/// What the first parallel loop made of AUTOSCHED_PINNING; created once,
/// never destroyed (loops may run during static destruction).
struct TeamPinning {
  std::string summary;                  ///< for loop_pinning_status()
  pinning::Manager* manager = nullptr;  ///< running; leaked, stopped at exit
  pid_t owner = 0;                      ///< the process that started it
};

std::atomic<const TeamPinning*> published{nullptr};
std::atomic<int> registered_threads{0};
/// Set in a child forked after the manager started: the child has no manager
/// thread, and another thread of the parent may have held the registry's lock
/// at the fork, so the child's loops leave the manager alone.
std::atomic<bool> forked_child{false};

/// This thread's registration with the teams' manager; its destructor, at
/// thread exit, unregisters (a registration may outlive its manager).
thread_local pinning::ThreadRegistration registration;
thread_local bool registration_tried = false;

/// pthread_atfork child handler: the forking thread (the child's only one)
/// gives up its registration without touching the registry, whose lock may
/// be held by a thread that does not exist in the child: the handle is moved
/// into storage that is never destroyed.
void forget_in_child() noexcept {
  forked_child.store(true, std::memory_order_relaxed);
  alignas(pinning::ThreadRegistration) static unsigned char abandoned[sizeof(pinning::ThreadRegistration)];
  ::new (static_cast<void*>(abandoned)) pinning::ThreadRegistration(std::move(registration));
}

/// Registers this thread with `manager` the first time it begins a share
/// (once per thread: OpenMP reuses its threads).
void register_once(pinning::Manager& manager) noexcept {
  if (registration_tried) return;
  registration_tried = true;
  try {
    registration = manager.register_thread();
    registered_threads.fetch_add(1, std::memory_order_relaxed);
  } catch (...) {
    // Out of memory: this thread stays unmanaged; its loops are not affected.
  }
}

/// The driver's hooks: registration at a worker's begin, its iterations as
/// heartbeats at its end. A child forked after the start leaves the manager
/// alone (the registry's lock may be held by a thread it does not have).
class TeamObserver final : public drive::Observer {
 public:
  explicit TeamObserver(pinning::Manager& manager) : manager_(manager) {}
  void on_worker_begin(const drive::WorkerBegin& /*worker*/) noexcept override {
    if (!forked_child.load(std::memory_order_relaxed)) register_once(manager_);
  }
  void on_worker_end(const drive::WorkerEnd& worker) noexcept override {
    if (forked_child.load(std::memory_order_relaxed)) return;
    register_once(manager_);  // a thread whose begin came before the manager started
    if (worker.iterations > 0) registration.heartbeat(static_cast<std::uint64_t>(worker.iterations));
  }

 private:
  pinning::Manager& manager_;
};

std::string setting_text(const std::optional<std::string>& value) {
  return value ? "AUTOSCHED_PINNING=" + *value : std::string("AUTOSCHED_PINNING unset");
}

void stop_at_exit() noexcept {
  const TeamPinning* t = published.load(std::memory_order_acquire);
  // A forked child inherits this handler but not the manager thread: it must
  // not try to join a thread that does not exist in it.
  if (t == nullptr || t->manager == nullptr || t->owner != ::getpid()) return;
  try {
    t->manager->stop();
  } catch (...) {
    // Exit goes on; the thread is gone with the process anyway.
  }
}

/// Reads the variable and starts the manager; never throws past the
/// allocation of the result.
std::unique_ptr<TeamPinning> start() {
  auto t = std::make_unique<TeamPinning>();
  std::optional<std::string> value;
  try {
    value = environment::get("AUTOSCHED_PINNING");
    std::optional<pinning::ManagerOptions> options = pinning::options_from_environment();
    // Nobody reads this manager's trace but tests and `status()`: keep a few
    // periods' worth, not a long run's (64 threads at 0.1 s would fill the
    // default limit in under half an hour).
    if (options) options->trace_limit = std::min<std::size_t>(options->trace_limit, 4096);
    if (!options) {
      t->summary = setting_text(value) + ": the loop teams are not pinned";
      return t;
    }
    if (options->policy == pinning::Policy::off) {
      t->summary = setting_text(value) + ": off, the loop teams are not pinned";
      return t;
    }
    auto manager = std::make_unique<pinning::Manager>(*options);  // warns itself about an OpenMP binding
    if (manager->policy() == pinning::Policy::off) {
      t->summary = setting_text(value) + ": not started for the loop teams; " + manager->status();
      return t;
    }
    manager->start();
    t->summary = setting_text(value) + ": " + manager->status();
    t->manager = manager.release();
    // Leaked like the manager: loops may run during static destruction.
    drive::attach(*new TeamObserver(*t->manager));
    t->owner = ::getpid();
    // Registered after start(): handlers run in reverse order, so this one
    // runs before the destructors of statics the start created.
    if (std::atexit(stop_at_exit) != 0) {
      detail::warn("AUTOSCHED_PINNING: could not register the pinning manager's stop at exit");
    }
    if (::pthread_atfork(nullptr, nullptr, forget_in_child) != 0) {
      detail::warn("AUTOSCHED_PINNING: could not register the pinning manager's fork handler");
    }
  } catch (const std::exception& e) {
    t->summary =
        setting_text(value) + " could not be applied (" + e.what() + "); the loop teams are not pinned";
    std::string message = e.what();
    if (message.find("AUTOSCHED_PINNING") == std::string::npos) message = setting_text(value) + ": " + message;
    detail::warn(message + "; the loop teams run unpinned");
  }
  return t;
}

}  // namespace

pinning::Manager* loop_pinning_manager() noexcept {
  if (forked_child.load(std::memory_order_relaxed)) return nullptr;
  const TeamPinning* t = published.load(std::memory_order_acquire);
  return t != nullptr ? t->manager : nullptr;
}

std::string loop_pinning_status() {
  const TeamPinning* t = published.load(std::memory_order_acquire);
  if (t == nullptr) {
    const auto value = environment::get("AUTOSCHED_PINNING");
    std::string what;
    try {
      const auto options = pinning::options_from_environment();
      if (!options || options->policy == pinning::Policy::off) {
        what = "the loop teams will not be pinned";
      } else {
        what = std::string(pinning::to_string(options->policy)) +
               " for the loop teams, started at the first parallel loop";
      }
    } catch (const std::exception& e) {
      what = std::string("invalid (") + e.what() + "); the loop teams will run unpinned";
    }
    return setting_text(value) + ": " + what;
  }
  std::string line = t->summary;
  if (t->manager != nullptr) {
    line += "; " + std::to_string(registered_threads.load(std::memory_order_relaxed)) + " team threads registered, " +
            std::to_string(t->manager->periods()) + " periods";
  }
  return line;
}

namespace detail {

pinning::Manager* start_team_pinning() noexcept {
  if (forked_child.load(std::memory_order_relaxed)) return nullptr;
  if (const TeamPinning* t = published.load(std::memory_order_acquire)) return t->manager;
  static std::mutex* once = new std::mutex;  // never destroyed, like the state it guards
  try {
    std::lock_guard lock(*once);
    if (const TeamPinning* t = published.load(std::memory_order_relaxed)) return t->manager;
    const TeamPinning* t = start().release();
    published.store(t, std::memory_order_release);
    return t->manager;
  } catch (...) {
    return nullptr;  // out of memory: this loop runs unpinned, the next one tries again
  }
}

}  // namespace detail
}  // namespace autosched
