#pragma once
/// @file
/// The one concept every technique implements: the thread runtime,
/// the MPI runtime and the simulator drive any technique through it.
///
///   auto w = d.worker(id, start_ns);      // once per worker and instance
///   for (IndexRange c; !(c = d.next(w)).empty(); ) {
///     run(c);
///     if constexpr (D::timed) d.completed(w, c, timing);   // times from the driver
///   }
///   d.finished(w, finish_ns);             // optional member
///   d.close(memory);                      // optional, once, after every worker finished
///
/// Dispensers never read a clock: the driver passes times in, so a simulator
/// can feed simulated ones. next() is called concurrently by different
/// workers, each with its own Worker; it must not throw.

#include <autosched/core/index_range.hpp>

#include <concepts>
#include <cstdint>

namespace autosched {

/// Times around one chunk, on the driver's clock (ns).
struct ChunkTiming {
  std::int64_t requested_ns = 0;  ///< when the worker asked for this chunk
  std::int64_t started_ns = 0;    ///< when the body began
  std::int64_t finished_ns = 0;   ///< when the body returned

  /// Body time only (AWF-B/C, AF).
  [[nodiscard]] std::int64_t execution_ns() const noexcept { return finished_ns - started_ns; }
  /// Including the scheduling overhead of obtaining the chunk (AWF-D/E, mAF).
  [[nodiscard]] std::int64_t total_ns() const noexcept { return finished_ns - requested_ns; }
};

template <class D>
concept ChunkDispenser = requires(D& d, typename D::Worker& w, int id, std::int64_t t) {
  { D::timed } -> std::convertible_to<bool>;
  { d.worker(id, t) } -> std::same_as<typename D::Worker>;
  { d.next(w) }
  noexcept->std::same_as<IndexRange>;
};

/// Dispensers that learn from chunk times also take them back.
template <class D>
concept TimedDispenser = ChunkDispenser<D> && D::timed &&
    requires(D& d, typename D::Worker& w, IndexRange c, ChunkTiming t) {
  d.completed(w, c, t);
};

}  // namespace autosched
