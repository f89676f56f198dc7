/* tests/omp/fortran_probe.c — dropin_probe.h for shapes.f90, through bind(C). */
#include "dropin_probe.h"

int probe_expect_taken(void) { return dropin_expect_taken(); }
int probe_takes_all_loops(void) { return dropin_takes_all_loops(); }
void probe_counts(long long* instances, long long* forwarded) {
  const autosched_omp_counts c = dropin_counts();
  *instances = (long long)c.instances;
  *forwarded = (long long)c.forwarded;
}
