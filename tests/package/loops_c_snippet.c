#include <autosched/loops/autosched.h>

#include <stdio.h>

static void scale(int64_t first, int64_t last, void* arg) {
  double* y = (double*)arg;
  for (int64_t i = first; i < last; ++i) y[i] *= 2.0;
}

int main(void) {
  static double y[100000];
  autosched_loop_options o;
  autosched_loop_options_init(&o);
  o.name = "scale";
  o.schedule = "gss";
  if (autosched_parallel_for(0, 100000, scale, y, &o) != AUTOSCHED_OK) {
    fprintf(stderr, "%s\n", autosched_last_error());
    return 1;
  }
  autosched_loop_instance r;
  if (autosched_last_instance("scale", &r) == AUTOSCHED_OK)
    printf("%s on %d threads: %.0f ns, LIB %.1f %%\n", r.technique, r.p, r.loop_time_ns, r.lib);
  return 0;
}
