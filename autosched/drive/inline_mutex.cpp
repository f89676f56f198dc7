#include <autosched/drive/inline_mutex.hpp>

namespace autosched::drive {

namespace {

/// Tries this many times, with a pause between tries, before sleeping: about
/// 20-40 µs, longer than a team's other threads wait while one opens an
/// instance (a decision and a dispenser's set-up, a few µs).
constexpr int spin_tries = 512;

void pause() noexcept {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

}  // namespace

void InlineMutex::lock_contended() noexcept {
  for (int i = 0; i < spin_tries; ++i) {
    pause();
    if (try_lock()) return;
  }
  // Marks the lock contended (2) so that the holder's unlock wakes a sleeper;
  // whoever takes it this way keeps it marked, which at worst costs one
  // needless wake-up.
  while (state_.exchange(2, std::memory_order_acquire) != 0) state_.wait(2, std::memory_order_relaxed);
}

void InlineMutex::wake() noexcept { state_.notify_one(); }

}  // namespace autosched::drive
