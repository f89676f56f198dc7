#pragma once
/// @file
/// `autosched report DIR`: turns a campaign's runs.csv into summary.md
/// (methods × app/loop tables), metrics.csv and steps.csv, and gnuplot
/// pictures: a heatmap of degradation vs the Oracle and per-step selection
/// plots (one bar per step, height = step time, colour = arm).

#include "process_levels.hpp"

#include <string>
#include <vector>

namespace autosched::campaign {

struct ReportOptions {
  std::string dir;  ///< holds runs.csv; the report is written next to it
  /// Methods whose per-step selections are plotted (those present are used);
  /// "Oracle" plots the Oracle's own sequence.
  std::vector<std::string> plot_methods{"Oracle", "auto", "ExhaustiveSel", "QLearn-LT"};
  bool pictures = true;  ///< run gnuplot (when found) on the scripts written
  /// Instances either side of each one over which its process's level is
  /// taken (process_levels.hpp); negative: one level per process.
  int level_window = default_level_window;
};

struct ReportOutcome {
  std::string summary_path;
  std::string degradation_table;      ///< the headline table, Markdown
  std::vector<std::string> pictures;  ///< PNGs written
  std::vector<std::string> notes;     ///< e.g. gnuplot missing, failed runs
};

ReportOutcome write_report(const ReportOptions& options);

}  // namespace autosched::campaign
