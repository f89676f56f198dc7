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
/// push mode. Pull-mode instances are never cut by a guard.

#include <autosched/drive/instance.hpp>
#include <autosched/measure/thread_stats.hpp>
#include <autosched/core/index_range.hpp>

#include <variant>

namespace autosched::drive {

namespace detail {
template <class Variant>
struct WorkersOf;
template <class... D>
struct WorkersOf<std::variant<std::monostate, D...>> {
  using type = std::variant<std::monostate, typename D::Worker...>;
};
}  // namespace detail

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
      const std::int64_t i = unit_->next_iteration();
      if (i >= unit_n_) return {};
      ++stats_.chunks;
      ++stats_.iterations;
      return {unit_base_ + i, unit_base_ + i + 1};
    }
    return next_general();
  }
  /// This worker is done. The last worker of the instance closes it and
  /// returns it to its loop's pool: the instance must not be used after.
  /// Returns the instance's error, if a worker reported one.
  std::exception_ptr leave() noexcept;

 private:
  IndexRange next_general() noexcept;
  void complete_previous(std::int64_t done) noexcept;

  Instance* instance_;
  int tid_;
  ThreadStats stats_;
  typename detail::WorkersOf<AnyDispenser>::type worker_;
  IndexRange current_;  ///< relative to the instance's first index
  std::int64_t requested_ns_ = 0;
  std::int64_t started_ns_ = 0;
  ChunkSequence* unit_ = nullptr;  ///< set when the fast path above applies
  std::int64_t unit_n_ = 0;
  std::int64_t unit_base_ = 0;
  bool timed_ = false;
  bool left_ = false;
};

}  // namespace autosched::drive
