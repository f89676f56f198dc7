/* The static loops of libomp-ABI binaries under the drop-in
 * (AUTOSCHED_OMP_LOOPS=static): __kmpc_for_static_init_{4,4u,8,8u} called
 * as compiled code calls them, for every bound type and for increments
 * +1, +3, -1 and -3, inside parallel regions that repeat (so that learned,
 * uneven blocks are handed out after the first instances), and a plain
 * no-clause loop as clang compiles it. Each instance checks that every
 * iteration ran exactly once and that lastiter was set on exactly one
 * thread, the one that ran the last iteration.
 *
 * Usage: static_abi [uneven]  — with "uneven", also fails unless the rising
 * cost loop's blocks became uneven (the drop-in learned them). Prints
 * "static_abi ok" and exits 0 when every check held. */
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  int32_t reserved_1, flags, reserved_2, reserved_3;
  const char* psource;
} ident_t;

void __kmpc_for_static_init_4(ident_t*, int32_t, int32_t, int32_t*, int32_t*, int32_t*, int32_t*, int32_t, int32_t);
void __kmpc_for_static_init_4u(ident_t*, int32_t, int32_t, int32_t*, uint32_t*, uint32_t*, int32_t*, int32_t,
                               int32_t);
void __kmpc_for_static_init_8(ident_t*, int32_t, int32_t, int32_t*, int64_t*, int64_t*, int64_t*, int64_t, int64_t);
void __kmpc_for_static_init_8u(ident_t*, int32_t, int32_t, int32_t*, uint64_t*, uint64_t*, int64_t*, int64_t,
                               int64_t);
void __kmpc_for_static_fini(ident_t*, int32_t);
int32_t __kmpc_global_thread_num(ident_t*);

/* KMP_IDENT_KMPC | KMP_IDENT_WORK_LOOP, as clang marks a loop. */
static ident_t loop_ident = {0, 0x2 | 0x200, 0, 0, ";static_abi.c;walk;1;1;;"};
enum { kmp_sch_static = 34, max_n = 1000, threads = 2 };

static int hits[max_n];
static int last_flags;
static int64_t last_owner_has_final;
static int first_block_end[threads]; /* the index after thread 0's block, per instance */
static int failures;

/* Work that the compiler cannot drop: its result is checked. */
static double spin(int64_t amount) {
  double s = 0;
  for (int64_t k = 0; k < amount; ++k) s += (double)k;
  return s;
}

/* One thread's block: walk it as compiled code does, mark each index. */
#define WALK(T, lo, hi, incr, first, last_flag)                                          \
  do {                                                                                   \
    int64_t seen = 0;                                                                    \
    if ((incr) > 0) {                                                                    \
      for (T i = (lo); i <= (hi); i = (T)(i + (incr))) {                                 \
        int64_t idx = (int64_t)(((uint64_t)i - (uint64_t)(first)) / (uint64_t)(incr));   \
        __atomic_fetch_add(&hits[idx], 1, __ATOMIC_RELAXED);                             \
        if (spin(idx * 8) < 0) abort();                                                  \
        if (idx == n - 1) seen = 1;                                                      \
        if (i > (T)((hi) - (incr))) break; /* the next step would wrap */                \
      }                                                                                  \
    } else {                                                                             \
      for (T i = (lo); i >= (hi); i = (T)(i + (incr))) {                                 \
        int64_t idx = (int64_t)(((uint64_t)(first) - (uint64_t)i) / (uint64_t)(-(incr))); \
        __atomic_fetch_add(&hits[idx], 1, __ATOMIC_RELAXED);                             \
        if (spin(idx * 8) < 0) abort();                                                  \
        if (idx == n - 1) seen = 1;                                                      \
        if (i < (T)((hi) - (incr))) break;                                               \
      }                                                                                  \
    }                                                                                    \
    if (last_flag) {                                                                     \
      __atomic_fetch_add(&last_flags, 1, __ATOMIC_RELAXED);                              \
      __atomic_fetch_add(&last_owner_has_final, seen, __ATOMIC_RELAXED);                 \
    }                                                                                    \
  } while (0)

/* A loop over n iterations from `first` by `incr` in type T, run by the
 * team of the enclosing region. */
#define LOOP(suffix, T, S, first_value, incr_value)                                           \
  do {                                                                                        \
    const T first = (T)(first_value);                                                         \
    const S incr = (S)(incr_value);                                                           \
    _Pragma("omp parallel num_threads(threads)") {                                            \
      int32_t gtid = __kmpc_global_thread_num(&loop_ident);                                   \
      int32_t last = 0;                                                                       \
      T lo = first, hi = (T)(first + (T)((n - 1) * incr));                                    \
      S stride = 0;                                                                           \
      if (n == 0) hi = (T)(first - incr);                                                     \
      __kmpc_for_static_init_##suffix(&loop_ident, gtid, kmp_sch_static, &last, &lo, &hi, &stride, incr, 1); \
      if (omp_get_thread_num() == 0) first_block_end[0] = n == 0 || lo > hi ? 0 : 1;          \
      if (n > 0) WALK(T, lo, hi, incr, first, last);                                          \
      if (omp_get_thread_num() == 0 && n > 0) {                                               \
        if ((incr > 0 && lo <= hi) || (incr < 0 && lo >= hi))                                 \
          first_block_end[0] = (int)((incr > 0 ? (uint64_t)hi - (uint64_t)first               \
                                               : (uint64_t)first - (uint64_t)hi) /            \
                                     (uint64_t)(incr > 0 ? incr : -incr)) + 1;                \
        else                                                                                  \
          first_block_end[0] = 0;                                                             \
      }                                                                                       \
      __kmpc_for_static_fini(&loop_ident, gtid);                                              \
    }                                                                                         \
  } while (0)

static int check(const char* what, int64_t n) {
  int ok = 1;
  for (int64_t i = 0; i < n; ++i) {
    if (hits[i] != 1) {
      fprintf(stderr, "%s n=%lld: iteration %lld ran %d times\n", what, (long long)n, (long long)i, hits[i]);
      ok = 0;
      break;
    }
  }
  if (n > 0 && (last_flags != 1 || last_owner_has_final != 1)) {
    fprintf(stderr, "%s n=%lld: lastiter on %d thread(s), %lld of them ran the last iteration\n", what, (long long)n,
            last_flags, (long long)last_owner_has_final);
    ok = 0;
  }
  if (n == 0 && last_flags != 0) {
    fprintf(stderr, "%s n=0: lastiter set\n", what);
    ok = 0;
  }
  memset(hits, 0, sizeof hits);
  last_flags = 0;
  last_owner_has_final = 0;
  if (!ok) ++failures;
  return ok;
}

int main(int argc, char** argv) {
  const int want_uneven = argc > 1 && strcmp(argv[1], "uneven") == 0;
  const int64_t sizes[] = {0, 1, 3, max_n};
  const int64_t steps[] = {1, 3, -1, -3};
  int uneven_seen = 0;
  for (int s = 0; s < 4; ++s) {
    for (int k = 0; k < 4; ++k) {
      const int64_t n = sizes[s], st = steps[k];
      /* Repeated regions: the same region code and trip count learn. */
      for (int rep = 0; rep < 12; ++rep) {
        char what[64];
        snprintf(what, sizeof what, "int32 step %lld", (long long)st);
        LOOP(4, int32_t, int32_t, st > 0 ? -500 : 4000, st);
        check(what, n);
        if (n == max_n && st == 1 && first_block_end[0] > max_n * 55 / 100) uneven_seen = 1;
        snprintf(what, sizeof what, "uint32 step %lld", (long long)st);
        LOOP(4u, uint32_t, int32_t, st > 0 ? 7u : 4000000000u, st);
        check(what, n);
        snprintf(what, sizeof what, "int64 step %lld", (long long)st);
        LOOP(8, int64_t, int64_t, st > 0 ? -((int64_t)1 << 40) : (int64_t)1 << 40, st);
        check(what, n);
        snprintf(what, sizeof what, "uint64 step %lld", (long long)st);
        LOOP(8u, uint64_t, int64_t, st > 0 ? (uint64_t)1 << 63 : UINT64_MAX - 5, st);
        check(what, n);
      }
    }
  }
  /* A no-clause loop as clang compiles it (static, normalised bounds). */
  for (int rep = 0; rep < 12; ++rep) {
#pragma omp parallel for num_threads(threads)
    for (int i = 0; i < max_n; ++i) {
      __atomic_fetch_add(&hits[i], 1, __ATOMIC_RELAXED);
      if (spin(i * 8) < 0) abort();
    }
    int ok = 1;
    for (int i = 0; i < max_n; ++i) ok &= hits[i] == 1;
    if (!ok) {
      fprintf(stderr, "no-clause loop: an iteration did not run exactly once\n");
      ++failures;
    }
    memset(hits, 0, sizeof hits);
  }
  if (want_uneven && !uneven_seen) {
    fprintf(stderr, "the rising-cost loop's blocks never became uneven: the drop-in did not learn them\n");
    ++failures;
  }
  if (failures > 0) return 1;
  printf("static_abi ok\n");
  return 0;
}
