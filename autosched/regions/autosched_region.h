/* autosched tunable regions, C interface: for code generators (the lowering
 * of an adaptation directive) and C or Fortran (ISO_C_BINDING) programs.
 * Handle based, with no hidden "current" state: each execution has its own
 * scope, kept in the caller's memory (no allocation per execution), so
 * threads and nested executions of one region do not interfere.
 *
 *   autosched_region* r;
 *   autosched_region_create("stencil", 1, 3, 12, "dtree,depth=2", &r);
 *   for (...) {
 *     autosched_region_scope s;
 *     int v;
 *     autosched_region_begin(r, &s);
 *     autosched_region_set_feature(&s, (double)n);
 *     autosched_region_get_variant(&s, &v);
 *     run_variant(v);
 *     autosched_region_end(&s);                 (or _end_with_metric)
 *   }
 *   autosched_region_destroy(r);
 *
 * Every function returns AUTOSCHED_REGION_OK or an error code;
 * autosched_region_last_error() gives this thread's last message. Features
 * are exact (named f0, f1, ...), variants are numbered 0 .. num_variants-1. */
#ifndef AUTOSCHED_REGION_H
#define AUTOSCHED_REGION_H

#include <autosched/core/autosched_status.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct autosched_region autosched_region;

/* One execution. Opaque; lives wherever the caller puts it (the stack).
 * Zero it before its first begin (= {0}): begin refuses a scope still live. */
typedef struct autosched_region_scope {
  unsigned long long live; /* set by begin, cleared by end */
  double storage[24];
} autosched_region_scope;

/* The statuses of autosched/core/autosched_status.h under this interface's
 * names: EINVAL a bad argument (the message names it); ESTATE a call out of
 * order (a scope that has ended or is still live, a feature after the
 * decision, a decision before all features); EFAILED anything else (out of
 * memory, I/O). */
enum {
  AUTOSCHED_REGION_OK = AUTOSCHED_OK,
  AUTOSCHED_REGION_EINVAL = AUTOSCHED_EINVAL,
  AUTOSCHED_REGION_ESTATE = AUTOSCHED_ESTATE,
  AUTOSCHED_REGION_EFAILED = AUTOSCHED_EFAILED
};

/* model: a model spec ("dtree,depth=2"), or NULL / "" for AUTOSCHED_REGION_MODEL. */
int autosched_region_create(const char* id, int num_features, int num_variants, int min_train, const char* model,
                            autosched_region** out);
int autosched_region_begin(autosched_region* region, autosched_region_scope* scope);
int autosched_region_set_feature(autosched_region_scope* scope, double value);
int autosched_region_get_variant(autosched_region_scope* scope, int* variant);
int autosched_region_end(autosched_region_scope* scope);
int autosched_region_end_with_metric(autosched_region_scope* scope, double metric);
int autosched_region_train(autosched_region* region);
/* Saves the region's knowledge to the store and frees it. NULL is accepted.
 * AUTOSCHED_REGION_ESTATE, and the region kept, while a scope begun on it has
 * not ended. */
int autosched_region_destroy(autosched_region* region);
/* This thread's last error message ("" when none). */
const char* autosched_region_last_error(void);

#ifdef __cplusplus
}
#endif

#endif /* AUTOSCHED_REGION_H */
