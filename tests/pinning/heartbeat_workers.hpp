#pragma once
// Worker threads for the pinning manager's tests: each registers with the
// manager, spins, and beats once per slice of work until stop(). The
// constructor returns once every worker is registered, so the manager's
// first period already sees them all.
#include <autosched/pinning/manager.hpp>

#include <atomic>
#include <thread>
#include <vector>

namespace autosched::pinning::testing {

class HeartbeatWorkers {
 public:
  HeartbeatWorkers(Manager& manager, int count) {
    std::atomic<int> registered{0};
    for (int w = 0; w < count; ++w) {
      threads_.emplace_back([this, &manager, &registered] {
        auto me = manager.register_thread();
        registered.fetch_add(1);
        volatile double x = 1;
        while (!stop_.load(std::memory_order_relaxed)) {
          for (int i = 0; i < 20000; ++i) x = x * 1.0000001 + 1e-9;
          me.heartbeat();
        }
      });
    }
    while (registered.load() < count) std::this_thread::yield();
  }
  ~HeartbeatWorkers() { stop(); }
  HeartbeatWorkers(const HeartbeatWorkers&) = delete;
  HeartbeatWorkers& operator=(const HeartbeatWorkers&) = delete;

  /// Ends the workers (their registrations end with them) and joins them.
  void stop() {
    stop_ = true;
    for (auto& t : threads_)
      if (t.joinable()) t.join();
  }

 private:
  std::atomic<bool> stop_{false};
  std::vector<std::thread> threads_;
};

}  // namespace autosched::pinning::testing
