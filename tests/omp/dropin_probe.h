/* tests/omp/dropin_probe.h — how a test program sees the OpenMP drop-in.
 *
 * The programs are plain OpenMP programs, never linked to the drop-in: they
 * find autosched_omp_get_counts with dlsym(RTLD_DEFAULT) when the drop-in is
 * preloaded. Counts are only asserted when the driver also says the drop-in
 * is meant to take loops (DROPIN_EXPECT_TAKEN=1), so that the same binaries
 * run natively, and under a drop-in that does not take loops yet, with
 * coverage checks only. Header-only C, for the C++ programs and the Fortran
 * program's C helper.
 */
#ifndef AUTOSCHED_TESTS_OMP_DROPIN_PROBE_H
#define AUTOSCHED_TESTS_OMP_DROPIN_PROBE_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* RTLD_DEFAULT */
#endif
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <autosched/omp/dropin.h>

typedef int (*dropin_get_counts_fn)(autosched_omp_counts*);

static inline dropin_get_counts_fn dropin_lookup(void) {
  return (dropin_get_counts_fn)dlsym(RTLD_DEFAULT, "autosched_omp_get_counts");
}

/* 1 when counts must be asserted, 0 when only coverage is checked. Exits when
 * the driver preloaded the drop-in (DROPIN_EXPECT_TAKEN=1) but the function
 * is missing: the preload silently failed, and every count check would pass
 * vacuously. */
static inline int dropin_expect_taken(void) {
  const char* e = getenv("DROPIN_EXPECT_TAKEN");
  const int expect = e != NULL && strcmp(e, "1") == 0;
  if (expect && dropin_lookup() == NULL) {
    fprintf(stderr, "DROPIN_EXPECT_TAKEN=1 but autosched_omp_get_counts is not in the process "
                    "(is libautosched-omp.so in LD_PRELOAD?)\n");
    exit(2);
  }
  return expect;
}

/* The counts now; all zero when the drop-in is absent. */
static inline autosched_omp_counts dropin_counts(void) {
  autosched_omp_counts c;
  memset(&c, 0, sizeof c);
  dropin_get_counts_fn get = dropin_lookup();
  if (get != NULL && get(&c) != 0) {
    fprintf(stderr, "autosched_omp_get_counts returned an error\n");
    exit(2);
  }
  return c;
}

typedef int (*dropin_last_instance_fn)(autosched_omp_instance*);

/* Checks autosched_omp_last_instance once the drop-in has scheduled loops:
 * it names the arm that ran, and a selector exactly when AUTOSCHED_SCHEDULE
 * asks for one (auto, auto:<selector>). Returns 1 when it holds, 0 (with a
 * message) when not. */
static inline int dropin_last_instance_ok(void) {
  dropin_last_instance_fn get = (dropin_last_instance_fn)dlsym(RTLD_DEFAULT, "autosched_omp_last_instance");
  if (get == NULL) {
    fprintf(stderr, "autosched_omp_last_instance is not in the process\n");
    return 0;
  }
  autosched_omp_instance last;
  const int rc = get(&last);
  const char* schedule = getenv("AUTOSCHED_SCHEDULE");
  const int selected = schedule != NULL && strncmp(schedule, "auto", 4) == 0 &&
                       (schedule[4] == '\0' || schedule[4] == ':' || schedule[4] == ',');
  if (rc != 0 || last.arm[0] == '\0' || last.requested[0] == '\0' || (last.selector[0] != '\0') != selected) {
    fprintf(stderr, "autosched_omp_last_instance: rc %d, arm '%s', requested '%s', selector '%s' under %s\n", rc,
            last.arm, last.requested, last.selector, schedule != NULL ? schedule : "(no AUTOSCHED_SCHEDULE)");
    return 0;
  }
  return 1;
}

/* 1 when AUTOSCHED_OMP_LOOPS=all: schedule(dynamic) and schedule(guided)
 * loops are then taken as well. */
static inline int dropin_takes_all_loops(void) {
  const char* e = getenv("AUTOSCHED_OMP_LOOPS");
  return e != NULL && strcmp(e, "all") == 0;
}

/* A nested team's join, stated to ThreadSanitizer. Archer (LLVM 14) misses
 * the ordering a nested region's end gives its primary thread: under load,
 * about one run in 300-500 reports a race between an inner team's read and
 * the primary thread's next write of the same variable, natively as much as
 * under the drop-in. Each inner thread calls nested_team_done(tag) as its
 * last action in the inner region, the primary thread nested_team_joined(tag)
 * right after it; elsewhere both are empty. */
#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define DROPIN_PROBE_TSAN 1
#endif
#endif
#if defined(__SANITIZE_THREAD__) && !defined(DROPIN_PROBE_TSAN)
#define DROPIN_PROBE_TSAN 1
#endif
#ifdef DROPIN_PROBE_TSAN
#ifdef __cplusplus
extern "C" {
#endif
void __tsan_acquire(void* addr);
void __tsan_release(void* addr);
#ifdef __cplusplus
}
#endif
static inline void nested_team_done(void* tag) { __tsan_release(tag); }
static inline void nested_team_joined(void* tag) { __tsan_acquire(tag); }
#else
static inline void nested_team_done(void* tag) { (void)tag; }
static inline void nested_team_joined(void* tag) { (void)tag; }
#endif

#endif /* AUTOSCHED_TESTS_OMP_DROPIN_PROBE_H */
