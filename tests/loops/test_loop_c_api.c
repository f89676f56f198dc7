/* The loop C interface, compiled as C: the header must be valid C, and loops
 * must run, report and fail cleanly without any C++ on the caller's side. */
#include <autosched/loops/autosched.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(cond)                                                                                             \
  do {                                                                                                          \
    if (!(cond)) {                                                                                              \
      snprintf(message, (size_t)size, "line %d: %s (last error: %s)", __LINE__, #cond, autosched_last_error()); \
      return 1;                                                                                                 \
    }                                                                                                           \
  } while (0)

/* Counts the visits of every index; indices are offset by `begin` so that
 * loops not starting at 0 are checked too. Chunks of one loop never overlap,
 * so each slot is written by one thread only. */
typedef struct hits {
  int64_t begin;
  int64_t n;
  unsigned char* count;
  int outside; /* a chunk reached outside [begin, begin + n) or was empty */
} hits;

static void count_chunk(int64_t first, int64_t last, void* arg) {
  hits* h = (hits*)arg;
  int64_t i;
  if (first >= last || first < h->begin || last > h->begin + h->n) {
    h->outside = 1; /* racy but only ever set to 1, and checked after the join */
    return;
  }
  for (i = first; i < last; ++i) ++h->count[i - h->begin];
}

static void do_nothing(int64_t first, int64_t last, void* arg) {
  (void)first;
  (void)last;
  (void)arg;
}

static void count_calls(int64_t first, int64_t last, void* arg) {
  (void)first;
  (void)last;
  ++*(int*)arg;
}

/* Runs `schedule` over [begin, begin + n) on `threads` and checks that every
 * index was visited exactly once. */
static int covers_once(const char* schedule, int64_t begin, int64_t n, int threads, char* message, int size) {
  autosched_loop_options o;
  hits h;
  int64_t i;
  autosched_loop_options_init(&o);
  o.name = "c-coverage";
  o.schedule = schedule;
  o.threads = threads;
  h.begin = begin;
  h.n = n;
  h.count = (unsigned char*)calloc((size_t)(n > 0 ? n : 1), 1);
  h.outside = 0;
  CHECK(h.count != NULL);
  if (autosched_parallel_for(begin, begin + n, count_chunk, &h, &o) != AUTOSCHED_OK) {
    snprintf(message, (size_t)size, "%s, N=%lld: %s", schedule, (long long)n, autosched_last_error());
    free(h.count);
    return 1;
  }
  for (i = 0; i < n; ++i) {
    if (h.count[i] != 1) {
      snprintf(message, (size_t)size, "%s, N=%lld, P=%d: index %lld visited %d times", schedule, (long long)n, threads,
               (long long)(begin + i), (int)h.count[i]);
      free(h.count);
      return 1;
    }
  }
  free(h.count);
  CHECK(!h.outside);
  return 0;
}

int loop_c_api_coverage(char* message, int size) {
  static const char* const schedules[] = {"static", "ss", "gss", "tss,chunk=expert", "fac2", "awf-b", "af", "auto"};
  static const int64_t sizes[] = {0, 1, 7919, 1000003};
  static const int teams[] = {1, 3};
  size_t s, k, t;
  for (s = 0; s < sizeof schedules / sizeof schedules[0]; ++s) {
    for (k = 0; k < sizeof sizes / sizeof sizes[0]; ++k) {
      for (t = 0; t < sizeof teams / sizeof teams[0]; ++t) {
        if (covers_once(schedules[s], -5, sizes[k], teams[t], message, size) != 0) return 1;
      }
    }
  }
  return 0;
}

int loop_c_api_records(char* message, int size) {
  autosched_loop_options o;
  autosched_loop_instance r;
  int i;
  hits h;
  autosched_loop_options_init(&o);
  CHECK(o.name == NULL && o.schedule == NULL && o.threads == 0 && o.team == AUTOSCHED_TEAM_AUTOMATIC);
  CHECK(o.nowait == 0 && o.time_chunks == 0);
  o.name = "c-records";
  o.schedule = "gss,chunk=4";
  o.threads = 2;
  o.time_chunks = 1;
  CHECK(autosched_last_instance("c-records", &r) == AUTOSCHED_ENOTFOUND);
  CHECK(strstr(autosched_last_error(), "c-records") != NULL);
  h.begin = 0;
  h.n = 5000;
  h.count = (unsigned char*)calloc(5000, 1);
  h.outside = 0;
  CHECK(h.count != NULL);
  for (i = 0; i < 3; ++i) {
    memset(h.count, 0, 5000);
    CHECK(autosched_parallel_for(0, 5000, count_chunk, &h, &o) == AUTOSCHED_OK);
  }
  free(h.count);
  CHECK(!h.outside);
  CHECK(autosched_last_instance("c-records", &r) == AUTOSCHED_OK);
  CHECK(r.instance == 2);
  CHECK(strcmp(r.technique, "gss") == 0);
  CHECK(r.selector[0] == '\0');
  CHECK(r.chunk == 4);
  CHECK(r.n == 5000);
  CHECK(r.p == 2);
  CHECK(r.failed == 0);
  CHECK(r.loop_time_ns > 0);
  CHECK(r.lib >= 0 && r.lib <= 100);
  CHECK(r.percent_imbalance >= 0);

  /* A selected schedule names its selector. */
  o.name = "c-records-auto";
  o.schedule = "auto";
  CHECK(autosched_parallel_for(0, 100, do_nothing, NULL, &o) == AUTOSCHED_OK);
  CHECK(autosched_last_instance("c-records-auto", &r) == AUTOSCHED_OK);
  CHECK(r.selector[0] != '\0');
  CHECK(r.technique[0] != '\0');
  CHECK(autosched_flush_records() == AUTOSCHED_OK);
  return 0;
}

int loop_c_api_errors(char* message, int size) {
  autosched_loop_options o;
  autosched_loop_instance r;
  int calls = 0;
  autosched_loop_options_init(&o);
  o.name = "c-errors";

  o.schedule = "gsss";
  CHECK(autosched_parallel_for(0, 10, do_nothing, NULL, &o) == AUTOSCHED_EINVAL);
  CHECK(strstr(autosched_last_error(), "gsss") != NULL);
  CHECK(strstr(autosched_last_error(), "c-errors") != NULL);
  o.schedule = "gss,chunk=-3";
  CHECK(autosched_parallel_for(0, 10, do_nothing, NULL, &o) == AUTOSCHED_EINVAL);
  CHECK(strstr(autosched_last_error(), "chunk") != NULL);
  o.schedule = NULL;

  o.threads = -1;
  CHECK(autosched_parallel_for(0, 10, do_nothing, NULL, &o) == AUTOSCHED_EINVAL);
  CHECK(strstr(autosched_last_error(), "threads=-1") != NULL);
  o.threads = 1 << 20;
  CHECK(autosched_parallel_for(0, 10, do_nothing, NULL, &o) == AUTOSCHED_EINVAL);
  CHECK(strstr(autosched_last_error(), "threads") != NULL);
  o.threads = 0;

  o.team = 7;
  CHECK(autosched_parallel_for(0, 10, do_nothing, NULL, &o) == AUTOSCHED_EINVAL);
  CHECK(strstr(autosched_last_error(), "team=7") != NULL);
  o.team = AUTOSCHED_TEAM_AUTOMATIC;

  CHECK(autosched_parallel_for(0, 10, NULL, NULL, &o) == AUTOSCHED_EINVAL);
  CHECK(strstr(autosched_last_error(), "body") != NULL);
  CHECK(autosched_parallel_for(0, 10, do_nothing, NULL, NULL) == AUTOSCHED_EINVAL);
  o.name = "";
  CHECK(autosched_parallel_for(0, 10, do_nothing, NULL, &o) == AUTOSCHED_EINVAL);
  CHECK(strstr(autosched_last_error(), "name") != NULL);
  o.name = NULL;
  CHECK(autosched_parallel_for(0, 10, do_nothing, NULL, &o) == AUTOSCHED_EINVAL);
  o.name = "c-errors";

  /* More than 2^62 iterations. */
  CHECK(autosched_parallel_for(INT64_MIN, INT64_MAX, do_nothing, NULL, &o) == AUTOSCHED_EINVAL);
  CHECK(strstr(autosched_last_error(), "2^62") != NULL);

  CHECK(autosched_last_instance(NULL, &r) == AUTOSCHED_EINVAL);
  CHECK(autosched_last_instance("c-errors", NULL) == AUTOSCHED_EINVAL);

  /* After all that, the loop still runs, and an empty range calls nothing. */
  CHECK(autosched_parallel_for(0, 10, do_nothing, NULL, &o) == AUTOSCHED_OK);
  CHECK(autosched_parallel_for(10, 0, count_calls, &calls, &o) == AUTOSCHED_OK);
  CHECK(calls == 0);
  return 0;
}
