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
#include <autosched/select/decision_engine.hpp>
#include <autosched/techniques/any_dispenser.hpp>
#include <autosched/techniques/catalogue.hpp>

#include <atomic>
#include <cstdint>
#include <exception>
#include <memory>

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
  [[nodiscard]] std::exception_ptr error() const noexcept;
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
  /// Stores worker `tid`'s stats; the last worker to finish closes the instance.
  void finish_worker(int tid, const ThreadStats& stats) noexcept;

  Loop* loop_ = nullptr;
  std::uint64_t index_ = 0;
  std::int64_t begin_ = 0;
  std::int64_t n_ = 0;
  int p_ = 1;
  bool time_chunks_ = false;
  /// What ran: the arm asked for (`spec_.technique`, the schedule's or the
  /// decision's), and the technique set up (differs when it had to be
  /// substituted, e.g. fsc without a profile runs mfsc).
  TechniqueSpec spec_;
  TechniqueId ran_ = TechniqueId::static_;
  bool exp_chunk_ = false;  ///< spec_.chunk was computed by expChunk(N, P)
  std::int64_t chunk_ = 0;  ///< the chunk parameter used
  TechniqueParams params_;
  std::int64_t start_ns_ = 0;
  AnyDispenser dispenser_;
  Workspace workspace_;
  std::unique_ptr<ThreadSlot[]> threads_;
  int thread_capacity_ = 0;

  // Selection: the decision this instance carries out (ticket_.slot set when
  // it owns one) and the group it came from.
  DecisionGroup* group_ = nullptr;
  Ticket ticket_;

  // Guard: a trial with a budget is cut at deadline_ns_; the unclaimed rest
  // [fallback_begin_, N) then runs on the ticket's fallback arm.
  std::int64_t deadline_ns_ = 0;  ///< 0: not guarded
  std::int64_t fallback_begin_ = 0;
  AnyDispenser fallback_;
  Workspace fallback_workspace_;
  bool cut_ = false;
  /// 0 trial running, 1 switching, 2 fallback ready, 3 the trial cannot be cut.
  alignas(64) std::atomic<int> phase_{0};

  alignas(64) std::atomic<bool> cancelled_{false};
  alignas(64) std::atomic<int> finished_{0};
  std::atomic<int> left_{0};
  std::atomic<bool> failed_{false};
  std::atomic<bool> error_published_{false};
  std::exception_ptr error_;
};

}  // namespace autosched::drive
