// One loop shape per compilation (-DSHAPE_<name>): the object then holds the
// runtime entry points of that shape only, so `nm -u` attributes each symbol
// to its shape. Compiled, never run. Same source for g++ and clang++.
#include <omp.h>

extern "C" void body(long i);  // opaque: keeps each loop from being folded away
extern int lo, hi;
extern unsigned ulo, uhi;
extern long llo, lhi;
extern unsigned long long qlo, qhi;
extern long sum;

extern "C" void shape() {
#if defined(SHAPE_runtime_int)
#pragma omp parallel
#pragma omp for schedule(runtime)
  for (int i = lo; i < hi; ++i) body(i);
#elif defined(SHAPE_runtime_unsigned)
#pragma omp parallel
#pragma omp for schedule(runtime)
  for (unsigned i = ulo; i < uhi; ++i) body(i);
#elif defined(SHAPE_runtime_long)
#pragma omp parallel
#pragma omp for schedule(runtime)
  for (long i = llo; i < lhi; ++i) body(i);
#elif defined(SHAPE_runtime_ull)
#pragma omp parallel
#pragma omp for schedule(runtime)
  for (unsigned long long i = qlo; i < qhi; ++i) body((long)i);
#elif defined(SHAPE_runtime_negative_step)
#pragma omp parallel
#pragma omp for schedule(runtime)
  for (int i = hi; i > lo; i -= 7) body(i);
#elif defined(SHAPE_runtime_nowait)
#pragma omp parallel
#pragma omp for schedule(runtime) nowait
  for (int i = lo; i < hi; ++i) body(i);
#elif defined(SHAPE_nonmonotonic_runtime)
#pragma omp parallel
#pragma omp for schedule(nonmonotonic : runtime)
  for (int i = lo; i < hi; ++i) body(i);
#elif defined(SHAPE_monotonic_runtime)
#pragma omp parallel
#pragma omp for schedule(monotonic : runtime)
  for (int i = lo; i < hi; ++i) body(i);
#elif defined(SHAPE_parallel_for_runtime)
#pragma omp parallel for schedule(runtime)
  for (int i = lo; i < hi; ++i) body(i);
#elif defined(SHAPE_parallel_for_runtime_ull)
#pragma omp parallel for schedule(runtime)
  for (unsigned long long i = qlo; i < qhi; ++i) body((long)i);
#elif defined(SHAPE_parallel_for_nonmonotonic_runtime)
#pragma omp parallel for schedule(nonmonotonic : runtime)
  for (int i = lo; i < hi; ++i) body(i);
#elif defined(SHAPE_collapse2_runtime)
#pragma omp parallel
#pragma omp for schedule(runtime) collapse(2)
  for (int i = lo; i < hi; ++i)
    for (int j = lo; j < hi; ++j) body(i * 1000 + j);
#elif defined(SHAPE_runtime_ordered)
#pragma omp parallel
#pragma omp for schedule(runtime) ordered
  for (int i = lo; i < hi; ++i) {
#pragma omp ordered
    body(i);
  }
#elif defined(SHAPE_runtime_task_reduction)
#pragma omp parallel
#pragma omp for schedule(runtime) reduction(task, + : sum)
  for (int i = lo; i < hi; ++i) sum += i;
#elif defined(SHAPE_runtime_task_reduction_ull)
#pragma omp parallel
#pragma omp for schedule(runtime) reduction(task, + : sum)
  for (unsigned long long i = qlo; i < qhi; ++i) sum += (long)i;
#elif defined(SHAPE_dynamic_task_reduction)
#pragma omp parallel
#pragma omp for schedule(dynamic) reduction(task, + : sum)
  for (int i = lo; i < hi; ++i) sum += i;
#elif defined(SHAPE_nonmonotonic_runtime_ull)
#pragma omp parallel
#pragma omp for schedule(nonmonotonic : runtime)
  for (unsigned long long i = qlo; i < qhi; ++i) body((long)i);
#elif defined(SHAPE_monotonic_runtime_ull)
#pragma omp parallel
#pragma omp for schedule(monotonic : runtime)
  for (unsigned long long i = qlo; i < qhi; ++i) body((long)i);
#elif defined(SHAPE_runtime_ordered_ull)
#pragma omp parallel
#pragma omp for schedule(runtime) ordered
  for (unsigned long long i = qlo; i < qhi; ++i) {
#pragma omp ordered
    body((long)i);
  }
#elif defined(SHAPE_runtime_doacross)
#pragma omp parallel
#pragma omp for schedule(runtime) ordered(1)
  for (int i = lo; i < hi; ++i) {
#pragma omp ordered depend(sink : i - 1)
    body(i);
#pragma omp ordered depend(source)
  }
// Constant bounds: g++ then hoists the bounds into the combined
// GOMP_parallel_loop_* call (also for `parallel` directly followed by `for`).
#elif defined(SHAPE_const_parallel_for_runtime)
#pragma omp parallel for schedule(runtime)
  for (int i = 0; i < 1000; ++i) body(i);
#elif defined(SHAPE_const_parallel_then_for_runtime)
#pragma omp parallel
#pragma omp for schedule(runtime)
  for (int i = 0; i < 1000; ++i) body(i);
#elif defined(SHAPE_const_parallel_for_nonmonotonic_runtime)
#pragma omp parallel for schedule(nonmonotonic : runtime)
  for (int i = 0; i < 1000; ++i) body(i);
#elif defined(SHAPE_const_parallel_for_monotonic_runtime)
#pragma omp parallel for schedule(monotonic : runtime)
  for (int i = 0; i < 1000; ++i) body(i);
#elif defined(SHAPE_const_parallel_for_runtime_ull)
#pragma omp parallel for schedule(runtime)
  for (unsigned long long i = 0; i < 1000ull; ++i) body((long)i);
#elif defined(SHAPE_const_parallel_for_runtime_long)
#pragma omp parallel for schedule(runtime)
  for (long i = 0; i < 1000; ++i) body(i);
#elif defined(SHAPE_const_parallel_for_dynamic)
#pragma omp parallel for schedule(dynamic)
  for (int i = 0; i < 1000; ++i) body(i);
#elif defined(SHAPE_const_parallel_for_guided)
#pragma omp parallel for schedule(guided)
  for (int i = 0; i < 1000; ++i) body(i);
#elif defined(SHAPE_const_parallel_for_runtime_task_reduction)
#pragma omp parallel for schedule(runtime) reduction(task, + : sum)
  for (int i = 0; i < 1000; ++i) sum += i;
#elif defined(SHAPE_runtime_lastprivate_conditional)
  int last = 0;
#pragma omp parallel
#pragma omp for schedule(runtime) lastprivate(conditional : last)
  for (int i = lo; i < hi; ++i)
    if (i % 3 == 0) last = i;
  body(last);
// Work after the loop inside the region: the loop's barrier is then its own
// (GOMP_loop_end, GOMP_loop_end_cancel) instead of merging with the region's.
#elif defined(SHAPE_runtime_then_more)
#pragma omp parallel
  {
#pragma omp for schedule(runtime)
    for (int i = lo; i < hi; ++i) body(i);
    body(-1);
  }
#elif defined(SHAPE_runtime_cancel)
#pragma omp parallel
  {
#pragma omp for schedule(runtime)
    for (int i = lo; i < hi; ++i) {
      if (i == 5) {
#pragma omp cancel for
      }
      body(i);
    }
    body(-1);
  }
#elif defined(SHAPE_dynamic)
#pragma omp parallel
#pragma omp for schedule(dynamic, 4)
  for (int i = lo; i < hi; ++i) body(i);
#elif defined(SHAPE_guided)
#pragma omp parallel
#pragma omp for schedule(guided)
  for (int i = lo; i < hi; ++i) body(i);
#elif defined(SHAPE_parallel_for_dynamic)
#pragma omp parallel for schedule(dynamic)
  for (int i = lo; i < hi; ++i) body(i);
#elif defined(SHAPE_static)
#pragma omp parallel
#pragma omp for schedule(static)
  for (int i = lo; i < hi; ++i) body(i);
#elif defined(SHAPE_static_chunk)
#pragma omp parallel
#pragma omp for schedule(static, 3)
  for (int i = lo; i < hi; ++i) body(i);
#else
#error "compile with -DSHAPE_<name>"
#endif
}
