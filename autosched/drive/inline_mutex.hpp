#pragma once
/// @file
/// The loop's lock: a mutex whose uncontended lock and unlock are one atomic
/// operation each, inlined. The driver takes a loop's lock once to open an
/// instance and once to close it, on every instance: through pthread that was
/// a call, a trylock and an unlock of some 75 instructions per pair (a tenth
/// of a pull instance's whole cost in the drop-in). Contended, it spins a
/// while before it sleeps: the threads of a team reach a loop together and
/// wait while one of them opens the instance, a few microseconds, and a
/// thread put to sleep needs a wake-up that costs tens of microseconds on a VM.

#include <atomic>

namespace autosched::drive {

class InlineMutex {
 public:
  void lock() noexcept {
    int expected = 0;
    if (!state_.compare_exchange_strong(expected, 1, std::memory_order_acquire, std::memory_order_relaxed))
        [[unlikely]] {
      lock_contended();
    }
  }
  /// Reads before it tries: a waiter that polls does not take the line from the holder.
  [[nodiscard]] bool try_lock() noexcept {
    int expected = 0;
    return state_.load(std::memory_order_relaxed) == 0 &&
           state_.compare_exchange_strong(expected, 1, std::memory_order_acquire, std::memory_order_relaxed);
  }
  void unlock() noexcept {
    if (state_.exchange(0, std::memory_order_release) == 2) [[unlikely]] wake();
  }

 private:
  void lock_contended() noexcept;
  void wake() noexcept;
  /// 0 free, 1 held, 2 held and a thread may sleep on it (Drepper's futex mutex).
  std::atomic<int> state_{0};
};

}  // namespace autosched::drive
