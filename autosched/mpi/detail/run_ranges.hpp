#pragma once
/// @file
/// The loop both pull-style executions (Execution, DistributedExecution)
/// share with their parallel_for wrappers (internal): run every range this
/// rank receives; a throwing body becomes fail(message), so the other ranks
/// stop too and finish() reports it everywhere.

#include <autosched/core/index_range.hpp>

#include <cstdint>
#include <exception>
#include <string>
#include <string_view>

namespace autosched::mpi::detail {

inline std::string what_of(const std::exception_ptr& e) {
  try {
    std::rethrow_exception(e);
  } catch (const std::exception& x) {
    return x.what();
  } catch (...) {
    return "an exception that is not a std::exception";
  }
}

/// `body(first, last)` for each range `ex.next()` returns, then `ex.finish()`.
template <class Execution, class ChunkBody>
auto run_ranges(Execution& ex, ChunkBody& body) {
  try {
    for (IndexRange r; !(r = ex.next()).empty();) body(r.begin, r.end);
  } catch (...) {
    ex.fail(what_of(std::current_exception()));
  }
  return ex.finish();
}

/// Adapts an index body to a range body.
template <class Body>
auto each_index(Body& body) {
  return [&body](std::int64_t first, std::int64_t last) {
    for (std::int64_t i = first; i < last; ++i) body(i);
  };
}

/// end − begin, 0 when end ≤ begin; -1 (and `error` set, naming `who`) when
/// the range holds more than 2^62 iterations.
std::int64_t checked_count(std::int64_t begin, std::int64_t end, std::string_view who, std::string* error);

}  // namespace autosched::mpi::detail
