// tests/omp/shapes.cpp — every loop shape of issue 11 item 5, as an unmodified
// OpenMP program would write it. Built with g++ (libgomp) and with clang++
// (LLVM libomp) from this one source; run natively and under the drop-in with
// every schedule (run_shapes.cmake).
//
// Each shape checks itself: every iteration is counted, and each count must
// be 1 (at most 1 where iterations may be skipped: cancellation). When the
// driver says the drop-in takes loops (DROPIN_EXPECT_TAKEN=1), the shape also
// checks how many loop instances the drop-in scheduled while it ran
// (autosched_omp_counts::instances, once per team encounter) and, for loops it
// must not take, that they were forwarded instead. A failure names the shape;
// the process exits 1 after running all shapes.
//
// Bounds come through opaque() so that the compiler cannot see them: g++ then
// calls GOMP_loop_*_start inside the region; the `_const` shapes keep constant
// bounds, with which g++ hoists them into the combined GOMP_parallel_loop_*
// call instead (docs/dropin.md, "Which entry points the compilers emit").
#include "dropin_probe.h"

#include <omp.h>

#include <atomic>
#include <climits>
#include <cstdio>
#include <string_view>
#include <thread>
#include <vector>

namespace {

template <class T>
T opaque(T v) {
  volatile T x = v;
  return x;
}

// One counter per logical iteration; hits outside [0, n) are counted apart.
class Coverage {
 public:
  explicit Coverage(unsigned long long n) : hits_(n) {}
  void hit(unsigned long long k) {
    if (k < hits_.size()) {
      hits_[k].fetch_add(1, std::memory_order_relaxed);
    } else {
      outside_.fetch_add(1, std::memory_order_relaxed);
    }
  }
  // Exactly once each, or at most once each when `may_skip`.
  bool check(const char* shape, const char* what, bool may_skip = false) const {
    unsigned long long missed = 0, repeated = 0, first_bad = 0;
    bool seen_bad = false;
    for (std::size_t k = 0; k < hits_.size(); ++k) {
      const int h = hits_[k].load();
      if (h == 1 || (h == 0 && may_skip)) continue;
      if (h == 0) ++missed; else ++repeated;
      if (!seen_bad) first_bad = k, seen_bad = true;
    }
    if (missed == 0 && repeated == 0 && outside_.load() == 0) return true;
    std::fprintf(stderr,
                 "shape %s (%s): of %zu iterations %llu missed, %llu ran more than once, %llu outside the "
                 "range (first bad logical iteration %llu)\n",
                 shape, what, hits_.size(), missed, repeated, static_cast<unsigned long long>(outside_.load()),
                 first_bad);
    return false;
  }

 private:
  std::vector<std::atomic<int>> hits_;
  std::atomic<unsigned long long> outside_{0};
};

// ---- the shapes: each returns whether its coverage was right ----------------

bool int_step1() {
  const int lo = opaque(-500), hi = opaque(1500);
  Coverage c(2000);
#pragma omp parallel
#pragma omp for schedule(runtime)
  for (int i = lo; i < hi; ++i) c.hit(i - lo);
  return c.check("int_step1", "for (int i = -500; i < 1500; ++i)");
}

bool int_negative_step7() {
  const int lo = opaque(-1000), hi = opaque(1000);
  Coverage c(286);  // 1000, 993, ..., -995
#pragma omp parallel
#pragma omp for schedule(runtime)
  for (int i = hi; i > lo; i -= 7) c.hit((hi - i) / 7);
  return c.check("int_negative_step7", "for (int i = 1000; i > -1000; i -= 7)");
}

bool int_step3_across_zero() {
  const int lo = opaque(-1000), hi = opaque(1000);
  Coverage c(667);  // -1000, -997, ..., 998
#pragma omp parallel
#pragma omp for schedule(runtime)
  for (int i = lo; i <= hi; i += 3) c.hit((i - lo) / 3);
  return c.check("int_step3_across_zero", "for (int i = -1000; i <= 1000; i += 3)");
}

bool int_near_max() {
  const int lo = opaque(INT_MAX - 2000), hi = opaque(INT_MAX - 7);
  Coverage c(665);  // INT_MAX-2000 ... INT_MAX-8, step 3
#pragma omp parallel
#pragma omp for schedule(runtime)
  for (int i = lo; i <= hi; i += 3) c.hit(static_cast<unsigned>(i - lo) / 3);
  return c.check("int_near_max", "for (int i = INT_MAX-2000; i <= INT_MAX-7; i += 3)");
}

bool int_near_min_descending() {
  // The last i is INT_MIN+7: i -= 7 after it still fits (a loop whose
  // increment overflows past the last iteration is not a legal OpenMP loop).
  const int hi = opaque(INT_MIN + 2000), lo = opaque(INT_MIN + 7);
  Coverage c(285);  // INT_MIN+2000 down to INT_MIN+7, step -7
#pragma omp parallel
#pragma omp for schedule(runtime)
  for (int i = hi; i >= lo; i -= 7) c.hit(static_cast<unsigned>(hi - i) / 7);
  return c.check("int_near_min_descending", "for (int i = INT_MIN+2000; i >= INT_MIN+7; i -= 7)");
}

bool unsigned_across_2pow31() {
  const unsigned lo = opaque(0x7fffff00u), hi = opaque(0x80000100u);
  Coverage c(512);
#pragma omp parallel
#pragma omp for schedule(runtime)
  for (unsigned i = lo; i < hi; ++i) c.hit(i - lo);
  return c.check("unsigned_across_2pow31", "for (unsigned i = 0x7fffff00; i < 0x80000100; ++i)");
}

bool unsigned_descending_step3() {
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ <= 12
  // g++ 12 passes the step of a downward `unsigned` loop zero-extended
  // (GOMP_loop_*_start(2000, 4, 4294967293, ...)), so libgomp itself runs no
  // iteration (schedule(static) is right). The drop-in gets the same
  // arguments; docs/dropin.md notes the compiler bug.
  std::printf("shape unsigned_descending_step3 skipped: g++ %d miscompiles it natively\n", __GNUC__);
  return true;
#else
  const unsigned hi = opaque(2000u), lo = opaque(5u);
  Coverage c(666);  // 2000, 1997, ..., 5
#pragma omp parallel
#pragma omp for schedule(runtime)
  for (unsigned i = hi; i >= lo; i -= 3) c.hit((hi - i) / 3);
  return c.check("unsigned_descending_step3", "for (unsigned i = 2000; i >= 5; i -= 3)");
#endif
}

bool unsigned_near_max() {
  const unsigned lo = opaque(UINT_MAX - 3000u), hi = opaque(UINT_MAX - 10u);
  Coverage c(428);  // UINT_MAX-3000 ... UINT_MAX-11, step 7
#pragma omp parallel
#pragma omp for schedule(runtime)
  for (unsigned i = lo; i < hi; i += 7) c.hit((i - lo) / 7);
  return c.check("unsigned_near_max", "for (unsigned i = UINT_MAX-3000; i < UINT_MAX-10; i += 7)");
}

bool long_near_max_step3() {
  const long lo = opaque(LONG_MAX - 3000), hi = opaque(LONG_MAX - 10);
  Coverage c(997);
#pragma omp parallel
#pragma omp for schedule(runtime)
  for (long i = lo; i < hi; i += 3) c.hit(static_cast<unsigned long>(i - lo) / 3);
  return c.check("long_near_max_step3", "for (long i = LONG_MAX-3000; i < LONG_MAX-10; i += 3)");
}

bool long_near_min_step_minus7() {
  const long hi = opaque(LONG_MIN + 3000), lo = opaque(LONG_MIN + 10);
  Coverage c(428);
#pragma omp parallel
#pragma omp for schedule(runtime)
  for (long i = hi; i > lo; i -= 7) c.hit(static_cast<unsigned long>(hi - i) / 7);
  return c.check("long_near_min_step_minus7", "for (long i = LONG_MIN+3000; i > LONG_MIN+10; i -= 7)");
}

bool long_across_2pow32() {
  const long lo = opaque((1L << 32) - 1000), hi = opaque((1L << 32) + 1000);
  Coverage c(2000);
#pragma omp parallel
#pragma omp for schedule(runtime)
  for (long i = lo; i < hi; ++i) c.hit(static_cast<unsigned long>(i - lo));
  return c.check("long_across_2pow32", "for (long i = 2^32-1000; i < 2^32+1000; ++i)");
}

bool ull_across_2pow63_step3() {
  // Bounds above LONG_MAX: g++ must use the GOMP_loop_ull_* entry points.
  const unsigned long long lo = opaque((1ull << 63) - 1000), hi = opaque((1ull << 63) + 1000);
  Coverage c(667);
#pragma omp parallel
#pragma omp for schedule(runtime)
  for (unsigned long long i = lo; i < hi; i += 3) c.hit((i - lo) / 3);
  return c.check("ull_across_2pow63_step3", "for (ull i = 2^63-1000; i < 2^63+1000; i += 3)");
}

bool ull_near_max_step7() {
  const unsigned long long lo = opaque(ULLONG_MAX - 5000), hi = opaque(ULLONG_MAX - 10);
  Coverage c(713);  // ceil(4990 / 7)
#pragma omp parallel
#pragma omp for schedule(runtime)
  for (unsigned long long i = lo; i < hi; i += 7) c.hit((i - lo) / 7);
  return c.check("ull_near_max_step7", "for (ull i = ULLONG_MAX-5000; i < ULLONG_MAX-10; i += 7)");
}

bool ull_descending() {
  // A downward unsigned 64-bit loop: GOMP_loop_ull_* with up = false.
  const unsigned long long hi = opaque(ULLONG_MAX - 10), lo = opaque(ULLONG_MAX - 3000);
  Coverage c(598);  // ceil(2990 / 5)
#pragma omp parallel
#pragma omp for schedule(runtime)
  for (unsigned long long i = hi; i > lo; i -= 5) c.hit((hi - i) / 5);
  return c.check("ull_descending", "for (ull i = ULLONG_MAX-10; i > ULLONG_MAX-3000; i -= 5)");
}

bool collapse2() {
  const int n = opaque(37), lo = opaque(-5), hi = opaque(40);
  Coverage c(37 * 15);  // j = -5, -2, ..., 37
#pragma omp parallel
#pragma omp for schedule(runtime) collapse(2)
  for (int i = 0; i < n; ++i)
    for (int j = lo; j < hi; j += 3) c.hit(static_cast<unsigned>(i * 15 + (j - lo) / 3));
  return c.check("collapse2", "collapse(2): i in [0,37), j in [-5,40) step 3");
}

bool nowait_back_to_back() {
  const int n = opaque(1001);
  Coverage a(1001), b(1001), d(1001);
#pragma omp parallel
  {
#pragma omp for schedule(runtime) nowait
    for (int i = 0; i < n; ++i) a.hit(i);
#pragma omp for schedule(runtime) nowait
    for (int i = n - 1; i >= 0; --i) b.hit(i);
#pragma omp for schedule(runtime)
    for (int i = 0; i < n; ++i) d.hit(i);
  }
  bool ok = a.check("nowait_back_to_back", "first nowait loop");
  ok = b.check("nowait_back_to_back", "second nowait loop") && ok;
  return d.check("nowait_back_to_back", "third loop") && ok;
}

// Observed team sizes feed the expected instance counts of the nested shape.
std::atomic<int> nested_inner_teams{0};

bool nested() {
  const int n = opaque(600);
  Coverage outer(600);
  std::vector<Coverage*> inner;
  for (int t = 0; t < 2; ++t) inner.push_back(new Coverage(600));
  int outer_threads = 0;
#pragma omp parallel num_threads(2)
  {
#pragma omp single
    outer_threads = omp_get_num_threads();
#pragma omp for schedule(runtime)
    for (int i = 0; i < n; ++i) outer.hit(i);
    Coverage* mine = inner[omp_get_thread_num()];
#pragma omp parallel num_threads(2)
    {
#pragma omp single
      nested_inner_teams.fetch_add(1);
#pragma omp for schedule(runtime)
      for (int i = 0; i < n; ++i) mine->hit(i);
      nested_team_done(&mine);
    }
    nested_team_joined(&mine);
  }
  bool ok = outer.check("nested", "outer loop");
  for (int t = 0; t < outer_threads; ++t) ok &= inner[t]->check("nested", "inner loop");
  for (Coverage* c : inner) delete c;
  return ok;
}

bool teams_concurrent() {
  // Three root threads, each with its own team, run runtime loops at once.
  constexpr int kTeams = 3, kRegions = 10;
  std::vector<Coverage*> cover;
  for (int t = 0; t < kTeams * kRegions; ++t) cover.push_back(new Coverage(777));
  std::vector<std::thread> roots;
  for (int t = 0; t < kTeams; ++t) {
    roots.emplace_back([&cover, t] {
      for (int r = 0; r < kRegions; ++r) {
        Coverage* c = cover[t * kRegions + r];
        const int n = opaque(777);
#pragma omp parallel num_threads(2)
#pragma omp for schedule(runtime)
        for (int i = 0; i < n; ++i) c->hit(i);
      }
    });
  }
  for (auto& r : roots) r.join();
  bool ok = true;
  for (Coverage* c : cover) ok &= c->check("teams_concurrent", "a loop of one of 3 concurrent teams");
  for (Coverage* c : cover) delete c;
  return ok;
}

bool parallel_for_combined() {
  const int n = opaque(1234);
  Coverage c(1234);
#pragma omp parallel for schedule(runtime)
  for (int i = 0; i < n; ++i) c.hit(i);
  return c.check("parallel_for_combined", "parallel for, bounds unknown to the compiler");
}

bool parallel_for_combined_const() {
  Coverage c(1234);
#pragma omp parallel for schedule(runtime)
  for (int i = 0; i < 1234; ++i) c.hit(i);
  return c.check("parallel_for_combined_const", "parallel for, constant bounds (GOMP_parallel_loop_*)");
}

bool parallel_then_for_const() {
  Coverage c(1234);
#pragma omp parallel
#pragma omp for schedule(runtime)
  for (int i = 0; i < 1234; ++i) c.hit(i);
  return c.check("parallel_then_for_const", "parallel + for, constant bounds");
}

bool parallel_then_for_separate() {
  const int n = opaque(1234);
  Coverage c(1234);
  std::atomic<int> before{0};
#pragma omp parallel
  {
    before.fetch_add(1);  // work in the region before the loop: not a combined construct
#pragma omp for schedule(runtime)
    for (int i = 0; i < n; ++i) c.hit(i);
  }
  return c.check("parallel_then_for_separate", "parallel { ...; for }");
}

bool parallel_for_nonmonotonic_const() {
  Coverage c(999);
#pragma omp parallel for schedule(nonmonotonic : runtime)
  for (int i = 0; i < 999; ++i) c.hit(i);
  return c.check("parallel_for_nonmonotonic_const", "parallel for schedule(nonmonotonic:runtime), constant bounds");
}

bool parallel_for_monotonic_const() {
  Coverage c(999);
#pragma omp parallel for schedule(monotonic : runtime)
  for (int i = 0; i < 999; ++i) c.hit(i);
  return c.check("parallel_for_monotonic_const", "parallel for schedule(monotonic:runtime), constant bounds");
}

bool parallel_for_ull_const() {
  Coverage c(999);
#pragma omp parallel for schedule(runtime)
  for (unsigned long long i = 0; i < 999ull; ++i) c.hit(i);
  return c.check("parallel_for_ull_const", "parallel for over unsigned long long, constant bounds");
}

bool nonmonotonic_runtime() {
  const int n = opaque(999);
  Coverage c(999);
#pragma omp parallel
#pragma omp for schedule(nonmonotonic : runtime)
  for (int i = 0; i < n; ++i) c.hit(i);
  return c.check("nonmonotonic_runtime", "schedule(nonmonotonic:runtime)");
}

bool monotonic_runtime() {
  const int n = opaque(999);
  Coverage c(999);
#pragma omp parallel
#pragma omp for schedule(monotonic : runtime)
  for (int i = 0; i < n; ++i) c.hit(i);
  return c.check("monotonic_runtime", "schedule(monotonic:runtime)");
}

bool nonmonotonic_ull() {
  const unsigned long long lo = opaque(1ull << 63), hi = opaque((1ull << 63) + 999);
  Coverage c(999);
#pragma omp parallel
#pragma omp for schedule(nonmonotonic : runtime)
  for (unsigned long long i = lo; i < hi; ++i) c.hit(i - lo);
  return c.check("nonmonotonic_ull", "schedule(nonmonotonic:runtime) over ull above 2^63");
}

bool monotonic_ull() {
  const unsigned long long lo = opaque(1ull << 63), hi = opaque((1ull << 63) + 999);
  Coverage c(999);
#pragma omp parallel
#pragma omp for schedule(monotonic : runtime)
  for (unsigned long long i = lo; i < hi; ++i) c.hit(i - lo);
  return c.check("monotonic_ull", "schedule(monotonic:runtime) over ull above 2^63");
}

bool task_reduction() {
  // reduction(task, ...): g++ goes through the unified GOMP_loop_start.
  const int n = opaque(1000);
  Coverage c(1000);
  long sum = 0;
#pragma omp parallel
#pragma omp for schedule(runtime) reduction(task, + : sum)
  for (int i = 0; i < n; ++i) {
    c.hit(i);
    sum += i;
  }
  bool ok = c.check("task_reduction", "for reduction(task, +: sum)");
  if (sum != 499500) {
    std::fprintf(stderr, "shape task_reduction: sum %ld, expected 499500\n", sum);
    ok = false;
  }
  return ok;
}

bool task_reduction_ull() {
  // g++: the unified GOMP_loop_ull_start.
  const unsigned long long lo = opaque(1ull << 63), hi = opaque((1ull << 63) + 1000);
  Coverage c(1000);
  unsigned long long sum = 0;
#pragma omp parallel
#pragma omp for schedule(runtime) reduction(task, + : sum)
  for (unsigned long long i = lo; i < hi; ++i) {
    c.hit(i - lo);
    sum += i - lo;
  }
  bool ok = c.check("task_reduction_ull", "for reduction(task, +: sum) over ull above 2^63");
  if (sum != 499500) {
    std::fprintf(stderr, "shape task_reduction_ull: sum %llu, expected 499500\n", sum);
    ok = false;
  }
  return ok;
}

bool zero_trip() {
  const int lo = opaque(10), hi = opaque(10), inverted_hi = opaque(-5);
  Coverage c(0);
#pragma omp parallel
  {
#pragma omp for schedule(runtime)
    for (int i = lo; i < hi; ++i) c.hit(static_cast<unsigned>(i));
#pragma omp for schedule(runtime)
    for (int i = lo; i < inverted_hi; ++i) c.hit(static_cast<unsigned>(i));
  }
  return c.check("zero_trip", "loops with no iteration");
}

bool one_iteration() {
  const int lo = opaque(41), hi = opaque(42);
  Coverage c(1);
#pragma omp parallel
#pragma omp for schedule(runtime)
  for (int i = lo; i < hi; ++i) c.hit(static_cast<unsigned>(i - lo));
  return c.check("one_iteration", "for (i = 41; i < 42; ++i)");
}

bool num_threads_1() {
  const int n = opaque(500);
  Coverage c(500);
#pragma omp parallel num_threads(1)
#pragma omp for schedule(runtime)
  for (int i = 0; i < n; ++i) c.hit(i);
  return c.check("num_threads_1", "region with num_threads(1)");
}

bool if_0() {
  const int n = opaque(500);
  const bool parallel = opaque(0) != 0;
  Coverage c(500);
#pragma omp parallel if (parallel)
#pragma omp for schedule(runtime)
  for (int i = 0; i < n; ++i) c.hit(i);
  return c.check("if_0", "region with if(0)");
}

bool ordered() {
  // The drop-in must forward ordered loops: the runtime's ordered sections
  // depend on its own chunk bookkeeping. The ordered section sees the
  // iterations in sequence.
  const int n = opaque(300);
  Coverage c(300);
  std::vector<int> sequence;
#pragma omp parallel
#pragma omp for schedule(runtime) ordered
  for (int i = 0; i < n; ++i) {
    c.hit(i);
#pragma omp ordered
    sequence.push_back(i);
  }
  bool ok = c.check("ordered", "for ordered");
  for (int i = 0; i < static_cast<int>(sequence.size()); ++i) {
    if (sequence[i] != i) {
      std::fprintf(stderr, "shape ordered: the ordered section saw %d at position %d\n", sequence[i], i);
      ok = false;
      break;
    }
  }
  return ok;
}

bool ordered_ull() {
  const unsigned long long lo = opaque(1ull << 63), hi = opaque((1ull << 63) + 300);
  Coverage c(300);
  std::vector<unsigned long long> sequence;
#pragma omp parallel
#pragma omp for schedule(runtime) ordered
  for (unsigned long long i = lo; i < hi; ++i) {
    c.hit(i - lo);
#pragma omp ordered
    sequence.push_back(i - lo);
  }
  bool ok = c.check("ordered_ull", "for ordered over ull above 2^63");
  for (std::size_t i = 0; i < sequence.size(); ++i) {
    if (sequence[i] != i) {
      std::fprintf(stderr, "shape ordered_ull: the ordered section saw %llu at position %zu\n", sequence[i], i);
      ok = false;
      break;
    }
  }
  return ok;
}

bool doacross() {
  // ordered(1) with depend(sink/source): iteration i waits for i-1, through
  // the runtime's own chunk bookkeeping, so the loop must be forwarded. Each
  // iteration extends a chain; a broken wait shows as a wrong link.
  const int n = opaque(400);
  Coverage c(400);
  std::vector<int> chain(400, -1);
  bool ok = true;
#pragma omp parallel
#pragma omp for schedule(runtime) ordered(1)
  for (int i = 0; i < n; ++i) {
    c.hit(i);
#pragma omp ordered depend(sink : i - 1)
    chain[i] = i == 0 ? 0 : chain[i - 1] + 1;
#pragma omp ordered depend(source)
  }
  ok = c.check("doacross", "for ordered(1) with depend(sink: i-1)");
  for (int i = 0; i < n; ++i) {
    if (chain[i] != i) {
      std::fprintf(stderr, "shape doacross: link %d is %d: iteration %d did not wait for %d\n", i, chain[i], i, i - 1);
      ok = false;
      break;
    }
  }
  return ok;
}

bool cancel() {
  // Under OMP_CANCELLATION=true the thread that cancels leaves the loop at
  // once, without asking the dispatcher for its last chunk (a thread that
  // leaves early); the other threads may run on to the end. Iterations may be
  // skipped, none may run twice, and the team's next loop must be whole.
  const int n = opaque(3000);
  Coverage c(3000), after(3000);
#pragma omp parallel
  {
#pragma omp for schedule(runtime)
    for (int i = 0; i < n; ++i) {
      c.hit(i);
      if (i == 100) {
#pragma omp cancel for
      }
#pragma omp cancellation point for
    }
#pragma omp for schedule(runtime)
    for (int i = 0; i < n; ++i) after.hit(i);
  }
  const bool ok = c.check("cancel", "cancelled loop", /*may_skip=*/true);
  return after.check("cancel", "loop after the cancelled one") && ok;
}

void orphaned_loop(Coverage& c, int n) {
#pragma omp for schedule(runtime)
  for (int i = 0; i < n; ++i) c.hit(i);
}

bool orphaned() {
  const int n = opaque(800);
  Coverage c(800);
#pragma omp parallel
  orphaned_loop(c, n);
  return c.check("orphaned", "orphaned loop called from a region");
}

bool orphaned_serial() {
  const int n = opaque(800);
  Coverage c(800);
  orphaned_loop(c, n);  // outside any region: a team of one
  return c.check("orphaned_serial", "orphaned loop called outside any region");
}

bool dynamic_k() {
  const int n = opaque(1000);
  Coverage c(1000);
#pragma omp parallel
#pragma omp for schedule(dynamic, 4)
  for (int i = 0; i < n; ++i) c.hit(i);
  return c.check("dynamic_k", "schedule(dynamic,4)");
}

bool guided() {
  const int n = opaque(1000);
  Coverage c(1000);
#pragma omp parallel
#pragma omp for schedule(guided)
  for (int i = 0; i < n; ++i) c.hit(i);
  return c.check("guided", "schedule(guided)");
}

bool parallel_for_dynamic_const() {
  Coverage c(1000);
#pragma omp parallel for schedule(dynamic)
  for (int i = 0; i < 1000; ++i) c.hit(i);
  return c.check("parallel_for_dynamic_const", "parallel for schedule(dynamic), constant bounds");
}

bool static_loop() {
  const int n = opaque(1000);
  Coverage c(1000);
#pragma omp parallel
#pragma omp for schedule(static)
  for (int i = 0; i < n; ++i) c.hit(i);
  return c.check("static_loop", "schedule(static)");
}

#if defined(__clang__)
constexpr bool kGnuRuntime = false;  // clang++ -fopenmp=libomp: LLVM libomp
#else
constexpr bool kGnuRuntime = true;  // g++: libgomp
#endif
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ <= 12
constexpr bool kGccUnsignedDownBug = true;
#else
constexpr bool kGccUnsignedDownBug = false;
#endif

// Under ThreadSanitizer + Archer (LLVM 14), shapes whose native runs are
// reported as races: Archer models neither doacross waits ("doacross
// dependences are not supported yet") nor the combine of reduction(task,...)
// data, so natively too these report races on correct code.
#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define SHAPES_UNDER_TSAN 1
#endif
#endif
#ifdef SHAPES_UNDER_TSAN
constexpr bool kArcherBlindSpots = true;
#else
constexpr bool kArcherBlindSpots = false;
#endif

// ---- what the drop-in must have done ------------------------------------------

// instances: [min, max] per run of the shape. must_forward: the loops are not
// the drop-in's to take, so each run forwards at least one thread entry.
// must_account: taken or forwarded, but seen (issue 11: never silently).
struct Expect {
  unsigned long long min, max;
  bool must_forward;
  bool must_account = false;
};
Expect taken(unsigned long long n) { return {n, n, false}; }
Expect forwarded() { return {0, 0, true}; }
Expect dynamic_kind(unsigned long long n) { return dropin_takes_all_loops() ? taken(n) : forwarded(); }

struct Shape {
  const char* name;
  bool (*run)();
  Expect (*expect)();
  const char* why;  // where the expected count comes from
};

const Shape shapes[] = {
    {"int_step1", int_step1, [] { return taken(1); }, "one loop"},
    {"int_negative_step7", int_negative_step7, [] { return taken(1); }, "one loop"},
    {"int_step3_across_zero", int_step3_across_zero, [] { return taken(1); }, "one loop"},
    {"int_near_max", int_near_max, [] { return taken(1); }, "one loop"},
    {"int_near_min_descending", int_near_min_descending, [] { return taken(1); }, "one loop"},
    {"unsigned_across_2pow31", unsigned_across_2pow31, [] { return taken(1); }, "one loop"},
    {"unsigned_descending_step3", unsigned_descending_step3, [] { return taken(kGccUnsignedDownBug ? 0 : 1); },
     "one loop"},
    {"unsigned_near_max", unsigned_near_max, [] { return taken(1); }, "one loop"},
    {"long_near_max_step3", long_near_max_step3, [] { return taken(1); }, "one loop"},
    {"long_near_min_step_minus7", long_near_min_step_minus7, [] { return taken(1); }, "one loop"},
    {"long_across_2pow32", long_across_2pow32, [] { return taken(1); }, "one loop"},
    {"ull_across_2pow63_step3", ull_across_2pow63_step3, [] { return taken(1); }, "one loop"},
    {"ull_near_max_step7", ull_near_max_step7, [] { return taken(1); }, "one loop"},
    {"ull_descending", ull_descending, [] { return taken(1); }, "one loop"},
    {"collapse2", collapse2, [] { return taken(1); }, "one collapsed loop"},
    {"nowait_back_to_back", nowait_back_to_back, [] { return taken(3); }, "three loops in one region"},
    {"nested", nested, nullptr, "1 outer loop + 1 inner loop per inner team"},
    {"teams_concurrent", teams_concurrent, [] { return taken(30); }, "3 teams x 10 regions"},
    {"parallel_for_combined", parallel_for_combined, [] { return taken(1); }, "one loop"},
    {"parallel_for_combined_const", parallel_for_combined_const, [] { return taken(1); }, "one loop"},
    {"parallel_then_for_const", parallel_then_for_const, [] { return taken(1); }, "one loop"},
    {"parallel_then_for_separate", parallel_then_for_separate, [] { return taken(1); }, "one loop"},
    {"parallel_for_nonmonotonic_const", parallel_for_nonmonotonic_const, [] { return taken(1); }, "one loop"},
    {"parallel_for_monotonic_const", parallel_for_monotonic_const, [] { return taken(1); }, "one loop"},
    {"parallel_for_ull_const", parallel_for_ull_const, [] { return taken(1); }, "one loop"},
    {"nonmonotonic_runtime", nonmonotonic_runtime, [] { return taken(1); }, "one loop"},
    {"monotonic_runtime", monotonic_runtime, [] { return taken(1); }, "one loop"},
    {"nonmonotonic_ull", nonmonotonic_ull, [] { return taken(1); }, "one loop"},
    {"monotonic_ull", monotonic_ull, [] { return taken(1); }, "one loop"},
    // g++ hands task-reduction loops to GOMP_loop_start with the reduction
    // data: the work share carries more than iterations, so the drop-in
    // forwards them (docs/dropin.md); clang's are ordinary dispatch loops.
    {"task_reduction", task_reduction, [] { return kGnuRuntime ? forwarded() : taken(1); },
     "g++: GOMP_loop_start with task reductions is forwarded"},
    {"task_reduction_ull", task_reduction_ull, [] { return kGnuRuntime ? forwarded() : taken(1); },
     "g++: GOMP_loop_ull_start with task reductions is forwarded"},
    // clang skips a loop with no iteration before calling the runtime; g++
    // calls GOMP_loop_*_start, which may count it or not.
    {"zero_trip", zero_trip, [] { return Expect{0, 2, false}; }, "two empty loops, counted or not"},
    {"one_iteration", one_iteration, [] { return taken(1); }, "one loop"},
    {"num_threads_1", num_threads_1, [] { return taken(1); }, "one loop, team of one"},
    {"if_0", if_0, [] { return taken(1); }, "one loop, team of one"},
    {"ordered", ordered, [] { return forwarded(); }, "ordered loops are forwarded"},
    {"ordered_ull", ordered_ull, [] { return forwarded(); }, "ordered loops are forwarded"},
    // Doacross waits go through the runtime's own bookkeeping. libgomp keeps
    // them in the loop's work share, so the drop-in forwards the loop (and
    // counts it); libomp keeps them apart from the dispatcher
    // (__kmpc_doacross_init), and every technique hands each thread its
    // iterations in increasing order, so the drop-in takes it.
    {"doacross", doacross, [] { return kGnuRuntime ? forwarded() : taken(1); },
     "g++: doacross loops are forwarded; clang: taken"},
    {"orphaned", orphaned, [] { return taken(1); }, "one loop"},
    {"orphaned_serial", orphaned_serial, [] { return taken(1); }, "one loop, team of one"},
    {"dynamic_k", dynamic_k, [] { return dynamic_kind(1); }, "taken only with AUTOSCHED_OMP_LOOPS=all"},
    {"guided", guided, [] { return dynamic_kind(1); }, "taken only with AUTOSCHED_OMP_LOOPS=all"},
    {"parallel_for_dynamic_const", parallel_for_dynamic_const, [] { return dynamic_kind(1); },
     "taken only with AUTOSCHED_OMP_LOOPS=all"},
    {"static_loop", static_loop, [] { return Expect{0, 0, false}; }, "never reaches the dispatcher"},
    // The cancelled loop may be taken or forwarded (issue 11: "forwarded
    // untouched, or handled correctly"); the loop after it is taken. Last:
    // natively, LLVM libomp 14 loses iterations of the next region's
    // schedule(runtime) loop after a cancelled one (OMP_SCHEDULE=dynamic,3:
    // 108 of 800), a runtime bug that is not the drop-in's to test.
    {"cancel", cancel, [] { return Expect{1, 2, false}; }, "the loop after the cancel + the cancelled one if taken"},
};

// Each shape runs a few times, so that selectors switch arms between instances.
constexpr int kRuns = 3;

}  // namespace

int main(int argc, char** argv) {
  omp_set_max_active_levels(2);  // the nested shape's inner regions get real teams
  const bool expect = dropin_expect_taken() != 0;
  // Shapes named on the command line run alone, in that order (to debug).
  std::vector<const Shape*> chosen;
  for (int a = 1; a < argc; ++a) {
    for (const Shape& s : shapes) {
      if (std::string_view(argv[a]) == s.name) chosen.push_back(&s);
    }
  }
  if (argc == 1) {
    for (const Shape& s : shapes) chosen.push_back(&s);
  }
  int failed = 0, ran = 0;
  for (const Shape* shape : chosen) {
    const Shape& s = *shape;
    const std::string_view name = s.name;
    if (kArcherBlindSpots && (name == "task_reduction" || name == "task_reduction_ull" || name == "doacross")) {
      std::printf("shape %s skipped: Archer 14 reports races on it natively\n", s.name);
      continue;
    }
    ++ran;
    nested_inner_teams = 0;
    const autosched_omp_counts before = dropin_counts();
    bool ok = true;
    for (int r = 0; r < kRuns; ++r) ok &= s.run();
    const autosched_omp_counts after = dropin_counts();
    const Expect e = s.expect != nullptr ? s.expect() : taken(kRuns + nested_inner_teams.load());
    const unsigned long long lo = s.expect != nullptr ? e.min * kRuns : e.min;
    const unsigned long long hi = s.expect != nullptr ? e.max * kRuns : e.max;
    const unsigned long long instances = after.instances - before.instances;
    const unsigned long long forwards = after.forwarded - before.forwarded;
    if (expect && (instances < lo || instances > hi)) {
      std::fprintf(stderr, "shape %s: the drop-in scheduled %llu loop instances in %d runs, expected %llu..%llu (%s)\n",
                   s.name, instances, kRuns, lo, hi, s.why);
      ok = false;
    }
    if (expect && e.must_account && instances + forwards == 0) {
      std::fprintf(stderr, "shape %s: the drop-in neither scheduled nor forwarded the loop: it never saw it (%s)\n",
                   s.name, s.why);
      ok = false;
    }
    if (expect && e.must_forward && forwards == 0) {
      std::fprintf(stderr, "shape %s: nothing was forwarded to the OpenMP runtime (%s)\n", s.name, s.why);
      ok = false;
    }
    if (!ok) ++failed;
  }
  const autosched_omp_counts total = dropin_counts();
  if (expect && total.instances == 0) {
    std::fprintf(stderr, "the drop-in is loaded but scheduled no loop instance at all\n");
    ++failed;
  } else if (expect && !dropin_last_instance_ok()) {
    ++failed;
  }
  if (ran == 0) {
    std::fprintf(stderr, "no shape of that name\n");
    return 2;
  }
  std::printf("%d of %d shapes %s; drop-in: %llu loops, %llu instances, %llu chunks, %llu forwarded\n", ran - failed,
              ran, expect ? "correct and taken as expected" : "correct (counts not asserted)", total.loops,
              total.instances, total.chunks, total.forwarded);
  return failed == 0 ? 0 : 1;
}
