#include <autosched/core/forked_child.hpp>

#include <pthread.h>
#include <unistd.h>

#include <atomic>

namespace autosched {

namespace {

std::atomic<bool> in_use{false};
std::atomic<bool> forked_child{false};

void after_fork_in_child() noexcept {
  if (in_use.load(std::memory_order_relaxed)) forked_child.store(true, std::memory_order_relaxed);
}

// Registered when the library is loaded, before any thread of the program can
// fork: a handler registered later (at the first loop) could miss a fork made
// by another thread in between.
[[maybe_unused]] const int registered = ::pthread_atfork(nullptr, nullptr, after_fork_in_child);

}  // namespace

void note_in_use() noexcept {
  if (!in_use.load(std::memory_order_relaxed)) [[unlikely]] in_use.store(true, std::memory_order_relaxed);
}

bool in_forked_child() noexcept { return forked_child.load(std::memory_order_relaxed); }

void say_forked_child_once() noexcept {
  static std::atomic<bool> said{false};
  if (said.exchange(true)) return;
  static const char message[] =
      "autosched: warning: a child process forked while the program ran loops: its loops run on a plain static "
      "split (under the OpenMP drop-in: the runtime's own schedule), and it records and reports nothing\n";
  [[maybe_unused]] const auto written = ::write(2, message, sizeof message - 1);
}

}  // namespace autosched
