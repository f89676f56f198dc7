#include <autosched/drive/inline_mutex.hpp>

#include <autosched/core/cpu_pause.hpp>

namespace autosched::drive {

namespace {

/// Tries this many times, with a pause between tries, before sleeping: about
/// 20-40 µs, longer than a team's other threads wait while one opens an
/// instance (a decision and a dispenser's set-up, a few µs).
constexpr int spin_tries = 512;

}  // namespace

void InlineMutex::lock_contended() noexcept {
  for (int i = 0; i < spin_tries; ++i) {
    cpu_pause();
    if (try_lock()) return;
  }
  // Marks the lock contended (2) so that the holder's unlock wakes a sleeper;
  // whoever takes it this way keeps it marked, which at worst costs one
  // needless wake-up.
  while (state_.exchange(2, std::memory_order_acquire) != 0) state_.wait(2, std::memory_order_relaxed);
}

void InlineMutex::wake() noexcept { state_.notify_one(); }

}  // namespace autosched::drive
