#include <autosched/drive/observer.hpp>

#include <autosched/core/error.hpp>

#include <array>
#include <atomic>
#include <mutex>

namespace autosched::drive {

namespace {

constexpr std::size_t max_observers = 8;

// A fixed table: hooks read it without a lock. Slots are published with
// release and read with acquire, so an observer is fully built before a
// hook of it runs.
std::array<std::atomic<Observer*>, max_observers> table{};
std::atomic<std::size_t> attached{0};
std::mutex edit;

}  // namespace

void attach(Observer& observer) {
  std::lock_guard lock(edit);
  for (auto& slot : table) {
    if (slot.load(std::memory_order_relaxed) == &observer) return;
  }
  for (auto& slot : table) {
    if (slot.load(std::memory_order_relaxed) == nullptr) {
      slot.store(&observer, std::memory_order_release);
      attached.fetch_add(1, std::memory_order_release);
      return;
    }
  }
  autosched::detail::throw_error("drive::attach: more than " + std::to_string(max_observers) + " observers");
}

void detach(Observer& observer) noexcept {
  std::lock_guard lock(edit);
  for (auto& slot : table) {
    if (slot.load(std::memory_order_relaxed) == &observer) {
      slot.store(nullptr, std::memory_order_release);
      attached.fetch_sub(1, std::memory_order_release);
    }
  }
}

namespace detail {

bool observed() noexcept { return attached.load(std::memory_order_relaxed) != 0; }

void notify_worker_begin(const WorkerBegin& worker) noexcept {
  for (auto& slot : table) {
    if (Observer* o = slot.load(std::memory_order_acquire)) o->on_worker_begin(worker);
  }
}

void notify_instance_closed(const ClosedInstance& instance) noexcept {
  for (auto& slot : table) {
    if (Observer* o = slot.load(std::memory_order_acquire)) o->on_instance_closed(instance);
  }
}

}  // namespace detail

}  // namespace autosched::drive
