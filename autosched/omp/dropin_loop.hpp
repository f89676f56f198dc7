#pragma once
/// @file
/// The runtime-independent part of the drop-in: what a thread does when the
/// program's loop starts, asks for a chunk, and ends, whichever runtime's
/// entry points it came through (gomp_entry.cpp, kmp_entry.cpp translate).
///
///   if (!take(call)) return real_start(...);           // forwarded, counted
///   for (IndexRange c; !(c = next_chunk(ts)).empty();)  // indices 0 … n-1
///     … hand first + c.begin·step … to the program …
///   finish(ts);                                         // at the loop's end
///
/// Nothing here throws: the entry points are called from C frames.

#include <autosched/omp/dropin.h>
#include <autosched/omp/loop_site.hpp>
#include <autosched/omp/team_state.hpp>

#include <cstdint>

namespace autosched::omp {

/// Why a loop went to the real runtime.
enum class ForwardReason : std::uint8_t {
  not_runtime,         ///< schedule(dynamic/guided) without AUTOSCHED_OMP_LOOPS=all
  unknown_team,        ///< a team of several threads started outside a wrapped region
  too_many_iterations, ///< more than 2^63-1 iterations
  with_reductions,     ///< GOMP_loop_start with task reductions or shared memory
  disabled,            ///< AUTOSCHED_OMP=off
  ordered,             ///< an `ordered` loop: its chunks must follow the runtime's order protocol
  other_kind,          ///< a dispatcher kind the drop-in never takes (static, auto, static_steal, …)
  forked_child,        ///< in a child forked while the drop-in was in use (core/forked_child.hpp)
  static_kind,         ///< with AUTOSCHED_OMP_LOOPS=static: a static kind other than plain kmp_sch_static
  count_,
};
const char* describe(ForwardReason reason) noexcept;

/// A thread's entry into a loop, in the drop-in's terms.
struct LoopCall {
  const void* return_address = nullptr;  ///< into the program: the loop's identity
  const char* source = nullptr;          ///< ident_t's psource (libomp), or nullptr
  Runtime runtime = Runtime::gomp;
  AskedKind asked = AskedKind::runtime;
  long asked_chunk = 0;
  std::uint64_t n = 0;
  std::uint64_t first = 0;
  std::uint64_t step = 1;
  std::uint64_t end_value = 0;  ///< see ActiveLoop::end_value
};

/// Why `call` would be forwarded before any thread of a team enters it, if
/// it would (the combined parallel-loop calls decide once for the team).
bool refused(const LoopCall& call, ForwardReason& reason) noexcept;

/// Whether the drop-in takes loops of kind `asked` (AUTOSCHED_OMP_LOOPS).
bool takes(AskedKind asked) noexcept;
/// Whether it takes libomp's static loops (AUTOSCHED_OMP_LOOPS names static,
/// the drop-in is on, and this is not a forked child): static_loops.hpp.
bool takes_static() noexcept;

/// Called by every thread of the team at the loop's start. True: the thread's
/// TeamState now holds the loop; false: it was counted as forwarded and the
/// caller passes the call on to the real runtime.
bool take(const LoopCall& call) noexcept;
/// Counts a parallel region the program started: the report tells a program
/// whose loops never reached the drop-in (no schedule clause) from one that
/// ran no OpenMP at all (a shell or mpirun under `autosched run`).
void note_region() noexcept;

/// Counts a forwarded entry the caller decided on itself.
void forward(ForwardReason reason) noexcept;

IndexRange next_fallback(TeamState& ts) noexcept;

/// The next chunk of the thread's active loop, as indices; empty at the end.
/// Inline: it is the per-chunk path of every taken loop.
inline IndexRange next_chunk(TeamState& ts) noexcept {
  if (ts.active.mode == ActiveLoop::Mode::cursor) [[likely]] return ts.active.cursor->next();
  return next_fallback(ts);
}
/// next_chunk()'s unit-chunk path alone (ss,chunk=1), for the entry points'
/// per-chunk calls: the calling thread's active loop, with the iteration's
/// index in `index`, or nullptr when the thread runs no such loop or its
/// sequence is spent (the caller then takes its general path, which also
/// ends the loop). No call and nothing that needs a saved register, so an
/// entry point that tail-calls its general path otherwise stays a leaf: two
/// threads competing for the counter run as few instructions between their
/// atomics as the runtime's own dispatch does (1.31 → 1.06 × libgomp's
/// dynamic,1 on the Intel VM of 2026-12-01, docs/dropin.md).
inline const ActiveLoop* next_unit_chunk(std::int64_t& index) noexcept {
  TeamState* s = thread_state::current;
  if (s == nullptr || s->active.mode != ActiveLoop::Mode::cursor) return nullptr;
  return s->active.cursor->next_unit(index) ? &s->active : nullptr;
}
/// The same for static-steal's chunks from the thread's own range
/// (Cursor::next_owned): the active loop with the chunk in [begin, end), or
/// nullptr, and the caller takes its general path (which steals). The entry
/// points run it in a function of its own, tail-called after the unit path,
/// so that neither path's registers burden the other's (5.1 → 3.0 ns a
/// chunk on the AMD guest of 2026-12-05, docs/dropin.md).
inline const ActiveLoop* next_owned_chunk(std::int64_t& begin, std::int64_t& end) noexcept {
  TeamState* s = thread_state::current;
  if (s == nullptr || s->active.mode != ActiveLoop::Mode::cursor) return nullptr;
  return s->active.cursor->next_owned(begin, end) ? &s->active : nullptr;
}
/// The thread is done with its active loop (idempotent).
void finish(TeamState& ts) noexcept;

/// `cancel for`: the thread's active loop hands out no more chunks, to any thread.
void cancel_active(TeamState& ts) noexcept;

/// Iteration value of index i in the active loop.
inline std::uint64_t value_at(const ActiveLoop& a, std::int64_t i) noexcept {
  return a.first + static_cast<std::uint64_t>(i) * a.step;
}

/// Counters behind autosched_omp_get_counts and the report.
struct Counts {
  std::uint64_t loops = 0, instances = 0, chunks = 0, forwarded = 0;
  std::uint64_t forwarded_by[static_cast<int>(ForwardReason::count_)] = {};
  std::uint64_t fallbacks = 0;  ///< instances a thread ran as a static block
  std::uint64_t regions = 0;    ///< parallel regions started (any loop in them or not)
};
Counts counts() noexcept;

/// The instance closed last, process-wide (autosched_omp_last_instance);
/// false, with `out` zeroed, before the first.
bool last_closed(autosched_omp_instance& out) noexcept;

}  // namespace autosched::omp
