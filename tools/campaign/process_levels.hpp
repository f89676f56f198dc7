#pragma once
/// @file
/// Dividing out the level each process ran at. On a shared VM one process of
/// stream-triad can run every schedule at 5 ms a step and the next at 9 ms
/// (docs/results/stream-triad-bimodal.md), so three repetitions rank arms by
/// their processes' luck. An app run with --level-reference follows each
/// instance of a loop it declares idempotent by the same body under a fixed
/// schedule, recorded as `<loop>@reference`. A process's level is the median
/// of its reference instances over the median of all processes' (of that
/// loop, cold and warm); every instance of the loop in that process is divided
/// by it. The schedule's own effect stays: the reference runs the same fixed
/// schedule in every process, whatever the process measured.

#include "runs_table.hpp"

#include <string>
#include <vector>

namespace autosched::campaign {

/// What was done to one loop.
struct LevelAdjustment {
  std::string app;
  std::string loop;
  int processes = 0;       ///< runs with reference instances, whose times were divided
  int unreferenced = 0;    ///< runs of the loop without any, left as measured
  double baseline_ns = 0;  ///< median over processes of their reference medians
  double min_level = 0;    ///< process levels: reference median ÷ baseline
  double median_level = 0;
  double max_level = 0;
};

/// One process's level for one loop.
struct ProcessLevel {
  std::string phase;
  std::string app;
  std::string loop;
  std::string config;
  int rep = 0;
  double level = 1;  ///< its reference median ÷ the loop's baseline
};

struct LevelAdjusted {
  std::vector<StepRow> rows;            ///< the loops' instances, levels divided out; no reference rows
  std::vector<LevelAdjustment> loops;   ///< the loops that had references
  std::vector<ProcessLevel> processes;  ///< every process with references, by loop
};

/// True for a reference instance's row (its loop ends in "@reference").
[[nodiscard]] bool is_reference_row(const StepRow& row);
/// The rows with each process's level divided out where it recorded references.
[[nodiscard]] LevelAdjusted divide_out_process_levels(const std::vector<StepRow>& rows);
/// The rows as measured, without the reference instances.
[[nodiscard]] std::vector<StepRow> without_reference_rows(const std::vector<StepRow>& rows);

}  // namespace autosched::campaign
