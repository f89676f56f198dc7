#pragma once
/// @file
/// autosched::parallel_for and parallel_for_chunks: a parallel loop whose
/// schedule is chosen per loop and measured at every instance.
///
///   autosched::parallel_for(0, n, [&](std::int64_t i) { y[i] += a * x[i]; });
///   autosched::parallel_for(0, n, body, {.name = "stream/triad", .schedule = "static"});
///   autosched::parallel_for_chunks(0, n, [&](std::int64_t first, std::int64_t last) { ... });
///
/// Contract: every index in [begin, end) is passed to the body exactly once
/// (nothing when end <= begin; at most 2^62 iterations). The bounds are
/// compared by value, whatever their types (std::cmp_less), not after C++'s
/// usual conversions: `parallel_for(0, v.size(), body)` runs v.size()
/// iterations, `parallel_for(3u, -1, body)` none. The body's index type is
/// std::common_type_t of the bounds; a non-empty range that it cannot hold
/// (a negative begin with an unsigned end, such as `-5, v.size()`) throws
/// autosched::Error naming both bounds before any iteration runs. Inside an OpenMP
/// parallel region the call work-shares with that team (every thread must make
/// it, as with `omp for`); elsewhere it opens a team (OMP_NUM_THREADS,
/// OMP_PLACES, OMP_PROC_BIND apply). If a body throws, no further chunks are
/// handed out, the team joins, and the first exception is rethrown to the
/// caller (to every thread of a joined team); the loop can be called again.
/// The loop is identified by LoopOptions::name or by the call site.

#include <autosched/core/error.hpp>
#include <autosched/loops/detail/loop_call.hpp>
#include <autosched/loops/loop_options.hpp>

#include <autosched/core/source_location.hpp>
#include <concepts>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>

namespace autosched {

namespace detail {

template <std::integral I>
std::int64_t to_index(I value) {
  if constexpr (std::is_unsigned_v<I> && sizeof(I) >= sizeof(std::int64_t)) {
    if (value > static_cast<std::make_unsigned_t<std::int64_t>>(std::numeric_limits<std::int64_t>::max())) {
      throw_error("parallel_for: index " + std::to_string(value) + " does not fit in int64_t");
    }
  }
  return static_cast<std::int64_t>(value);
}

/// [begin, end) in int64_t for a body taking `Index`. Compared by value:
/// with mixed signs, C++'s usual conversions would turn -5 into 2^64 - 5.
template <std::integral Index, std::integral B, std::integral E>
std::pair<std::int64_t, std::int64_t> to_bounds(B begin, E end) {
  if (std::cmp_greater_equal(begin, end)) return {0, 0};  // empty: nothing runs, nothing to convert
  if constexpr (std::is_unsigned_v<Index>) {
    if (std::cmp_less(begin, 0)) {
      throw_error("parallel_for: bounds [" + std::to_string(begin) + ", " + std::to_string(end) +
                  ") mix a negative begin with an unsigned end; the body's unsigned index cannot hold " +
                  std::to_string(begin) + ". Give both bounds a signed type (e.g. std::int64_t)");
    }
  }
  return {to_index(begin), to_index(end)};
}

template <class F>
void* erase(F& f) noexcept {
  return const_cast<void*>(static_cast<const void*>(std::addressof(f)));
}

}  // namespace detail

/// Calls body(i) for every i in [begin, end).
template <std::integral B, std::integral E, class Body>
requires std::invocable<Body&, std::common_type_t<B, E>>
void parallel_for(B begin, E end, Body&& body, const LoopOptions& options = {},
                  SourceLocation where = SourceLocation::current()) {
  using Index = std::common_type_t<B, E>;
  using F = std::remove_reference_t<Body>;
  const detail::ChunkRunner run = [](void* f, std::int64_t first, std::int64_t last) {
    F& fn = *static_cast<F*>(f);
    for (std::int64_t i = first; i < last; ++i) fn(static_cast<Index>(i));
  };
  const detail::SequenceRunner run_sequence = [](void* f, ChunkSequence& seq, std::int64_t base, std::int64_t n,
                                                 ThreadStats& stats) {
    F& fn = *static_cast<F*>(f);
    drive::run_sequence(
        seq, n, stats, [&](std::int64_t i) { fn(static_cast<Index>(base + i)); },
        [&](IndexRange c) {
          for (std::int64_t i = base + c.begin; i < base + c.end; ++i) fn(static_cast<Index>(i));
        });
  };
  const auto [first, last] = detail::to_bounds<Index>(begin, end);
  detail::run_loop({first, last, run, run_sequence, detail::erase(body), &options, where});
}

/// Calls body(first, last) for chunks that together cover [begin, end) once.
template <std::integral B, std::integral E, class Body>
requires std::invocable<Body&, std::common_type_t<B, E>, std::common_type_t<B, E>>
void parallel_for_chunks(B begin, E end, Body&& body, const LoopOptions& options = {},
                         SourceLocation where = SourceLocation::current()) {
  using Index = std::common_type_t<B, E>;
  using F = std::remove_reference_t<Body>;
  const detail::ChunkRunner run = [](void* f, std::int64_t first, std::int64_t last) {
    (*static_cast<F*>(f))(static_cast<Index>(first), static_cast<Index>(last));
  };
  const detail::SequenceRunner run_sequence = [](void* f, ChunkSequence& seq, std::int64_t base, std::int64_t n,
                                                 ThreadStats& stats) {
    F& fn = *static_cast<F*>(f);
    drive::run_sequence(
        seq, n, stats, [&](std::int64_t i) { fn(static_cast<Index>(base + i), static_cast<Index>(base + i + 1)); },
        [&](IndexRange c) { fn(static_cast<Index>(base + c.begin), static_cast<Index>(base + c.end)); });
  };
  const auto [first, last] = detail::to_bounds<Index>(begin, end);
  detail::run_loop({first, last, run, run_sequence, detail::erase(body), &options, where});
}

}  // namespace autosched
