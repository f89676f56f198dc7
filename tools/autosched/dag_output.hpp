#pragma once
// What the dag commands write: numbers, the scheduler column, schedules as
// CSV and Gantt charts (gnuplot).
#include <autosched/dag/platform.hpp>
#include <autosched/dag/problem.hpp>
#include <autosched/dag/simulator.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace autosched::cli::dag_cli {

/// The width of the scheduler column: the longest name, at least 12.
int name_width(const std::vector<std::string>& names);
/// What tables call a scheduler: its name, with a model file shortened to
/// its stem ("readys:share/autosched/models/cholesky.model" -> "readys:cholesky").
std::vector<std::string> column_labels(const std::vector<std::string>& names);
std::string number(double v, int decimals = 1);
std::string exact(double v);
std::string processor_label(const dag::Platform& platform, std::size_t p);

struct Episode {
  std::string scheduler;
  dag::SimulationResult result;
};
/// `base` with "-<scheduler>" before its extension, when there are several.
std::string per_scheduler_path(const std::string& base, const std::string& scheduler, bool several);
/// Writes <png stem>.dat and .gp beside the PNG and runs gnuplot on them.
void draw_gantt(const std::string& png, const dag::Problem& problem, const Episode& e, const std::string& title);
void write_schedule_csv(const std::string& path, const dag::Problem& problem, const std::vector<Episode>& episodes);
std::string noise_text(double sigma, bool additive);

}  // namespace autosched::cli::dag_cli
