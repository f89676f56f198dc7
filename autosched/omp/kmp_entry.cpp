/// @file
/// LLVM libomp's dispatcher entry points, as clang 14 emits them for
/// `schedule(runtime)` (and, with AUTOSCHED_OMP_LOOPS=all, dynamic and guided)
/// loops, and the region entry point that names the team.
///
/// libomp's loops: iterations lb, lb+st, … up to ub inclusive; a chunk is
/// reported as inclusive [p_lb, p_ub] with p_last set on the chunk holding the
/// final iteration. Every thread calls init once per instance and next until
/// it returns 0; there is no end call (fini is for `ordered` loops, which are
/// never taken), so a taken loop ends for a thread at its last next.

#include <autosched/measure/clock.hpp>
#include <autosched/omp/dropin_loop.hpp>
#include <autosched/omp/real_runtime.hpp>
#include <autosched/omp/static_loops.hpp>

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <limits>

#define AUTOSCHED_OMP_EXPORT extern "C" __attribute__((visibility("default")))
#define AUTOSCHED_CALL_SITE __builtin_return_address(0)

namespace autosched::omp {
namespace {

using u64 = std::uint64_t;
using kmp_int32 = std::int32_t;

/// The part of libomp's ident_t the drop-in reads: the source string.
struct Ident {
  kmp_int32 reserved_1;
  kmp_int32 flags;
  kmp_int32 reserved_2;
  kmp_int32 reserved_3;
  const char* psource;
};

/// libomp's schedule codes (kmp.h): the kinds the drop-in may take, and the
/// modifier bits clang ≥ 13 adds (runtime loops arrive as nonmonotonic). The
/// modifiers are masked, never turned into another kind (LB4OMP maps them to
/// static_steal without saying so).
constexpr int sch_dynamic_chunked = 35, sch_guided_chunked = 36, sch_runtime = 37;
constexpr int sch_guided_iterative = 42, sch_guided_analytical = 43;
constexpr int sch_modifiers = (1 << 29) | (1 << 30);
/// __kmpc_cancel's kind for a loop.
constexpr kmp_int32 cancel_loop = 2;

constexpr int ord_lower = 64, ord_upper = 72;

bool asked_of(int schedule, AskedKind& asked) noexcept {
  const int kind = schedule & ~sch_modifiers;
  if (kind > ord_lower && kind < ord_upper) {
    forward(ForwardReason::ordered);
    return false;
  }
  switch (kind) {
    case sch_runtime: asked = AskedKind::runtime; return true;
    case sch_dynamic_chunked: asked = AskedKind::dynamic; return true;
    case sch_guided_chunked:
    case sch_guided_iterative:
    case sch_guided_analytical: asked = AskedKind::guided; return true;
    default: forward(ForwardReason::other_kind); return false;  // static kinds, static_steal, …: libomp's own
  }
}

/// Iterations of lb..ub (inclusive) by st, in the loop's integer type.
template <class T, class S>
u64 count(T lb, T ub, S st) noexcept {
  if (st > 0 && lb <= ub) return (static_cast<u64>(ub) - static_cast<u64>(lb)) / static_cast<u64>(st) + 1;
  if (st < 0 && lb >= ub) return (static_cast<u64>(lb) - static_cast<u64>(ub)) / (0 - static_cast<u64>(st)) + 1;
  return 0;
}

template <class T, class S>
bool init(const void* site, const Ident* loc, int schedule, T lb, T ub, S st, S chunk) noexcept {
  AskedKind asked{};
  if (!asked_of(schedule, asked)) return false;
  LoopCall c;
  c.return_address = site;
  c.source = loc != nullptr ? loc->psource : nullptr;
  c.runtime = Runtime::kmp;
  c.asked = asked;
  c.asked_chunk = static_cast<long>(chunk);
  c.n = count(lb, ub, st);
  c.first = static_cast<u64>(static_cast<std::int64_t>(lb));
  if constexpr (std::is_unsigned_v<T>) c.first = static_cast<u64>(lb);
  c.step = static_cast<u64>(static_cast<std::int64_t>(st));
  return take(c);
}

template <class T, class S>
int next(TeamState& ts, kmp_int32* p_last, T* p_lb, T* p_ub, S* p_st) noexcept {
  const IndexRange c = next_chunk(ts);
  if (c.empty()) {
    finish(ts);
    return 0;
  }
  const ActiveLoop& a = ts.active;
  *p_lb = static_cast<T>(value_at(a, c.begin));
  *p_ub = static_cast<T>(value_at(a, c.end - 1));
  if (p_st != nullptr) *p_st = static_cast<S>(static_cast<std::int64_t>(a.step));
  if (p_last != nullptr) *p_last = c.end == a.n ? 1 : 0;
  return 1;
}

/// A unit chunk as libomp values (next_unit_chunk); false: take the next path.
template <class T, class S>
inline bool unit_next(kmp_int32* p_last, T* p_lb, T* p_ub, S* p_st) noexcept {
  std::int64_t i = 0;
  const ActiveLoop* a = next_unit_chunk(i);
  if (a == nullptr) return false;
  *p_lb = *p_ub = static_cast<T>(value_at(*a, i));
  if (p_st != nullptr) *p_st = static_cast<S>(static_cast<std::int64_t>(a->step));
  if (p_last != nullptr) *p_last = i + 1 == a->n ? 1 : 0;
  return true;
}

template <class T, class S>
using NextFn = int(Ident*, kmp_int32, kmp_int32*, T*, T*, S*);

/// static-steal's own chunk as libomp values (next_owned_chunk), else
/// `General`: what an entry point tail-calls when the unit path has nothing.
template <class T, class S, NextFn<T, S>* General>
[[gnu::noinline]] int owned_or(Ident* loc, kmp_int32 gtid, kmp_int32* p_last, T* p_lb, T* p_ub, S* p_st) noexcept {
  std::int64_t b = 0, e = 0;
  if (const ActiveLoop* a = next_owned_chunk(b, e)) [[likely]] {
    *p_lb = static_cast<T>(value_at(*a, b));
    *p_ub = static_cast<T>(value_at(*a, e - 1));
    if (p_st != nullptr) *p_st = static_cast<S>(static_cast<std::int64_t>(a->step));
    if (p_last != nullptr) *p_last = e == a->n ? 1 : 0;
    return 1;
  }
  return General(loc, gtid, p_last, p_lb, p_ub, p_st);
}

bool ours(const TeamState& ts) noexcept { return ts.active.mode != ActiveLoop::Mode::none; }

}  // namespace
}  // namespace autosched::omp

using namespace autosched::omp;

#define AUTOSCHED_KMP_DISPATCH(suffix, T, S)                                                                   \
  AUTOSCHED_OMP_EXPORT void __kmpc_dispatch_init_##suffix(Ident* loc, kmp_int32 gtid, int schedule, T lb, T ub, \
                                                          S st, S chunk) {                                     \
    finish(current_team()); /* a loop this thread left early (cancel for) is over */                           \
    if (init(AUTOSCHED_CALL_SITE, loc, schedule, lb, ub, st, chunk)) return;                                   \
    using Init = void(Ident*, kmp_int32, int, T, T, S, S);                                                     \
    static Init* const real_init = real<Init>("__kmpc_dispatch_init_" #suffix);                               \
    real_init(loc, gtid, schedule, lb, ub, st, chunk);                                                         \
  }                                                                                                            \
  [[gnu::noinline]] static int slow_kmpc_dispatch_next_##suffix(Ident* loc, kmp_int32 gtid, kmp_int32* p_last,  \
                                                                T* p_lb, T* p_ub, S* p_st) {                  \
    TeamState& ts = current_team();                                                                            \
    if (ours(ts)) return next(ts, p_last, p_lb, p_ub, p_st);                                                   \
    using Next = int(Ident*, kmp_int32, kmp_int32*, T*, T*, S*);                                               \
    static Next* const real_next = real<Next>("__kmpc_dispatch_next_" #suffix);                               \
    return real_next(loc, gtid, p_last, p_lb, p_ub, p_st);                                                     \
  }                                                                                                            \
  AUTOSCHED_OMP_EXPORT int __kmpc_dispatch_next_##suffix(Ident* loc, kmp_int32 gtid, kmp_int32* p_last, T* p_lb, \
                                                         T* p_ub, S* p_st) {                                   \
    if (unit_next(p_last, p_lb, p_ub, p_st)) [[likely]] return 1;                                               \
    return owned_or<T, S, slow_kmpc_dispatch_next_##suffix>(loc, gtid, p_last, p_lb, p_ub, p_st);              \
  }                                                                                                            \
  AUTOSCHED_OMP_EXPORT void __kmpc_dispatch_fini_##suffix(Ident* loc, kmp_int32 gtid) {                        \
    if (ours(current_team())) return;                                                                          \
    using Fini = void(Ident*, kmp_int32);                                                                      \
    static Fini* const real_fini = real<Fini>("__kmpc_dispatch_fini_" #suffix);                               \
    real_fini(loc, gtid);                                                                                      \
  }

AUTOSCHED_KMP_DISPATCH(4, std::int32_t, std::int32_t)
AUTOSCHED_KMP_DISPATCH(4u, std::uint32_t, std::int32_t)
AUTOSCHED_KMP_DISPATCH(8, std::int64_t, std::int64_t)
AUTOSCHED_KMP_DISPATCH(8u, std::uint64_t, std::int64_t)

// Newer clang ends each dispatched loop with deinit; a runtime without it
// never sees the call.
AUTOSCHED_OMP_EXPORT void __kmpc_dispatch_deinit(Ident* loc, kmp_int32 gtid) {
  TeamState& ts = current_team();
  if (ours(ts)) {
    finish(ts);
    return;
  }
  using Deinit = void(Ident*, kmp_int32);
  static Deinit* const real_deinit = real<Deinit>("__kmpc_dispatch_deinit");
  real_deinit(loc, gtid);
}

// `cancel for` in a taken loop: the instance stops handing out chunks; libomp
// still records the request for its cancellation points and resets it at the
// cancel barrier, as for its own loops.
AUTOSCHED_OMP_EXPORT kmp_int32 __kmpc_cancel(Ident* loc, kmp_int32 gtid, kmp_int32 kind) {
  using Cancel = kmp_int32(Ident*, kmp_int32, kmp_int32);
  static Cancel* const real_cancel = real<Cancel>("__kmpc_cancel");
  const kmp_int32 cancelled = real_cancel(loc, gtid, kind);
  TeamState& ts = current_team();
  if (kind == cancel_loop && cancelled != 0 && ours(ts)) cancel_active(ts);
  return cancelled;
}

// ---- parallel regions -------------------------------------------------------

namespace {

using Microtask = void (*)(kmp_int32*, kmp_int32*, ...);

/// The region's outlined function and its shared arguments, behind the
/// trampoline every thread of the team runs, and the static loops the region
/// instance met (learned from when the frame goes, after the join).
struct ForkFrame {
  Microtask microtask;
  kmp_int32 argc;
  void** args;
  RegionStatics statics;
};

constexpr int max_direct_args = 16;

/// Calls the outlined function with its arguments; clang passes each shared
/// variable as one pointer-sized argument.
void invoke(Microtask f, kmp_int32* gtid, kmp_int32* btid, int argc, void** a) {
  switch (argc) {
    case 0: f(gtid, btid); return;
    case 1: f(gtid, btid, a[0]); return;
    case 2: f(gtid, btid, a[0], a[1]); return;
    case 3: f(gtid, btid, a[0], a[1], a[2]); return;
    case 4: f(gtid, btid, a[0], a[1], a[2], a[3]); return;
    case 5: f(gtid, btid, a[0], a[1], a[2], a[3], a[4]); return;
    case 6: f(gtid, btid, a[0], a[1], a[2], a[3], a[4], a[5]); return;
    case 7: f(gtid, btid, a[0], a[1], a[2], a[3], a[4], a[5], a[6]); return;
    case 8: f(gtid, btid, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]); return;
    case 9: f(gtid, btid, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8]); return;
    case 10: f(gtid, btid, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9]); return;
    case 11: f(gtid, btid, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10]); return;
    case 12: f(gtid, btid, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11]); return;
    case 13: f(gtid, btid, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12]); return;
    case 14:
      f(gtid, btid, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13]);
      return;
    case 15:
      f(gtid, btid, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13], a[14]);
      return;
    case 16:
      f(gtid, btid, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13], a[14],
        a[15]);
      return;
    default: break;
  }
  // More arguments than spelled out: libomp's own invoker takes any count.
  using Invoke = int(Microtask, int, int, int, void**, void**);
  static Invoke* const kmp_invoke = real<Invoke>("__kmp_invoke_microtask");
  void* exit_frame = nullptr;
  (void)kmp_invoke(f, *gtid, *btid, argc, a, &exit_frame);
}

void run_region(kmp_int32* gtid, kmp_int32* btid, ForkFrame* frame) {
  TeamScope team(frame);
  invoke(frame->microtask, gtid, btid, frame->argc, frame->args);
}

}  // namespace

AUTOSCHED_OMP_EXPORT void __kmpc_fork_call(Ident* loc, kmp_int32 argc, Microtask microtask, ...) {
  using ForkCall = void(Ident*, kmp_int32, Microtask, ...);
  static ForkCall* const real_fork = real<ForkCall>("__kmpc_fork_call");
  note_region();
  void* inline_args[max_direct_args];
  void** args = inline_args;
  if (argc > max_direct_args) {  // malloc: nothing may throw through the runtime's C frames
    args = static_cast<void**>(std::malloc(sizeof(void*) * static_cast<std::size_t>(argc)));
    if (args == nullptr) {
      std::fprintf(stderr, "autosched-omp: error: out of memory starting a parallel region\n");
      std::abort();
    }
  }
  va_list ap;
  va_start(ap, microtask);
  for (kmp_int32 i = 0; i < argc; ++i) args[i] = va_arg(ap, void*);
  va_end(ap);
  {
    ForkFrame frame{microtask, argc, args, RegionStatics(reinterpret_cast<const void*>(microtask))};
    real_fork(loc, 1, reinterpret_cast<Microtask>(&run_region), &frame);
  }
  if (args != inline_args) std::free(args);
}

// ---- static loops (AUTOSCHED_OMP_LOOPS=static, static_loops.hpp) -------------

namespace {

/// libomp's plain static kind (no chunk), and ident_t's flags of sections
/// and distribute, which call the same entry. clang marks a loop with a flag
/// of its own (0x200); flang 16 marks none, so a loop is what is neither.
constexpr kmp_int32 sch_static = 34;
constexpr kmp_int32 ident_work_sections = 0x400, ident_work_distribute = 0x800;

template <class T, class S>
using StaticInit = void(Ident*, kmp_int32, kmp_int32, kmp_int32*, T*, T*, S*, S, S);

/// Where a static loop the drop-in takes stands for the runtime: a taken
/// loop's thread gets the block [b, e) of indices of its team's partition,
/// in the loop's integer type, as libomp's unchunked static would report it:
/// inclusive bounds, stride = the trip count, lastiter on the block holding
/// the final iteration, and an empty block as lower = upper + incr (the
/// compiled code then skips the body).
template <class T, class S>
void give_block(std::int64_t b, std::int64_t e, u64 n, kmp_int32* plastiter, T* plower, T* pupper, S* pstride,
                S incr) noexcept {
  const u64 first = static_cast<u64>(*plower);
  const u64 step = static_cast<u64>(static_cast<std::int64_t>(incr));
  if (e > b) {
    *plower = static_cast<T>(first + static_cast<u64>(b) * step);
    *pupper = static_cast<T>(first + static_cast<u64>(e - 1) * step);
  } else {
    *plower = static_cast<T>(static_cast<u64>(*pupper) + step);
  }
  if (plastiter != nullptr) *plastiter = e > b && static_cast<u64>(e) == n ? 1 : 0;
  *pstride = static_cast<S>(n);
}

/// The index range [begin, end) of the block the runtime gave this thread.
template <class T, class S>
void note_runtime_block(StaticSlot& s, int tid, u64 first, T lower, T upper, S incr) noexcept {
  const u64 got = count(lower, upper, incr);
  if (got == 0) return;  // an empty block: begin = end = 0
  const u64 offset = incr > 0 ? static_cast<u64>(lower) - first : first - static_cast<u64>(lower);
  const u64 magnitude = incr > 0 ? static_cast<u64>(incr) : 0 - static_cast<u64>(static_cast<std::int64_t>(incr));
  s.begin[tid] = static_cast<std::int64_t>(offset / magnitude);
  s.end[tid] = s.begin[tid] + static_cast<std::int64_t>(got);
}

template <class T, class S>
void static_init(StaticInit<T, S>* real_init, Ident* loc, kmp_int32 gtid, kmp_int32 schedtype, kmp_int32* plastiter,
                 T* plower, T* pupper, S* pstride, S incr, S chunk) noexcept {
  using Count = int();
  static Count* const num_threads = real<Count>("omp_get_num_threads");
  static Count* const thread_num = real<Count>("omp_get_thread_num");
  static Count* const num_teams = real<Count>("omp_get_num_teams");
  TeamState& ts = current_team();
  ts.static_slot = nullptr;
  if (schedtype != sch_static || loc == nullptr || (loc->flags & (ident_work_sections | ident_work_distribute)) != 0 ||
      (num_teams != nullptr && num_teams() > 1)) {
    forward(ForwardReason::static_kind);
    return real_init(loc, gtid, schedtype, plastiter, plower, pupper, pstride, incr, chunk);
  }
  const u64 n = count(*plower, *pupper, incr);
  const int p = num_threads();
  // An empty loop or a team of one: nothing to divide.
  if (n == 0 || p <= 1) return real_init(loc, gtid, schedtype, plastiter, plower, pupper, pstride, incr, chunk);
  if (ts.team == nullptr || n > static_cast<u64>(std::numeric_limits<std::int64_t>::max())) {
    forward(ts.team == nullptr ? ForwardReason::unknown_team : ForwardReason::too_many_iterations);
    return real_init(loc, gtid, schedtype, plastiter, plower, pupper, pstride, incr, chunk);
  }
  const int tid = thread_num();
  auto* frame = static_cast<ForkFrame*>(const_cast<void*>(ts.team));
  StaticSlot* s = tid >= 0 && tid < p ? frame->statics.slot(static_cast<std::int64_t>(n), p) : nullptr;
  if (s == nullptr) return real_init(loc, gtid, schedtype, plastiter, plower, pupper, pstride, incr, chunk);
  const u64 first = static_cast<u64>(*plower);
  if (s->blocks) {
    const std::int64_t b = (*s->blocks)[tid], e = (*s->blocks)[tid + 1];
    give_block(b, e, n, plastiter, plower, pupper, pstride, incr);
    s->begin[tid] = b;
    s->end[tid] = e;
  } else {
    real_init(loc, gtid, schedtype, plastiter, plower, pupper, pstride, incr, chunk);
    note_runtime_block(*s, tid, first, *plower, *pupper, incr);
  }
  ts.static_slot = s;
  ts.static_tid = tid;
  ts.static_native = !s->blocks.has_value();
  ts.static_start_ns = autosched::now_ns();
}

}  // namespace

#define AUTOSCHED_OMP_STATIC_INIT(suffix, T, S)                                                                  \
  AUTOSCHED_OMP_EXPORT void __kmpc_for_static_init_##suffix(Ident* loc, kmp_int32 gtid, kmp_int32 schedtype,   \
                                                            kmp_int32* plastiter, T* plower, T* pupper,         \
                                                            S* pstride, S incr, S chunk) {                      \
    static StaticInit<T, S>* const real_init = real<StaticInit<T, S>>("__kmpc_for_static_init_" #suffix);        \
    if (!takes_static()) [[likely]]                                                                              \
      return real_init(loc, gtid, schedtype, plastiter, plower, pupper, pstride, incr, chunk);                   \
    static_init<T, S>(real_init, loc, gtid, schedtype, plastiter, plower, pupper, pstride, incr, chunk);        \
  }

AUTOSCHED_OMP_STATIC_INIT(4, std::int32_t, std::int32_t)
AUTOSCHED_OMP_STATIC_INIT(4u, std::uint32_t, std::int32_t)
AUTOSCHED_OMP_STATIC_INIT(8, std::int64_t, std::int64_t)
AUTOSCHED_OMP_STATIC_INIT(8u, std::uint64_t, std::int64_t)

AUTOSCHED_OMP_EXPORT void __kmpc_for_static_fini(Ident* loc, kmp_int32 gtid) {
  using Fini = void(Ident*, kmp_int32);
  static Fini* const real_fini = real<Fini>("__kmpc_for_static_fini");
  if (TeamState* ts = thread_state::current; ts != nullptr && ts->static_slot != nullptr) {
    StaticSlot* s = ts->static_slot;
    ts->static_slot = nullptr;
    s->ns[ts->static_tid] += autosched::now_ns() - ts->static_start_ns;
    if (!ts->static_native) return;  // the runtime's init never saw this loop
  }
  real_fini(loc, gtid);
}
