#include <autosched/omp/dropin.h>

extern "C" __attribute__((visibility("default"))) int autosched_omp_get_counts(autosched_omp_counts* out) {
  if (out == nullptr) return -1;
  *out = {};
  return 0;
}
