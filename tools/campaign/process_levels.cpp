#include "process_levels.hpp"

#include "oracle_metrics.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <string_view>
#include <tuple>

namespace autosched::campaign {

namespace {

constexpr std::string_view suffix = "@reference";

/// One process of the campaign: its phase, app, configuration and repetition.
using ProcessKey = std::tuple<std::string, std::string, std::string, int>;

ProcessKey process_of(const StepRow& r) { return {r.phase, r.app, r.config, r.rep}; }

std::string measured_loop(const StepRow& reference) {
  return reference.loop.substr(0, reference.loop.size() - suffix.size());
}

}  // namespace

bool is_reference_row(const StepRow& row) {
  return row.loop.size() > suffix.size() &&
         std::string_view(row.loop).substr(row.loop.size() - suffix.size()) == suffix;
}

std::vector<StepRow> without_reference_rows(const std::vector<StepRow>& rows) {
  std::vector<StepRow> out;
  out.reserve(rows.size());
  for (const StepRow& r : rows) {
    if (!is_reference_row(r)) out.push_back(r);
  }
  return out;
}

LevelAdjusted divide_out_process_levels(const std::vector<StepRow>& rows) {
  // Each process's reference times, per measured loop.
  using LoopKey = std::pair<std::string, std::string>;  // app, loop
  std::map<LoopKey, std::map<ProcessKey, std::vector<double>>> references;
  for (const StepRow& r : rows) {
    if (is_reference_row(r) && r.time_ns > 0) references[{r.app, measured_loop(r)}][process_of(r)].push_back(r.time_ns);
  }
  std::map<LoopKey, std::map<ProcessKey, double>> level;
  LevelAdjusted out;
  for (const auto& [loop, processes] : references) {
    std::map<ProcessKey, double>& levels = level[loop];
    std::vector<double> medians;
    for (const auto& [process, times] : processes) medians.push_back(levels[process] = median(times));
    LevelAdjustment a;
    a.app = loop.first;
    a.loop = loop.second;
    a.processes = static_cast<int>(levels.size());
    a.baseline_ns = median(medians);
    std::vector<double> values;
    for (auto& [process, m] : levels) {
      m /= a.baseline_ns;  // the process's median becomes its level
      values.push_back(m);
      const auto& [phase, app, config, rep] = process;
      out.processes.push_back({phase, app, loop.second, config, rep, m});
    }
    a.min_level = *std::min_element(values.begin(), values.end());
    a.max_level = *std::max_element(values.begin(), values.end());
    a.median_level = median(values);
    out.loops.push_back(a);
  }
  std::map<LoopKey, std::set<ProcessKey>> unreferenced;
  out.rows.reserve(rows.size());
  for (const StepRow& r : rows) {
    if (is_reference_row(r)) continue;
    StepRow adjusted = r;
    if (const auto loop = level.find({r.app, r.loop}); loop != level.end()) {
      if (const auto process = loop->second.find(process_of(r)); process != loop->second.end()) {
        adjusted.time_ns = r.time_ns / process->second;
      } else {
        unreferenced[loop->first].insert(process_of(r));
      }
    }
    out.rows.push_back(std::move(adjusted));
  }
  for (LevelAdjustment& a : out.loops) a.unreferenced = static_cast<int>(unreferenced[{a.app, a.loop}].size());
  return out;
}

}  // namespace autosched::campaign
