/* autosched/omp/dropin.h — what the OpenMP drop-in (libautosched-omp.so)
 * tells the program it runs in. A program is never linked to the drop-in:
 * it is preloaded (`autosched run -- ./app`), so a program or test that
 * wants these numbers looks the function up at run time:
 *
 *   typedef int (*get_counts_fn)(autosched_omp_counts*);
 *   get_counts_fn get = (get_counts_fn)dlsym(RTLD_DEFAULT, "autosched_omp_get_counts");
 *   autosched_omp_counts c;
 *   if (get && get(&c) == 0) printf("%llu instances scheduled\n", c.instances);
 *
 * C, so that C, C++ and Fortran (through bind(C)) programs can read it.
 */
#ifndef AUTOSCHED_OMP_DROPIN_H
#define AUTOSCHED_OMP_DROPIN_H

#ifdef __cplusplus
extern "C" {
#endif

typedef struct autosched_omp_counts {
  /* Distinct loops (call sites) the drop-in scheduled at least once. */
  unsigned long long loops;
  /* Loop instances the drop-in scheduled, counted once per instance (not per
   * thread) when its last thread leaves it. */
  unsigned long long instances;
  /* Chunks the drop-in handed out, all threads together. */
  unsigned long long chunks;
  /* Thread entries into dispatcher loops the drop-in passed to the real
   * runtime untouched (not a schedule it takes, or a team it cannot
   * identify); each is also counted by reason in the report. */
  unsigned long long forwarded;
} autosched_omp_counts;

/* Fills *out with the counts so far; returns 0, or -1 when out is NULL. */
int autosched_omp_get_counts(autosched_omp_counts* out);

/* The loop instance the drop-in closed last, process-wide (when its last
 * thread left it): what ran and what the selector did, as the native API's
 * autosched::last_instance() tells. A program whose loops run one after the
 * other reads it after each loop to record which schedule ran. */
typedef struct autosched_omp_instance {
  /* The arm that ran, "<technique>[:<chunk>|:expert]" (e.g. "gss:16",
   * "awf-c:expert", "profiling:512"), NUL-terminated. */
  char arm[64];
  /* The technique the schedule or the selector asked for (it differs from the
   * arm's when that could not run as asked: fsc without a profile runs mfsc). */
  char requested[32];
  /* The selector that chose ("auto", "qlearn", ...); empty for a fixed schedule. */
  char selector[32];
  /* 0-based index among its loop's instances. */
  unsigned long long instance;
  /* 1 when the selector was trying an arm rather than running its best. */
  int explored;
  /* 1 when a guarded trial overran its budget and the fallback finished it. */
  int cut_short;
  /* The selector's time charged to this instance, ns (0 for a fixed schedule). */
  double selection_ns;
} autosched_omp_instance;

/* Fills *out with the instance closed last; returns 0, 1 when no instance
 * has closed yet (*out is then zeroed), or -1 when out is NULL. */
int autosched_omp_last_instance(autosched_omp_instance* out);

#ifdef __cplusplus
}
#endif

#endif /* AUTOSCHED_OMP_DROPIN_H */
