#include <autosched/drive/observer.hpp>

#include <autosched/core/error.hpp>

#include <array>
#include <atomic>
#include <mutex>

namespace autosched::drive {

namespace {

constexpr std::size_t max_observers = 8;
enum Hook : std::size_t { worker_begin, worker_end, instance_closed, hook_count };

/// A fixed table: hooks read it without a lock. Slots are published with
/// release and read with acquire, so an observer is fully built before a
/// hook of it runs. `wants[h]` says whether the slot's observer may
/// override hook h; `listeners[h]` counts such slots, so that a hook nobody
/// overrides is one relaxed load.
struct Slot {
  std::atomic<Observer*> observer{nullptr};
  std::atomic<bool> wants[hook_count] = {};
};
std::array<Slot, max_observers> table;
std::atomic<int> listeners[hook_count] = {};
/// Slots ever filled: the hooks look no further (most processes use two).
std::atomic<std::size_t> used{0};
std::mutex edit;

/// The base's empty hook `h` ran for `o`: call it no more for that hook.
void stop_calling(const Observer* o, Hook h) noexcept {
  for (Slot& slot : table) {
    if (slot.observer.load(std::memory_order_acquire) != o) continue;
    bool wanted = true;
    if (slot.wants[h].compare_exchange_strong(wanted, false, std::memory_order_relaxed)) {
      listeners[h].fetch_sub(1, std::memory_order_relaxed);
    }
  }
}

template <Hook H, class Event, class Call>
void notify(const Event& event, Call call) noexcept {
  const std::size_t n = used.load(std::memory_order_acquire);
  for (std::size_t i = 0; i < n; ++i) {
    Slot& slot = table[i];
    if (!slot.wants[H].load(std::memory_order_relaxed)) continue;
    if (Observer* o = slot.observer.load(std::memory_order_acquire)) call(*o, event);
  }
}

}  // namespace

void Observer::on_worker_begin(const WorkerBegin& /*worker*/) noexcept { stop_calling(this, worker_begin); }
void Observer::on_worker_end(const WorkerEnd& /*worker*/) noexcept { stop_calling(this, worker_end); }
void Observer::on_instance_closed(const ClosedInstance& /*instance*/) noexcept { stop_calling(this, instance_closed); }

void attach(Observer& observer) {
  std::lock_guard lock(edit);
  for (auto& slot : table) {
    if (slot.observer.load(std::memory_order_relaxed) == &observer) return;
  }
  for (std::size_t i = 0; i < max_observers; ++i) {
    Slot& slot = table[i];
    if (slot.observer.load(std::memory_order_relaxed) == nullptr) {
      for (std::size_t h = 0; h < hook_count; ++h) {
        slot.wants[h].store(true, std::memory_order_relaxed);
        listeners[h].fetch_add(1, std::memory_order_relaxed);
      }
      slot.observer.store(&observer, std::memory_order_release);
      if (used.load(std::memory_order_relaxed) <= i) used.store(i + 1, std::memory_order_release);
      return;
    }
  }
  autosched::detail::throw_error("drive::attach: more than " + std::to_string(max_observers) + " observers");
}

void detach(Observer& observer) noexcept {
  std::lock_guard lock(edit);
  for (auto& slot : table) {
    if (slot.observer.load(std::memory_order_relaxed) != &observer) continue;
    slot.observer.store(nullptr, std::memory_order_release);
    for (std::size_t h = 0; h < hook_count; ++h) {
      bool wanted = true;
      if (slot.wants[h].compare_exchange_strong(wanted, false, std::memory_order_relaxed)) {
        listeners[h].fetch_sub(1, std::memory_order_relaxed);
      }
    }
  }
}

namespace detail {

bool worker_begin_observed() noexcept { return listeners[worker_begin].load(std::memory_order_relaxed) > 0; }
bool worker_end_observed() noexcept { return listeners[worker_end].load(std::memory_order_relaxed) > 0; }
bool observed() noexcept { return listeners[instance_closed].load(std::memory_order_relaxed) > 0; }

void notify_worker_begin(const WorkerBegin& worker) noexcept {
  notify<worker_begin>(worker, [](Observer& o, const WorkerBegin& w) { o.on_worker_begin(w); });
}

void notify_worker_end(const WorkerEnd& worker) noexcept {
  notify<worker_end>(worker, [](Observer& o, const WorkerEnd& w) { o.on_worker_end(w); });
}

void notify_instance_closed(const ClosedInstance& instance) noexcept {
  notify<instance_closed>(instance, [](Observer& o, const ClosedInstance& c) { o.on_instance_closed(c); });
}

}  // namespace detail

}  // namespace autosched::drive
