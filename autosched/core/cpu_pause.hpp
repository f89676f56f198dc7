#pragma once
/// @file
/// The processor's spin-wait hint, for loops that poll a word another thread
/// will change: it frees the core's resources for its sibling hyperthread and
/// saves power; elsewhere it does nothing.

namespace autosched {

inline void cpu_pause() noexcept {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

}  // namespace autosched
