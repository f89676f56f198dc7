#pragma once
/// @file
/// Dividing out the level each process ran at. On a shared VM one process of
/// stream-triad can run every schedule at 5 ms a step and the next at 9 ms
/// (docs/results/stream-triad-bimodal.md), so three repetitions rank arms by
/// their processes' luck. An app run with --level-reference follows each
/// instance of a loop it declares idempotent by the same body under a fixed
/// schedule, recorded as `<loop>@reference`. The schedule's own effect stays:
/// the reference runs the same fixed schedule in every process, whatever the
/// process measured.
///
/// The level is taken around each instance, not once per process: the
/// machine's speed also drifts within a process (the mandelbrot loops' steps
/// and their references move together, correlation 0.9 and more), and a
/// per-process constant leaves that drift in every step. At step s the
/// reference's ratio to the loop's step baseline (the median over all
/// processes, cold and warm, of their reference at s) is taken at the steps
/// s − w … s + w the process has, and the instance is divided by the median
/// of those ratios. A median over a few steps, not the step's own ratio,
/// because one reference instance carries its own noise (w = 0 measured
/// worse than w = 1…3, docs/campaigns.md). w < 0: one level per process, the
/// median of its references over the median of all processes' medians (the
/// division until 2026-12-05).

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
  int window = 0;          ///< the half-width w used (< 0: one level per process)
  double min_level = 0;    ///< process levels (ProcessLevel::level)
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
  /// What its total was divided by: Σ measured ÷ Σ adjusted over its
  /// instances of the loop (with one level per process, its reference
  /// median ÷ the loop's baseline).
  double level = 1;
};

struct LevelAdjusted {
  std::vector<StepRow> rows;            ///< the loops' instances, levels divided out; no reference rows
  std::vector<LevelAdjustment> loops;   ///< the loops that had references
  std::vector<ProcessLevel> processes;  ///< every process with references, by loop
};

/// True for a reference instance's row (its loop ends in "@reference").
[[nodiscard]] bool is_reference_row(const StepRow& row);
/// Half-width of the window a level is taken over: 2, five instances. Chosen
/// on the fixed arms alone (their rep spread and the gap of the median arm
/// to the Oracle were lowest at w = 1…3 in the campaign of 2026-12-05 04:35),
/// not on any selector's result.
inline constexpr int default_level_window = 2;
/// One level per process.
inline constexpr int whole_process_level = -1;

/// The rows with each process's level divided out where it recorded
/// references, taken over `window` instances either side of each instance
/// (whole_process_level: one level per process).
[[nodiscard]] LevelAdjusted divide_out_process_levels(const std::vector<StepRow>& rows,
                                                      int window = default_level_window);
/// The rows as measured, without the reference instances.
[[nodiscard]] std::vector<StepRow> without_reference_rows(const std::vector<StepRow>& rows);

}  // namespace autosched::campaign
