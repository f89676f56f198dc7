// bench_dropin: the per-chunk dispatch cost of an unmodified OpenMP program's
// `#pragma omp parallel for schedule(runtime)` loop with an almost empty body,
// as the OpenMP runtime's dispatcher serves it (OMP_SCHEDULE=dynamic,1) or as
// the autosched drop-in does when it is preloaded
// (LD_PRELOAD=libautosched-omp.so AUTOSCHED_SCHEDULE=ss,chunk=1).
//
// A plain OpenMP program on purpose: no autosched header or library, so the
// same binary is measured natively and under the drop-in. Under the drop-in
// the chunk count comes from the drop-in's own counters (dropin.h, looked up
// with dlsym) and a run in which it did not take every instance is an error,
// never a number; natively it is ceil(n / chunk) of omp_get_schedule.
//
//   bench_dropin [--threads P] [--n N] [--instances K] [--reps R]
// Prints one line: `<label> ns/chunk <median> ...`, the median over R
// repetitions (after one warm-up) of K instances of n iterations each.
// bench/dropin/run.sh runs it natively and under the drop-in, g++ and clang.
//
//   bench_dropin --per-instance region|inner [--threads P] [--n N] [--instances K] [--reps R]
// The per-instance cost instead: what starting and ending one instance of a
// tiny schedule(runtime) loop costs (n defaults to 2 iterations a thread),
// as `<label> ns/instance <median> ...`, under any runtime schedule.
//   region: `#pragma omp parallel for schedule(runtime)` K times, a region
//           per instance (fork, loop start, chunks, loop end, join);
//   inner:  one `#pragma omp parallel` around K `#pragma omp for
//           schedule(runtime)` (loop start, chunks, loop end and its barrier).
// bench/dropin/instance.sh runs both natively (static, dynamic) and under the
// drop-in (static, auto), g++ and clang.
#include <dlfcn.h>
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

// autosched/omp/dropin.h's autosched_omp_counts (C layout, repeated here so
// that this program includes nothing of autosched).
struct DropinCounts {
  unsigned long long loops, instances, chunks, forwarded;
};
using GetCounts = int (*)(DropinCounts*);

enum class Per { chunk, region, inner };

struct Options {
  int threads = 2;
  std::int64_t n = 0;  ///< 0: 2^18, or 2 a thread per instance
  int instances = 0;   ///< 0: 4, or 2000 per instance
  int reps = 9;
  Per per = Per::chunk;
};

[[noreturn]] void usage(const std::string& message) {
  std::fprintf(stderr,
               "bench_dropin: %s; accepted: --threads P --n N --instances K --reps R (integers >= 1), "
               "--per-instance region|inner\n",
               message.c_str());
  std::exit(2);
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; i += 2) {
    const std::string key = argv[i];
    if (i + 1 >= argc) usage(key + " needs a value");
    if (key == "--per-instance") {
      const std::string shape = argv[i + 1];
      if (shape == "region") {
        o.per = Per::region;
      } else if (shape == "inner") {
        o.per = Per::inner;
      } else {
        usage("--per-instance " + shape + ": expected region or inner");
      }
      continue;
    }
    char* end = nullptr;
    const long long v = std::strtoll(argv[i + 1], &end, 10);
    if (end == argv[i + 1] || *end != '\0' || v < 1) usage(key + "=" + argv[i + 1] + ": expected an integer >= 1");
    if (key == "--threads") {
      o.threads = static_cast<int>(v);
    } else if (key == "--n") {
      o.n = v;
    } else if (key == "--instances") {
      o.instances = static_cast<int>(v);
    } else if (key == "--reps") {
      o.reps = static_cast<int>(v);
    } else {
      usage("unknown option " + key);
    }
  }
  if (o.n == 0) o.n = o.per == Per::chunk ? std::int64_t{1} << 18 : 2 * std::int64_t{o.threads};
  if (o.instances == 0) o.instances = o.per == Per::chunk ? 4 : 2000;
  return o;
}

// The loop under test: what a user writes. noinline keeps one call site.
__attribute__((noinline)) void loop(std::int64_t n, int threads) {
#pragma omp parallel for schedule(runtime) num_threads(threads)
  for (std::int64_t i = 0; i < n; ++i) asm volatile("" : : "r"(i));
}

// One instance a region: what `#pragma omp parallel for` over a tiny range costs.
__attribute__((noinline)) void regions(std::int64_t n, int threads, int k) {
  for (int r = 0; r < k; ++r) {
#pragma omp parallel for schedule(runtime) num_threads(threads)
    for (std::int64_t i = 0; i < n; ++i) asm volatile("" : : "r"(i));
  }
}

// K instances of one loop inside one region: start, end and barrier only.
__attribute__((noinline)) void inner_loops(std::int64_t n, int threads, int k) {
#pragma omp parallel num_threads(threads)
  for (int r = 0; r < k; ++r) {
#pragma omp for schedule(runtime)
    for (std::int64_t i = 0; i < n; ++i) asm volatile("" : : "r"(i));
  }
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse(argc, argv);
#ifdef __clang__
  const char* runtime = "libomp";  // clang's OpenMP: LLVM libomp (__kmpc_dispatch_*)
#else
  const char* runtime = "libgomp";  // g++'s OpenMP: libgomp (GOMP_loop_*runtime*)
#endif
  const auto get = reinterpret_cast<GetCounts>(dlsym(RTLD_DEFAULT, "autosched_omp_get_counts"));
  omp_sched_t kind{};
  int chunk = 0;
  omp_get_schedule(&kind, &chunk);
  if (o.per != Per::chunk) {
    std::vector<double> ns_per_instance;
    for (int rep = 0; rep <= o.reps; ++rep) {  // rep 0: warm-up, not counted
      DropinCounts before{}, after{};
      if (get != nullptr) get(&before);
      const auto t0 = std::chrono::steady_clock::now();
      if (o.per == Per::region) {
        regions(o.n, o.threads, o.instances);
      } else {
        inner_loops(o.n, o.threads, o.instances);
      }
      const auto t1 = std::chrono::steady_clock::now();
      if (get != nullptr) {
        get(&after);
        const auto instances = after.instances - before.instances;
        if (instances != static_cast<unsigned long long>(o.instances) || after.forwarded != before.forwarded) {
          std::fprintf(stderr,
                       "bench_dropin: the drop-in is loaded but took %llu of %d instances (%llu thread entries "
                       "forwarded to %s): no number for a loop it did not schedule\n",
                       instances, o.instances, after.forwarded - before.forwarded, runtime);
          return 1;
        }
      }
      if (rep > 0) {
        ns_per_instance.push_back(std::chrono::duration<double, std::nano>(t1 - t0).count() /
                                  static_cast<double>(o.instances));
      }
    }
    const char* sched = (kind & ~omp_sched_monotonic) == omp_sched_static    ? "static"
                        : (kind & ~omp_sched_monotonic) == omp_sched_dynamic ? "dynamic"
                        : (kind & ~omp_sched_monotonic) == omp_sched_guided  ? "guided"
                                                                             : "other";
    std::printf("%s %s ns/instance %.1f  (%s: median of %d reps of %d instances x %lld iterations, %d threads; "
                "runtime schedule %s,%d)\n",
                get != nullptr ? "dropin" : "native", runtime, median(ns_per_instance),
                o.per == Per::region ? "a parallel for per instance" : "omp for in one region", o.reps, o.instances,
                static_cast<long long>(o.n), o.threads, sched, chunk);
    return 0;
  }
  if (get == nullptr && (kind & ~omp_sched_monotonic) != omp_sched_dynamic) {
    std::fprintf(stderr, "bench_dropin: natively the runtime schedule must be dynamic (OMP_SCHEDULE=dynamic,1)\n");
    return 2;
  }
  const std::int64_t chunk_size = std::max(chunk, 1);
  const std::int64_t native_chunks = (o.n + chunk_size - 1) / chunk_size;

  std::vector<double> ns_per_chunk;
  std::uint64_t chunks_per_instance = 0;
  for (int rep = 0; rep <= o.reps; ++rep) {  // rep 0: warm-up, not counted
    DropinCounts before{}, after{};
    if (get != nullptr) get(&before);
    const auto t0 = std::chrono::steady_clock::now();
    for (int k = 0; k < o.instances; ++k) loop(o.n, o.threads);
    const auto t1 = std::chrono::steady_clock::now();
    std::uint64_t chunks = static_cast<std::uint64_t>(native_chunks) * static_cast<std::uint64_t>(o.instances);
    if (get != nullptr) {
      get(&after);
      const auto instances = after.instances - before.instances;
      if (instances != static_cast<unsigned long long>(o.instances) || after.forwarded != before.forwarded) {
        std::fprintf(stderr,
                     "bench_dropin: the drop-in is loaded but took %llu of %d instances (%llu thread entries "
                     "forwarded to %s): no number for a loop it did not schedule\n",
                     instances, o.instances, after.forwarded - before.forwarded, runtime);
        return 1;
      }
      chunks = after.chunks - before.chunks;
    }
    chunks_per_instance = chunks / static_cast<std::uint64_t>(o.instances);
    if (rep > 0) {
      const double ns = std::chrono::duration<double, std::nano>(t1 - t0).count();
      ns_per_chunk.push_back(ns / static_cast<double>(chunks));
    }
  }
  std::printf(
      "%s %s ns/chunk %.2f  (median of %d reps of %d instances x %lld iterations, %llu chunks each, %d threads)\n",
      get != nullptr ? "dropin" : "native", runtime, median(ns_per_chunk), o.reps, o.instances,
      static_cast<long long>(o.n), static_cast<unsigned long long>(chunks_per_instance), o.threads);
  return 0;
}
