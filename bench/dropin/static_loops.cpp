// static-loops bench: a time-stepping program whose loops have no schedule
// clause (or schedule(runtime), built with -DRUNTIME_LOOPS), as a user
// writes it; for `autosched run --loops static` (bench/dropin/static.sh).
// Each step runs two parallel loops, each its own parallel region:
//   rising  iteration i costs about i (a dependent multiply-add chain of
//           i/64 links): a static split gives the second thread three
//           quarters of the work;
//   triad   a[i] = b[i] + s*c[i] over three arrays of 2^21 doubles (48 MiB,
//           beyond the cache): balanced and memory-bound, where the even
//           split and first-touch placement are already right.
// Output: `static-bench rising_ms R triad_ms T wall_ms W check ok`, the ms
// inside each loop summed over the steps (omp_get_wtime) and of all steps.
// Check: every rising result against a serial recomputation, and the triad's
// arrays against their closed form.
// Usage: static_loops [steps] [triad] (default 100 steps; with `triad`, the
// triad alone: its comparison is not disturbed by the rising loop's)
#include <omp.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

constexpr int rising_n = 20000;
constexpr long triad_n = 1L << 21;

double chain(int i) {
  double x = 1.0 + i * 1e-6;
  for (int k = 0; k < i / 64; ++k) x = x * 0.9999999 + 1e-7;
  return x;
}

}  // namespace

int main(int argc, char** argv) {
  const int steps = argc > 1 ? std::atoi(argv[1]) : 100;
  const bool triad_only = argc > 2 && std::string(argv[2]) == "triad";
  std::vector<double> rising(rising_n);
  std::vector<double> a(triad_n), b(triad_n), c(triad_n);
  // First touch by the threads that use the data (an even split, as the triad's).
#pragma omp parallel for
  for (long i = 0; i < triad_n; ++i) {
    a[i] = 0;
    b[i] = 1.0;
    c[i] = 2.0;
  }
  double rising_s = 0, triad_s = 0;
  const double start = omp_get_wtime();
  for (int step = 0; step < steps; ++step) {
    const double t0 = omp_get_wtime();
    if (!triad_only) {
#ifdef RUNTIME_LOOPS
#pragma omp parallel for schedule(runtime)
#else
#pragma omp parallel for
#endif
      for (int i = 0; i < rising_n; ++i) rising[i] = chain(i);
    }
    const double t1 = omp_get_wtime();
    const double s = 0.5 + step % 3;
#pragma omp parallel for
    for (long i = 0; i < triad_n; ++i) a[i] = b[i] + s * c[i];
    const double t2 = omp_get_wtime();
    rising_s += t1 - t0;
    triad_s += t2 - t1;
  }
  const double wall_s = omp_get_wtime() - start;
  bool ok = true;
  for (int i = 0; i < rising_n && ok && !triad_only; i += 7) ok = rising[i] == chain(i);
  const double last_s = 0.5 + (steps - 1) % 3;
  for (long i = 0; i < triad_n && ok; i += 4099) ok = steps == 0 || a[i] == 1.0 + last_s * 2.0;
  std::printf("static-bench rising_ms %.3f triad_ms %.3f wall_ms %.3f check %s\n", rising_s * 1e3, triad_s * 1e3,
              wall_s * 1e3, ok ? "ok" : "FAILED");
  return ok ? 0 : 1;
}
