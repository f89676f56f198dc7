/// @file
/// libgomp's entry points for loops, as g++ 12 and gfortran 12 emit them
/// (docs/dropin.md lists which construct calls which). Each loop entry point
/// asks the drop-in to take the loop and, when it does not, calls the real
/// one with the same arguments; the region entry points run the region's
/// function through a trampoline that names the team (team_state.hpp).
///
/// libgomp's loops: iterations start, start+incr, … while < end (incr > 0)
/// or > end (incr < 0); a chunk is [istart, iend) in the same values. The
/// `ull` forms carry the direction in `up` and a negative incr as its two's
/// complement. A loop the drop-in takes never creates a libgomp work share,
/// so its GOMP_loop_end* must not reach libgomp's: they end the drop-in's
/// loop and keep the barrier (GOMP_barrier, GOMP_barrier_cancel).

#include <autosched/omp/dropin_loop.hpp>
#include <autosched/omp/real_runtime.hpp>

#include <cstdint>

#define AUTOSCHED_OMP_EXPORT extern "C" __attribute__((visibility("default")))
#define AUTOSCHED_CALL_SITE __builtin_return_address(0)

namespace autosched::omp {
namespace {

using u64 = std::uint64_t;
using ull = unsigned long long;
using RegionFn = void (*)(void*);

/// libgomp's schedule codes (GOMP_loop_start's `sched`).
constexpr long gfs_runtime = 0, gfs_dynamic = 2, gfs_guided = 3;
constexpr long gfs_monotonic = 0x80000000L;
/// GOMP_cancel's `which` for a loop.
constexpr int gomp_cancel_loop = 2;

u64 count_long(long start, long end, long incr) noexcept {
  if (incr > 0 && start < end) return (static_cast<u64>(end) - static_cast<u64>(start) - 1) / static_cast<u64>(incr) + 1;
  if (incr < 0 && start > end) return (static_cast<u64>(start) - static_cast<u64>(end) - 1) / (0 - static_cast<u64>(incr)) + 1;
  return 0;
}

u64 count_ull(bool up, ull start, ull end, ull incr) noexcept {
  if (up && start < end && incr != 0) return (end - start - 1) / incr + 1;
  if (!up && start > end && incr != 0) return (start - end - 1) / (0 - incr) + 1;
  return 0;
}

LoopCall call_long(const void* site, AskedKind asked, long chunk, long start, long end, long incr) noexcept {
  LoopCall c;
  c.return_address = site;
  c.runtime = Runtime::gomp;
  c.asked = asked;
  c.asked_chunk = chunk;
  c.n = count_long(start, end, incr);
  c.first = static_cast<u64>(start);
  c.step = static_cast<u64>(incr);
  c.end_value = static_cast<u64>(end);
  return c;
}

LoopCall call_ull(const void* site, AskedKind asked, long chunk, bool up, ull start, ull end, ull incr) noexcept {
  LoopCall c;
  c.return_address = site;
  c.runtime = Runtime::gomp;
  c.asked = asked;
  c.asked_chunk = chunk;
  c.n = count_ull(up, start, end, incr);
  c.first = start;
  c.step = incr;
  c.end_value = end;
  return c;
}

/// The active loop's next chunk as libgomp values.
template <class T>
bool next_values(TeamState& ts, T* istart, T* iend) noexcept {
  const IndexRange c = next_chunk(ts);
  if (c.empty()) return false;
  const ActiveLoop& a = ts.active;
  *istart = static_cast<T>(value_at(a, c.begin));
  *iend = static_cast<T>(c.end == a.n ? a.end_value : value_at(a, c.end));
  return true;
}

bool ours(const TeamState& ts) noexcept { return ts.active.mode != ActiveLoop::Mode::none; }

/// A unit chunk as libgomp values (next_unit_chunk); false: take the next path.
template <class T>
inline bool unit_values(T* istart, T* iend) noexcept {
  std::int64_t i = 0;
  const ActiveLoop* a = next_unit_chunk(i);
  if (a == nullptr) return false;
  *istart = static_cast<T>(value_at(*a, i));
  *iend = static_cast<T>(i + 1 == a->n ? a->end_value : value_at(*a, i + 1));
  return true;
}

/// static-steal's own chunk as libgomp values (next_owned_chunk), else
/// `General`: what an entry point tail-calls when the unit path has nothing.
template <class T, bool (*General)(T*, T*)>
[[gnu::noinline]] bool owned_or(T* istart, T* iend) noexcept {
  std::int64_t b = 0, e = 0;
  if (const ActiveLoop* a = next_owned_chunk(b, e)) [[likely]] {
    *istart = static_cast<T>(value_at(*a, b));
    *iend = static_cast<T>(e == a->n ? a->end_value : value_at(*a, e));
    return true;
  }
  return General(istart, iend);
}

/// The region's function and data, behind the trampoline every thread runs.
struct RegionFrame {
  RegionFn fn;
  void* data;
  LoopCall loop;       ///< combined parallel-loop forms: the loop every thread enters
  bool has_loop = false;
};

void run_region(void* frame_ptr) {
  auto* frame = static_cast<RegionFrame*>(frame_ptr);
  TeamScope team(frame);
  if (frame->has_loop) (void)take(frame->loop);  // decided for the team before the region: it takes
  frame->fn(frame->data);
}

// ---- the start/next pairs, one body per family -----------------------------

using LongStart = bool(long, long, long, long*, long*);
using LongChunkStart = bool(long, long, long, long, long*, long*);
using LongNext = bool(long*, long*);
using UllStart = bool(bool, ull, ull, ull, ull*, ull*);
using UllChunkStart = bool(bool, ull, ull, ull, ull, ull*, ull*);
using UllNext = bool(ull*, ull*);

}  // namespace
}  // namespace autosched::omp

using namespace autosched::omp;

// Runtime loops, `for (…) schedule(runtime)`: the long and ull start/next
// pairs, in the plain, nonmonotonic and maybe_nonmonotonic spellings (g++ 12
// emits maybe_nonmonotonic for a bare schedule(runtime)).
#define AUTOSCHED_GOMP_RUNTIME_LOOP(prefix)                                                                  \
  AUTOSCHED_OMP_EXPORT bool GOMP_loop_##prefix##runtime_start(long start, long end, long incr, long* istart,   \
                                                              long* iend) {                                   \
    if (take(call_long(AUTOSCHED_CALL_SITE, AskedKind::runtime, 0, start, end, incr)))                        \
      return next_values(current_team(), istart, iend);                                                       \
    static LongStart* const real_start = real<LongStart>("GOMP_loop_" #prefix "runtime_start");              \
    return real_start(start, end, incr, istart, iend);                                                        \
  }                                                                                                           \
  [[gnu::noinline]] static bool slow_GOMP_loop_##prefix##runtime_next(long* istart, long* iend) {             \
    TeamState& ts = current_team();                                                                           \
    if (ours(ts)) return next_values(ts, istart, iend);                                                       \
    static LongNext* const real_next = real<LongNext>("GOMP_loop_" #prefix "runtime_next");                   \
    return real_next(istart, iend);                                                                           \
  }                                                                                                           \
  AUTOSCHED_OMP_EXPORT bool GOMP_loop_##prefix##runtime_next(long* istart, long* iend) {                      \
    if (unit_values(istart, iend)) [[likely]] return true;                                                    \
    return owned_or<long, slow_GOMP_loop_##prefix##runtime_next>(istart, iend);                               \
  }                                                                                                           \
  AUTOSCHED_OMP_EXPORT bool GOMP_loop_ull_##prefix##runtime_start(bool up, ull start, ull end, ull incr,      \
                                                                  ull* istart, ull* iend) {                   \
    if (take(call_ull(AUTOSCHED_CALL_SITE, AskedKind::runtime, 0, up, start, end, incr)))                     \
      return next_values(current_team(), istart, iend);                                                       \
    static UllStart* const real_start = real<UllStart>("GOMP_loop_ull_" #prefix "runtime_start");            \
    return real_start(up, start, end, incr, istart, iend);                                                    \
  }                                                                                                           \
  [[gnu::noinline]] static bool slow_GOMP_loop_ull_##prefix##runtime_next(ull* istart, ull* iend) {           \
    TeamState& ts = current_team();                                                                           \
    if (ours(ts)) return next_values(ts, istart, iend);                                                       \
    static UllNext* const real_next = real<UllNext>("GOMP_loop_ull_" #prefix "runtime_next");                 \
    return real_next(istart, iend);                                                                           \
  }                                                                                                           \
  AUTOSCHED_OMP_EXPORT bool GOMP_loop_ull_##prefix##runtime_next(ull* istart, ull* iend) {                    \
    if (unit_values(istart, iend)) [[likely]] return true;                                                    \
    return owned_or<ull, slow_GOMP_loop_ull_##prefix##runtime_next>(istart, iend);                            \
  }

AUTOSCHED_GOMP_RUNTIME_LOOP()
AUTOSCHED_GOMP_RUNTIME_LOOP(nonmonotonic_)
AUTOSCHED_GOMP_RUNTIME_LOOP(maybe_nonmonotonic_)

// dynamic and guided loops, taken with AUTOSCHED_OMP_LOOPS=all.
#define AUTOSCHED_GOMP_KIND_LOOP(name, kind)                                                                  \
  AUTOSCHED_OMP_EXPORT bool GOMP_loop_##name##_start(long start, long end, long incr, long chunk, long* istart, \
                                                     long* iend) {                                            \
    if (take(call_long(AUTOSCHED_CALL_SITE, kind, chunk, start, end, incr)))                                  \
      return next_values(current_team(), istart, iend);                                                       \
    static LongChunkStart* const real_start = real<LongChunkStart>("GOMP_loop_" #name "_start");             \
    return real_start(start, end, incr, chunk, istart, iend);                                                 \
  }                                                                                                           \
  [[gnu::noinline]] static bool slow_GOMP_loop_##name##_next(long* istart, long* iend) {                      \
    TeamState& ts = current_team();                                                                           \
    if (ours(ts)) return next_values(ts, istart, iend);                                                       \
    static LongNext* const real_next = real<LongNext>("GOMP_loop_" #name "_next");                            \
    return real_next(istart, iend);                                                                           \
  }                                                                                                           \
  AUTOSCHED_OMP_EXPORT bool GOMP_loop_##name##_next(long* istart, long* iend) {                               \
    if (unit_values(istart, iend)) [[likely]] return true;                                                    \
    return owned_or<long, slow_GOMP_loop_##name##_next>(istart, iend);                                        \
  }                                                                                                           \
  AUTOSCHED_OMP_EXPORT bool GOMP_loop_ull_##name##_start(bool up, ull start, ull end, ull incr, ull chunk,    \
                                                         ull* istart, ull* iend) {                            \
    if (take(call_ull(AUTOSCHED_CALL_SITE, kind, static_cast<long>(chunk), up, start, end, incr)))            \
      return next_values(current_team(), istart, iend);                                                       \
    static UllChunkStart* const real_start = real<UllChunkStart>("GOMP_loop_ull_" #name "_start");           \
    return real_start(up, start, end, incr, chunk, istart, iend);                                             \
  }                                                                                                           \
  [[gnu::noinline]] static bool slow_GOMP_loop_ull_##name##_next(ull* istart, ull* iend) {                    \
    TeamState& ts = current_team();                                                                           \
    if (ours(ts)) return next_values(ts, istart, iend);                                                       \
    static UllNext* const real_next = real<UllNext>("GOMP_loop_ull_" #name "_next");                          \
    return real_next(istart, iend);                                                                           \
  }                                                                                                           \
  AUTOSCHED_OMP_EXPORT bool GOMP_loop_ull_##name##_next(ull* istart, ull* iend) {                             \
    if (unit_values(istart, iend)) [[likely]] return true;                                                    \
    return owned_or<ull, slow_GOMP_loop_ull_##name##_next>(istart, iend);                                     \
  }

AUTOSCHED_GOMP_KIND_LOOP(dynamic, AskedKind::dynamic)
AUTOSCHED_GOMP_KIND_LOOP(nonmonotonic_dynamic, AskedKind::dynamic)
AUTOSCHED_GOMP_KIND_LOOP(guided, AskedKind::guided)
AUTOSCHED_GOMP_KIND_LOOP(nonmonotonic_guided, AskedKind::guided)

// Ordered loops stay with libgomp (GOMP_ordered_start/end follow its work
// share); they are only counted, so the report says what was not taken.
#define AUTOSCHED_GOMP_ORDERED_RUNTIME()                                                                      \
  AUTOSCHED_OMP_EXPORT bool GOMP_loop_ordered_runtime_start(long start, long end, long incr, long* istart,      \
                                                            long* iend) {                                     \
    forward(ForwardReason::ordered);                                                                          \
    static LongStart* const real_start = real<LongStart>("GOMP_loop_ordered_runtime_start");                 \
    return real_start(start, end, incr, istart, iend);                                                        \
  }                                                                                                           \
  AUTOSCHED_OMP_EXPORT bool GOMP_loop_ull_ordered_runtime_start(bool up, ull start, ull end, ull incr,         \
                                                                ull* istart, ull* iend) {                     \
    forward(ForwardReason::ordered);                                                                          \
    static UllStart* const real_start = real<UllStart>("GOMP_loop_ull_ordered_runtime_start");               \
    return real_start(up, start, end, incr, istart, iend);                                                    \
  }
#define AUTOSCHED_GOMP_ORDERED_KIND(kind)                                                                     \
  AUTOSCHED_OMP_EXPORT bool GOMP_loop_ordered_##kind##_start(long start, long end, long incr, long chunk,      \
                                                             long* istart, long* iend) {                      \
    forward(ForwardReason::ordered);                                                                          \
    static LongChunkStart* const real_start = real<LongChunkStart>("GOMP_loop_ordered_" #kind "_start");     \
    return real_start(start, end, incr, chunk, istart, iend);                                                 \
  }                                                                                                           \
  AUTOSCHED_OMP_EXPORT bool GOMP_loop_ull_ordered_##kind##_start(bool up, ull start, ull end, ull incr,        \
                                                                 ull chunk, ull* istart, ull* iend) {         \
    forward(ForwardReason::ordered);                                                                          \
    static UllChunkStart* const real_start = real<UllChunkStart>("GOMP_loop_ull_ordered_" #kind "_start");   \
    return real_start(up, start, end, incr, chunk, istart, iend);                                             \
  }

// Doacross loops (ordered(n) with depend): their posts and waits live in
// libgomp's work share, so they stay there too; g++ continues them through
// GOMP_loop_runtime_next, which forwards a loop the drop-in did not take.
#define AUTOSCHED_GOMP_DOACROSS_RUNTIME()                                                                     \
  AUTOSCHED_OMP_EXPORT bool GOMP_loop_doacross_runtime_start(unsigned ncounts, long* counts, long* istart,      \
                                                             long* iend) {                                    \
    forward(ForwardReason::ordered);                                                                          \
    using Start = bool(unsigned, long*, long*, long*);                                                        \
    static Start* const real_start = real<Start>("GOMP_loop_doacross_runtime_start");                        \
    return real_start(ncounts, counts, istart, iend);                                                         \
  }                                                                                                           \
  AUTOSCHED_OMP_EXPORT bool GOMP_loop_ull_doacross_runtime_start(unsigned ncounts, ull* counts, ull* istart,   \
                                                                 ull* iend) {                                 \
    forward(ForwardReason::ordered);                                                                          \
    using Start = bool(unsigned, ull*, ull*, ull*);                                                           \
    static Start* const real_start = real<Start>("GOMP_loop_ull_doacross_runtime_start");                    \
    return real_start(ncounts, counts, istart, iend);                                                         \
  }
#define AUTOSCHED_GOMP_DOACROSS_KIND(kind)                                                                    \
  AUTOSCHED_OMP_EXPORT bool GOMP_loop_doacross_##kind##_start(unsigned ncounts, long* counts, long chunk,      \
                                                              long* istart, long* iend) {                     \
    forward(ForwardReason::ordered);                                                                          \
    using Start = bool(unsigned, long*, long, long*, long*);                                                  \
    static Start* const real_start = real<Start>("GOMP_loop_doacross_" #kind "_start");                      \
    return real_start(ncounts, counts, chunk, istart, iend);                                                  \
  }                                                                                                           \
  AUTOSCHED_OMP_EXPORT bool GOMP_loop_ull_doacross_##kind##_start(unsigned ncounts, ull* counts, ull chunk,    \
                                                                  ull* istart, ull* iend) {                   \
    forward(ForwardReason::ordered);                                                                          \
    using Start = bool(unsigned, ull*, ull, ull*, ull*);                                                      \
    static Start* const real_start = real<Start>("GOMP_loop_ull_doacross_" #kind "_start");                  \
    return real_start(ncounts, counts, chunk, istart, iend);                                                  \
  }

AUTOSCHED_GOMP_ORDERED_RUNTIME()
AUTOSCHED_GOMP_DOACROSS_RUNTIME()
AUTOSCHED_GOMP_DOACROSS_KIND(static)
AUTOSCHED_GOMP_DOACROSS_KIND(dynamic)
AUTOSCHED_GOMP_DOACROSS_KIND(guided)
AUTOSCHED_GOMP_ORDERED_KIND(static)
AUTOSCHED_GOMP_ORDERED_KIND(dynamic)
AUTOSCHED_GOMP_ORDERED_KIND(guided)

namespace {
/// GOMP_loop_start's schedule code as a kind the drop-in may take.
bool asked_of(long sched, AskedKind& asked) noexcept {
  switch (sched & ~gfs_monotonic) {
    case gfs_runtime: asked = AskedKind::runtime; return true;
    case gfs_dynamic: asked = AskedKind::dynamic; return true;
    case gfs_guided: asked = AskedKind::guided; return true;
    default: return false;  // static, auto: libgomp's own, never a dispatcher choice
  }
}
}  // namespace

// The unified start g++ emits for loops with task reductions, lastprivate
// (conditional:) or scan: with reductions or shared memory the work share
// carries more than iterations, so those stay with libgomp (counted).
AUTOSCHED_OMP_EXPORT bool GOMP_loop_start(long start, long end, long incr, long sched, long chunk, long* istart,
                                          long* iend, std::uintptr_t* reductions, void** mem) {
  AskedKind asked{};
  if (asked_of(sched, asked)) {
    if (reductions != nullptr || mem != nullptr || istart == nullptr) {
      if (takes(asked)) forward(ForwardReason::with_reductions);
    } else if (take(call_long(AUTOSCHED_CALL_SITE, asked, chunk, start, end, incr))) {
      return next_values(current_team(), istart, iend);
    }
  }
  using Start = bool(long, long, long, long, long, long*, long*, std::uintptr_t*, void**);
  static Start* const real_start = real<Start>("GOMP_loop_start");
  return real_start(start, end, incr, sched, chunk, istart, iend, reductions, mem);
}

AUTOSCHED_OMP_EXPORT bool GOMP_loop_ull_start(bool up, ull start, ull end, ull incr, long sched, ull chunk,
                                              ull* istart, ull* iend, std::uintptr_t* reductions, void** mem) {
  AskedKind asked{};
  if (asked_of(sched, asked)) {
    if (reductions != nullptr || mem != nullptr || istart == nullptr) {
      if (takes(asked)) forward(ForwardReason::with_reductions);
    } else if (take(call_ull(AUTOSCHED_CALL_SITE, asked, static_cast<long>(chunk), up, start, end, incr))) {
      return next_values(current_team(), istart, iend);
    }
  }
  using Start = bool(bool, ull, ull, ull, long, ull, ull*, ull*, std::uintptr_t*, void**);
  static Start* const real_start = real<Start>("GOMP_loop_ull_start");
  return real_start(up, start, end, incr, sched, chunk, istart, iend, reductions, mem);
}

// ---- the ends -------------------------------------------------------------

AUTOSCHED_OMP_EXPORT void GOMP_loop_end() {
  TeamState& ts = current_team();
  if (ours(ts)) {
    finish(ts);
    static auto* const barrier = real<void()>("GOMP_barrier");
    barrier();
    return;
  }
  static auto* const real_end = real<void()>("GOMP_loop_end");
  real_end();
}

AUTOSCHED_OMP_EXPORT bool GOMP_loop_end_cancel() {
  TeamState& ts = current_team();
  if (ours(ts)) {
    finish(ts);
    // True when the enclosing parallel region was cancelled, as libgomp's.
    static auto* const barrier = real<bool()>("GOMP_barrier_cancel");
    return barrier();
  }
  static auto* const real_end = real<bool()>("GOMP_loop_end_cancel");
  return real_end();
}

AUTOSCHED_OMP_EXPORT void GOMP_loop_end_nowait() {
  TeamState& ts = current_team();
  if (ours(ts)) {
    finish(ts);
    return;
  }
  static auto* const real_end = real<void()>("GOMP_loop_end_nowait");
  real_end();
}

// ---- cancellation of a taken loop ------------------------------------------
// libgomp marks a cancelled loop in its work share, which a taken loop does
// not have: the drop-in keeps the mark in its instance instead, so threads
// stop getting chunks and cancellation points see it; nothing stale is left
// in libgomp for the next loop.

AUTOSCHED_OMP_EXPORT bool GOMP_cancel(int which, bool do_cancel) {
  TeamState& ts = current_team();
  if ((which & gomp_cancel_loop) != 0 && ours(ts)) {
    if (!cancellation_enabled()) return false;
    if (do_cancel) {
      cancel_active(ts);
      return true;
    }
    return ts.active.instance != nullptr && ts.active.instance->cancelled();
  }
  static auto* const real_cancel = real<bool(int, bool)>("GOMP_cancel");
  return real_cancel(which, do_cancel);
}

AUTOSCHED_OMP_EXPORT bool GOMP_cancellation_point(int which) {
  TeamState& ts = current_team();
  if ((which & gomp_cancel_loop) != 0 && ours(ts)) {
    return cancellation_enabled() && ts.active.instance != nullptr && ts.active.instance->cancelled();
  }
  static auto* const real_point = real<bool(int)>("GOMP_cancellation_point");
  return real_point(which);
}

// ---- parallel regions -------------------------------------------------------

AUTOSCHED_OMP_EXPORT void GOMP_parallel(RegionFn fn, void* data, unsigned num_threads, unsigned flags) {
  static auto* const real_parallel = real<void(RegionFn, void*, unsigned, unsigned)>("GOMP_parallel");
  note_region();
  RegionFrame frame{fn, data, {}, false};
  real_parallel(&run_region, &frame, num_threads, flags);
}

AUTOSCHED_OMP_EXPORT unsigned GOMP_parallel_reductions(RegionFn fn, void* data, unsigned num_threads,
                                                       unsigned flags) {
  static auto* const real_parallel = real<unsigned(RegionFn, void*, unsigned, unsigned)>("GOMP_parallel_reductions");
  note_region();
  RegionFrame frame{fn, data, {}, false};
  return real_parallel(&run_region, &frame, num_threads, flags);
}

namespace {
/// `parallel for schedule(…)` in one call: the loop is started for the team
/// by the call, and each thread's function only asks for chunks. The decision
/// is made once here, so that every thread agrees: taken, the region runs
/// through GOMP_parallel with the trampoline entering the loop; refused, the
/// real combined call runs untouched.
template <class RealCombined, class... Extra>
void parallel_loop(const void* site, AskedKind asked, long chunk, RegionFn fn, void* data,
                   unsigned num_threads, long start, long end, long incr, unsigned flags, RealCombined* real_call,
                   Extra... extra) {
  note_region();
  RegionFrame frame{fn, data, call_long(site, asked, chunk, start, end, incr), true};
  if (ForwardReason reason{}; refused(frame.loop, reason)) {
    forward(reason);
    real_call(fn, data, num_threads, start, end, incr, extra..., flags);
    return;
  }
  static auto* const real_parallel = real<void(RegionFn, void*, unsigned, unsigned)>("GOMP_parallel");
  real_parallel(&run_region, &frame, num_threads, flags);
}
using CombinedRuntime = void(RegionFn, void*, unsigned, long, long, long, unsigned);
using CombinedChunk = void(RegionFn, void*, unsigned, long, long, long, long, unsigned);
}  // namespace

#define AUTOSCHED_GOMP_PARALLEL_RUNTIME(prefix)                                                               \
  AUTOSCHED_OMP_EXPORT void GOMP_parallel_loop_##prefix##runtime(RegionFn fn, void* data, unsigned num_threads, \
                                                                 long start, long end, long incr,             \
                                                                 unsigned flags) {                            \
    static CombinedRuntime* const real_call = real<CombinedRuntime>("GOMP_parallel_loop_" #prefix "runtime"); \
    parallel_loop(AUTOSCHED_CALL_SITE, AskedKind::runtime, 0, fn,    \
                  data, num_threads, start, end, incr, flags, real_call);                                     \
  }

AUTOSCHED_GOMP_PARALLEL_RUNTIME()
AUTOSCHED_GOMP_PARALLEL_RUNTIME(nonmonotonic_)
AUTOSCHED_GOMP_PARALLEL_RUNTIME(maybe_nonmonotonic_)

#define AUTOSCHED_GOMP_PARALLEL_KIND(name, kind)                                                              \
  AUTOSCHED_OMP_EXPORT void GOMP_parallel_loop_##name(RegionFn fn, void* data, unsigned num_threads,          \
                                                      long start, long end, long incr, long chunk,            \
                                                      unsigned flags) {                                       \
    static CombinedChunk* const real_call = real<CombinedChunk>("GOMP_parallel_loop_" #name);                \
    parallel_loop(AUTOSCHED_CALL_SITE, kind, chunk, fn, data, num_threads,                                    \
                  start, end, incr, flags, real_call, chunk);                                                 \
  }

AUTOSCHED_GOMP_PARALLEL_KIND(dynamic, AskedKind::dynamic)
AUTOSCHED_GOMP_PARALLEL_KIND(nonmonotonic_dynamic, AskedKind::dynamic)
AUTOSCHED_GOMP_PARALLEL_KIND(guided, AskedKind::guided)
AUTOSCHED_GOMP_PARALLEL_KIND(nonmonotonic_guided, AskedKind::guided)
