#include <autosched/omp/real_runtime.hpp>

#include <dlfcn.h>

namespace autosched::omp {

void* next_symbol(const char* name) noexcept { return dlsym(RTLD_NEXT, name); }
void* program_symbol(const char* name) noexcept { return dlsym(RTLD_DEFAULT, name); }

namespace {
using IntQuery = int();
IntQuery* query(const char* name) noexcept { return reinterpret_cast<IntQuery*>(program_symbol(name)); }
}  // namespace

int thread_num() noexcept {
  static IntQuery* const f = query("omp_get_thread_num");
  return f != nullptr ? f() : 0;
}

int team_size() noexcept {
  static IntQuery* const f = query("omp_get_num_threads");
  return f != nullptr ? f() : 1;
}

bool cancellation_enabled() noexcept {
  static IntQuery* const f = query("omp_get_cancellation");
  return f != nullptr && f() != 0;
}

}  // namespace autosched::omp
