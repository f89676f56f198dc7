/* A C program against the installed package: one loop through autosched.h,
 * every index visited once, and the record of what ran. */
#include <autosched/loops/autosched.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void mark(int64_t first, int64_t last, void* arg) {
  unsigned char* seen = (unsigned char*)arg;
  int64_t i;
  for (i = first; i < last; ++i) ++seen[i];
}

int main(void) {
  const int64_t n = 100000;
  unsigned char* seen = (unsigned char*)calloc((size_t)n, 1);
  autosched_loop_options o;
  autosched_loop_instance r;
  int64_t i;
  if (seen == NULL) return 1;
  autosched_loop_options_init(&o);
  o.name = "consumer-c";
  o.schedule = "fac2";
  o.threads = 2;
  if (autosched_parallel_for(0, n, mark, seen, &o) != AUTOSCHED_OK) {
    fprintf(stderr, "consumer-c: %s\n", autosched_last_error());
    return 1;
  }
  for (i = 0; i < n; ++i) {
    if (seen[i] != 1) {
      fprintf(stderr, "consumer-c: index %lld visited %d times\n", (long long)i, (int)seen[i]);
      return 1;
    }
  }
  free(seen);
  if (autosched_last_instance("consumer-c", &r) != AUTOSCHED_OK) {
    fprintf(stderr, "consumer-c: %s\n", autosched_last_error());
    return 1;
  }
  printf("consumer-c: %s over %lld iterations on %d threads\n", r.technique, (long long)r.n, r.p);
  return strcmp(r.technique, "fac2") == 0 && r.n == n ? 0 : 1;
}
