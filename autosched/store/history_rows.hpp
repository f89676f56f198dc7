#pragma once
/// @file
/// What one batch of finished instances becomes in the store's history
/// table. An instance of 1 ms or more keeps a row of its own; shorter ones of
/// the same decision point, arm, trip count and flags, arriving in one batch
/// (the background writer's round, at most a few hundred milliseconds), share
/// one row that holds how many they were and their mean figures.
///
/// Why: a row costs SQLite some 20 000 instructions, so a loop whose
/// instances take a microsecond (a tiny `schedule(runtime)` loop called a
/// million times) kept the writer thread busier than the loop, took a core
/// from the team on a small node and held the loop back once the ring
/// filled: about 3 µs an instance on the 2-core VM, three times the loop.
/// Counts, explored counts and the per-arm means stay exact (the readers
/// weight by the count); only the individual times of short instances are
/// folded. The trace file (AUTOSCHED_TRACE) still has every instance.

#include <autosched/store/instance_row.hpp>

#include <cstdint>
#include <span>
#include <vector>

namespace autosched {

struct HistoryRow {
  InstanceRow row;              ///< the first instance's identity; figures are means
  std::int64_t instances = 1;   ///< how many instances this row stands for
};

/// Instances at least this long are written one row each.
inline constexpr double history_row_alone_ns = 1e6;

/// The rows to insert for `rows` (decision points only: rows without a
/// portfolio and failed instances are left out, as before). Order: by the
/// first instance each row holds.
std::vector<HistoryRow> fold_history(std::span<const InstanceRow> rows,
                                     double alone_ns = history_row_alone_ns);

}  // namespace autosched
