#pragma once
/// @file
/// The program's own OpenMP runtime, reached past the drop-in. The drop-in is
/// preloaded, so the runtime's definition of every entry point it wraps comes
/// after it in the lookup order: dlsym(RTLD_NEXT) finds it. The drop-in links
/// no OpenMP runtime, so it works with whichever one the program brought.
///
///   static auto* const barrier = real<void()>("GOMP_barrier");   // once per call site
///   barrier();

#include <cstdio>
#include <cstdlib>

namespace autosched::omp {

/// The next definition of `name` after this library, or nullptr.
void* next_symbol(const char* name) noexcept;
/// The definition of `name` the program sees (the runtime's omp_* API), or nullptr.
void* program_symbol(const char* name) noexcept;

/// The runtime's `name` as a function of type F. A runtime without it is a
/// program the drop-in cannot serve: it says so and stops, rather than
/// calling through a null pointer.
template <class F>
F* real(const char* name) noexcept {
  void* f = next_symbol(name);
  if (f == nullptr) {
    std::fprintf(stderr,
                 "autosched-omp: error: the program's OpenMP runtime has no %s, which the drop-in must call; "
                 "run the program without the drop-in\n",
                 name);
    std::abort();
  }
  return reinterpret_cast<F*>(f);
}

/// The calling thread's number and its team's size (1 and 0 outside a region).
int thread_num() noexcept;
int team_size() noexcept;
/// Whether cancellation is enabled (OMP_CANCELLATION).
bool cancellation_enabled() noexcept;

}  // namespace autosched::omp
