#pragma once
/// @file
/// The pull interface: a worker that runs chunks itself asks for them one at
/// a time. This is what an interposed OpenMP runtime entry point (each
/// thread calls "give me my next chunk") or an MPI coordinator needs; the
/// push-style Instance::work() cannot serve them.
///
///   drive::Instance* inst = loop.open_or_attach({team, sequence}, request);  // every thread
///   drive::Cursor cursor(*inst, tid);
///   for (IndexRange c; !(c = cursor.next()).empty();) run(c.begin, c.end);   // absolute indices
///   cursor.leave();                                                          // the last one closes
///
/// A chunk's time is the time between the next() that returned it and the
/// next call (next() or leave()), so adaptive techniques learn as they do in
/// push mode. Untimed techniques that do not read a worker's start (static,
/// the planned sequences, static-steal, rnd) read the clock once per worker,
/// when it leaves: its ThreadStats::start_ns is then the instance's start. A guarded trial (a selector's arm with a time budget) is cut as
/// in push mode: past the deadline, the cursor that notices takes the
/// unclaimed rest away from the trial, and every cursor then serves chunks of
/// the fallback arm until the rest is done.

#include <autosched/core/index_range.hpp>
#include <autosched/drive/instance.hpp>
#include <autosched/measure/thread_stats.hpp>
#include <autosched/techniques/static_steal.hpp>

#include <variant>

namespace autosched::drive {

class Cursor {
 public:
  /// Worker `tid` (0 … p-1) of `instance`; each tid is used by one cursor.
  Cursor(Instance& instance, int tid) noexcept;
  /// A cursor that was not left leaves now.
  ~Cursor();
  Cursor(const Cursor&) = delete;
  Cursor& operator=(const Cursor&) = delete;

  /// The next chunk for this worker in absolute indices; empty when there is
  /// none left (or the instance failed).
  IndexRange next() noexcept {
    // Unit chunks from one sequence (ss,chunk=1), untimed: the whole dispatch
    // is the counter's fetch_add, inlined into the caller (an interposed
    // runtime entry point competes with the runtime's own one atomic).
    // Cancelling the sequence moves its counter past N, so no flag is read.
    if (unit_ != nullptr) {
      std::int64_t i = 0;
      return next_unit(i) ? IndexRange{i, i + 1} : IndexRange{};
    }
    return next_general();
  }
  /// The unit-chunk path of next(), alone for an entry point that keeps its
  /// own per-chunk path a leaf: true with the chunk's absolute index when the
  /// path applies and an iteration was left; false otherwise, and the caller
  /// then calls next(), which also ends the loop when the sequence is spent.
  bool next_unit(std::int64_t& index) noexcept {
    if (unit_ == nullptr) return false;
    const std::int64_t i = unit_->next_iteration();
    if (i >= unit_n_) return false;
    ++stats_.chunks;
    ++stats_.iterations;
    index = unit_base_ + i;
    return true;
  }
  /// static-steal's owner path of next(), alone, for the same entry points:
  /// true with the next chunk of this worker's own range (absolute indices)
  /// when the instance runs static-steal untimed and unguarded and the range
  /// holds one; false otherwise, and the caller then calls next(), which
  /// steals or ends the loop. Cancelling empties every range, so this path
  /// reads no flag either.
  bool next_owned(std::int64_t& begin, std::int64_t& end) noexcept {
    if (steal_ == nullptr) return false;
    IndexRange c;
    if (!steal_->take_own(tid_, c)) return false;
    ++stats_.chunks;
    stats_.iterations += c.size();
    begin = unit_base_ + c.begin;
    end = unit_base_ + c.end;
    return true;
  }
  /// This worker is done. The last worker of the instance closes it and
  /// returns it to its loop's pool: the instance must not be used after.
  /// Returns the instance's error, if a worker reported one.
  std::exception_ptr leave() noexcept;

 private:
  IndexRange next_general() noexcept;
  /// Whether a guarded trial is past its deadline (reads the clock every few
  /// chunks when chunks are not timed anyway).
  bool past_deadline(std::int64_t now_if_timed) noexcept;
  /// Switches to the instance's fallback arm, once there is one.
  bool enter_fallback() noexcept;
  IndexRange hand_out(IndexRange c, std::int64_t base, std::int64_t asked) noexcept;
  /// Block static's path of next(): the worker's block, once.
  IndexRange next_block() noexcept;
  void complete_previous(std::int64_t done) noexcept;

  Instance* instance_;
  int tid_;
  ThreadStats stats_;
  AnyWorker worker_;
  AnyWorker fallback_worker_;  ///< after a cut
  IndexRange current_;         ///< relative to the instance's first index
  std::int64_t requested_ns_ = 0;
  std::int64_t started_ns_ = 0;
  ChunkSequence* unit_ = nullptr;  ///< set when the unit-chunk path applies
  StaticSteal* steal_ = nullptr;   ///< set when the owner path applies
  std::int64_t unit_n_ = 0;
  std::int64_t unit_base_ = 0;     ///< the instance's first index (the quick paths)
  IndexRange block_;               ///< block static, untimed and unguarded: this worker's block
  bool block_path_ = false;        ///< set when block_ applies
  bool timed_ = false;
  bool guarded_ = false;
  bool on_fallback_ = false;
  int until_check_ = 0;
  bool left_ = false;
};

}  // namespace autosched::drive
