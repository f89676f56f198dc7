#pragma once
/// @file
/// One loop instance in flight: the technique's dispenser and everything the
/// instance's threads share, on separate cache lines where they are written
/// concurrently. Two ways to run it:
///   push — work(tid, body): the driver runs worker tid's whole share through
///          the body (parallel_for: the body is known, its loop is inlined);
///   pull — a Cursor (drive/cursor.hpp): the caller asks for chunks one by
///          one and runs them itself (an OpenMP shim, an MPI coordinator).
/// Either way the last worker to finish closes the instance on its Loop.

#include <autosched/drive/chunk_body.hpp>
#include <autosched/measure/thread_stats.hpp>
#include <autosched/select/engine/decision_engine.hpp>
#include <autosched/techniques/any_dispenser.hpp>
#include <autosched/techniques/catalogue.hpp>

#include <atomic>
#include <cstdint>
#include <exception>
#include <memory>

namespace autosched {
struct Schedule;
}  // namespace autosched

namespace autosched::drive {

class Loop;
class Cursor;

class Instance {
 public:
  /// Runs worker `tid`'s share through `body`; the last worker to finish
  /// closes the instance. In a joined team each thread passes its own body:
  /// it may capture thread-private variables, and with nowait another
  /// thread's body object may already be gone. Returns the number of
  /// iterations this worker ran (its ThreadStats::iterations), read before
  /// the instance can close: afterwards it may be recycled.
  std::int64_t work(int tid, const ChunkBody& body) noexcept;
  /// The first exception a body threw, once it is visible to this thread.
  [[nodiscard]] std::exception_ptr error() const noexcept {
    return error_published_.load(std::memory_order_acquire) ? error_ : nullptr;
  }
  /// Records `e` as the instance's error (the first one wins) and stops
  /// handing out chunks. Pull-mode callers report their bodies' exceptions here.
  void fail(std::exception_ptr e) noexcept;
  /// Stops handing out chunks without an error: OpenMP's `cancel for`, where
  /// skipping the remaining iterations is what the program asked for.
  void cancel() noexcept;
  /// A thread of a joined team is done with the instance; true for the last.
  /// p_ is read before the increment: once the others have left, the last
  /// one may recycle the instance for another team at any moment.
  [[nodiscard]] bool leave() noexcept {
    const int p = p_;
    return left_.fetch_add(1, std::memory_order_acq_rel) + 1 == p;
  }

  /// A worker failed: no further chunks are handed out.
  [[nodiscard]] bool cancelled() const noexcept { return cancelled_.load(std::memory_order_relaxed); }

 private:
  friend class Loop;
  friend class Cursor;
  struct alignas(64) ThreadSlot {
    ThreadStats stats;
  };

  template <class D>
  void run_worker(D& d, int tid, const ChunkBody& body) noexcept;
  template <class D>
  void run_chunks(D& d, typename D::Worker& w, ThreadStats& st, const ChunkBody& body);
  template <class D>
  void run_measured_chunks(D& d, typename D::Worker& w, ThreadStats& st, const ChunkBody& body, std::int64_t base,
                           bool guarded);
  template <class D>
  void cut(D& d) noexcept;
  /// cut() on whichever dispenser the instance runs (pull mode).
  void cut_trial() noexcept;
  /// Waits while another thread plans the fallback; true when one is ready.
  bool fallback_ready() const noexcept;
  void run_fallback(int tid, ThreadStats& st, const ChunkBody& body);
  void begin_worker(int tid) const noexcept;
  /// The observers' worker-end hook (before the worker counts itself done).
  void end_worker(int tid, std::int64_t iterations) const noexcept;
  /// Pull mode: stores worker `tid`'s stats; the last worker to finish
  /// closes the instance and returns it to the pool. `error` receives the
  /// instance's error as this worker leaves it.
  void finish_worker(int tid, const ThreadStats& stats, std::exception_ptr& error) noexcept;
  /// Sizes what a new instance for `p` workers may need (slots, plans,
  /// profile blocks), so that the first plan of a technique it has not run
  /// yet (a selector's next trial) allocates nothing while loops run.
  void reserve(int p);
  /// Back to the state open() expects; the dispenser is kept (Loop::open_locked re-arms it).
  void reset_for_pool() noexcept;

  /// What the dispenser was last set up for. The next instance of the same
  /// fixed schedule (same resolved schedule, n and team) on a dispenser
  /// without shared state (static) reuses it as it is: no schedule copy, no
  /// substitution check, no set-up.
  struct ArmedFor {
    const Schedule* schedule = nullptr;
    std::uint64_t version = 0;
    std::int64_t n = -1;
    int p = 0;
    friend bool operator==(const ArmedFor&, const ArmedFor&) = default;
  };

  // What changes per instance and every cursor reads, on one line: an
  // instance re-armed for the same loop writes nothing else before its
  // teammates enter it.
  Loop* loop_ = nullptr;
  std::uint64_t index_ = 0;
  std::int64_t begin_ = 0;
  std::int64_t n_ = 0;
  std::int64_t start_ns_ = 0;
  std::int64_t deadline_ns_ = 0;  ///< a guarded trial is cut at this time; 0: not guarded
  int p_ = 1;
  bool time_chunks_ = false;
  bool cut_ = false;

  /// What ran: the arm asked for (`spec_.technique`, the schedule's or the
  /// decision's), and the technique set up (differs when it had to be
  /// substituted, e.g. fsc without a profile runs mfsc).
  TechniqueSpec spec_;
  TechniqueId ran_ = TechniqueId::static_;
  bool exp_chunk_ = false;  ///< spec_.chunk was computed by expChunk(N, P)
  std::int64_t chunk_ = 0;  ///< the chunk parameter used
  TechniqueParams params_;
  AnyDispenser dispenser_;
  ArmedFor armed_;  ///< n = -1: not reusable
  Workspace workspace_;
  std::unique_ptr<ThreadSlot[]> threads_;
  int thread_capacity_ = 0;

  // Selection: the decision this instance carries out (ticket_.slot set when
  // it owns one) and the group it came from.
  DecisionGroup* group_ = nullptr;
  Ticket ticket_;

  // Guard: a trial with a budget is cut at deadline_ns_; the unclaimed rest
  // [fallback_begin_, N) then runs on the ticket's fallback arm.
  // Made at the first cut and kept (1.5 KB, which most loops never need).
  std::int64_t fallback_begin_ = 0;
  struct Fallback {
    AnyDispenser dispenser;
    Workspace workspace;
  };
  std::unique_ptr<Fallback> fallback_;
  /// 0 trial running, 1 switching, 2 fallback ready, 3 the trial cannot be cut.
  alignas(64) std::atomic<int> phase_{0};

  // Read by every thread, written only when a body fails or the loop is
  // cancelled: apart from the finish counter, so that reading them does
  // not wait for the line the other threads' fetch_add moves around.
  alignas(64) std::atomic<bool> cancelled_{false};
  std::atomic<bool> failed_{false};
  std::atomic<bool> error_published_{false};
  std::exception_ptr error_;
  alignas(64) std::atomic<int> finished_{0};
  std::atomic<int> left_{0};
};

}  // namespace autosched::drive
