#include <autosched/omp/dropin.h>
#include <autosched/omp/dropin_loop.hpp>
#include <autosched/omp/report.hpp>

extern "C" __attribute__((visibility("default"))) int autosched_omp_get_counts(autosched_omp_counts* out) {
  if (out == nullptr) return -1;
  const autosched::omp::Counts c = autosched::omp::counts();
  out->loops = c.loops;
  out->instances = c.instances;
  out->chunks = c.chunks;
  out->forwarded = c.forwarded;
  return 0;
}

extern "C" __attribute__((visibility("default"))) int autosched_omp_last_instance(autosched_omp_instance* out) {
  if (out == nullptr) return -1;
  return autosched::omp::last_closed(*out) ? 0 : 1;
}

namespace {
/// A program whose loops were never taken has no session, so no exit hook:
/// its report (the forwarded entries) is written when the library unloads.
__attribute__((destructor)) void report_at_unload() { autosched::omp::write_report_once(); }
}  // namespace
