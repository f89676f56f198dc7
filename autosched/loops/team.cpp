// The loops front-end: parallel_for on OpenMP teams. Everything else — the
// instance, the techniques, the decision, the record — is the driver's
// (drive/) and the session's (session/); this file only decides who runs the
// loop (open a team, join the enclosing one, run alone) and hands each
// thread its share.
#include <autosched/loops/detail/loop_call.hpp>
#include <autosched/pinning/team_pinning.hpp>

#include <autosched/core/error.hpp>
#include <autosched/core/forked_child.hpp>
#include <autosched/core/text.hpp>
#include <autosched/techniques/iteration_counter.hpp>
#include <autosched/techniques/static.hpp>
#include <autosched/drive/loop.hpp>
#include <autosched/session/session.hpp>

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <exception>
#include <cstdio>
#include <string>
#include <utility>

namespace autosched::detail {

namespace {

/// The OpenMP level at which this thread runs chunks of an autosched loop,
/// -1 outside any body. A parallel_for called directly from a body (same
/// level) must open its own team: the other threads of the body's team will
/// never make the call. One called from a region the body opened itself (a
/// deeper level) work-shares with that region's team, like any other.
thread_local int body_level = -1;

/// Runs this thread's share of `inst` with body_level marking the body's
/// level (the teams' pinning, AUTOSCHED_PINNING, observes the driver).
void work(drive::Instance& inst, int tid, const LoopCall& call) {
  const int outer = std::exchange(body_level, omp_get_level());
  (void)inst.work(tid, drive::ChunkBody{call.run, call.run_sequence, call.body});
  body_level = outer;
}

drive::OpenRequest request(const LoopCall& call, std::int64_t n, int p) {
  const LoopOptions& o = *call.options;
  return {.begin = call.begin,
          .n = n,
          .p = p,
          .schedule = o.schedule.text(),
          .typed_schedule = o.schedule.typed(),
          .schedule_source = "LoopOptions::schedule",
          .time_chunks = o.timing == Timing::chunks,
          .profile = o.profile ? &*o.profile : nullptr,
          .weights = o.weights};
}

std::string_view loop_id(const LoopCall& call, char (&buffer)[512]) {
  if (!call.options->name.empty()) return call.options->name;
  const int len = std::snprintf(buffer, sizeof buffer, "%s:%u:%u", call.where.file_name(),
                                static_cast<unsigned>(call.where.line()), static_cast<unsigned>(call.where.column()));
  return {buffer, static_cast<std::size_t>(std::clamp(len, 0, static_cast<int>(sizeof buffer) - 1))};
}

/// The calling thread opens a team of `p` (or runs alone when p = 1).
void open_team(drive::Loop& loop, const LoopCall& call, std::int64_t n, int p) {
  drive::Instance* inst = loop.open(request(call, n, p));
  if (p == 1) {
    work(*inst, 0, call);
  } else {
    const int planned = p;
#pragma omp parallel num_threads(p)
    {
      const int team = omp_get_num_threads();
      if (team != planned) {
        // Fewer threads than asked (OMP_DYNAMIC, thread limits): plan again.
#pragma omp single
        loop.reopen(*inst, team);
      }
      work(*inst, omp_get_thread_num(), call);  // an opened team shares the caller's body
    }
  }
  std::exception_ptr error = inst->error();
  loop.release(inst);
  if (error) std::rethrow_exception(error);
}

/// Every thread of the enclosing team calls this (work-sharing).
void join_team(drive::Loop& loop, const LoopCall& call, std::int64_t n) {
  drive::Instance* inst = nullptr;
  std::exception_ptr open_error;
#pragma omp single copyprivate(inst, open_error)
  {
    try {
      inst = loop.open(request(call, n, omp_get_num_threads()));
    } catch (...) {
      open_error = std::current_exception();
    }
  }
  if (open_error) std::rethrow_exception(open_error);
  work(*inst, omp_get_thread_num(), call);  // this thread's own body
  if (!call.options->nowait) {
#pragma omp barrier
  }
  std::exception_ptr error = inst->error();
  if (inst->leave()) loop.release(inst);
  if (error) std::rethrow_exception(error);
}

/// This thread's static block of `call`'s n iterations among p threads.
void run_block(const LoopCall& call, std::int64_t n, int tid, int p) {
  const IndexRange block = static_block(n, p, tid);
  if (!block.empty()) call.run(call.body, call.begin + block.begin, call.begin + block.end);
}

/// A loop in the child of a fork made while autosched was in use
/// (core/forked_child.hpp): a lock the driver or the session needs may be
/// held by a thread that did not survive the fork, so the loop runs on a
/// static split of OpenMP's own team, with nothing chosen or recorded. The
/// first exception a body throws reaches the caller, as in any loop.
void run_in_forked_child(const LoopCall& call, std::int64_t n, bool join, int p) {
  say_forked_child_once();
  if (join) {
    // Every thread of the team reaches the barrier, also one whose body threw.
    std::exception_ptr error;
    try {
      run_block(call, n, omp_get_thread_num(), omp_get_num_threads());
    } catch (...) {
      error = std::current_exception();
    }
    if (!call.options->nowait) {
#pragma omp barrier
    }
    if (error) std::rethrow_exception(error);
    return;
  }
  std::exception_ptr error;
  std::atomic<bool> failed{false};
#pragma omp parallel num_threads(p)
  {
    try {
      run_block(call, n, omp_get_thread_num(), omp_get_num_threads());
    } catch (...) {
      if (!failed.exchange(true)) error = std::current_exception();
    }
  }
  if (error) std::rethrow_exception(error);
}

}  // namespace

void run_loop(const LoopCall& call) {
  const LoopOptions& o = *call.options;
  const int128 span = int128{call.end} - call.begin;
  if (span > max_iterations) {
    throw_error("parallel_for: [" + std::to_string(call.begin) + ", " + std::to_string(call.end) +
                ") has more than 2^62 iterations");
  }
  if (o.threads < 0 || o.threads > max_workers) {
    throw_error(text::bad_value("LoopOptions::threads", std::to_string(o.threads),
                                "0 (OpenMP's default) or a team size in [1, " + std::to_string(max_workers) + "]"));
  }
  const std::int64_t n = span > 0 ? static_cast<std::int64_t>(span) : 0;
  const bool join =
      o.team == Team::join || (o.team == Team::automatic && omp_in_parallel() && omp_get_level() > body_level);
  int p = o.threads > 0 ? o.threads : omp_get_max_threads();
  // With nested parallelism exhausted the runtime would give one thread anyway.
  if (omp_get_active_level() >= omp_get_max_active_levels()) p = 1;
  p = std::min(p, max_workers);
  note_in_use();
  if (in_forked_child()) [[unlikely]] {
    run_in_forked_child(call, n, join, p);
    return;
  }
  session::start();
  // Before the team forks: the observer it attaches must see the workers begin.
  (void)start_team_pinning();
  char buffer[512];
  drive::Loop& loop = drive::loop(loop_id(call, buffer));
  if (join) {
    join_team(loop, call, n);
    return;
  }
  open_team(loop, call, n, p);
}

}  // namespace autosched::detail
