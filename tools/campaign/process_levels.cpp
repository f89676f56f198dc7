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

LevelAdjusted divide_out_process_levels(const std::vector<StepRow>& rows, int window) {
  using LoopKey = std::pair<std::string, std::string>;  // app, loop
  // Each process's reference time at each step, per measured loop.
  std::map<LoopKey, std::map<ProcessKey, std::map<int, double>>> references;
  for (const StepRow& r : rows) {
    if (is_reference_row(r) && r.time_ns > 0) references[{r.app, measured_loop(r)}][process_of(r)][r.step] = r.time_ns;
  }
  // What a process's instances are divided by: one level (whole_process_level,
  // or where no reference lies within the window), else the median of the
  // ratios reference ÷ step baseline over the window around the instance.
  struct Divisor {
    double whole = 1;
    std::map<int, double> ratio_at_step;
  };
  std::map<LoopKey, std::map<ProcessKey, Divisor>> divisors;
  LevelAdjusted out;
  for (const auto& [loop, processes] : references) {
    std::map<ProcessKey, Divisor>& divisor = divisors[loop];
    std::vector<double> medians;
    std::map<int, std::vector<double>> at_step;
    for (const auto& [process, times] : processes) {
      std::vector<double> values;
      for (const auto& [step, t] : times) {
        values.push_back(t);
        at_step[step].push_back(t);
      }
      medians.push_back(divisor[process].whole = median(std::move(values)));
    }
    LevelAdjustment a;
    a.app = loop.first;
    a.loop = loop.second;
    a.processes = static_cast<int>(processes.size());
    a.baseline_ns = median(medians);
    a.window = window;
    std::map<int, double> step_baseline;
    for (auto& [step, times] : at_step) step_baseline[step] = median(std::move(times));
    for (auto& [process, d] : divisor) {
      if (window < 0) {
        d.whole /= a.baseline_ns;  // the process's median becomes its level
        continue;
      }
      std::vector<double> ratios;
      for (const auto& [step, t] : processes.at(process)) {
        ratios.push_back(d.ratio_at_step[step] = t / step_baseline.at(step));
      }
      d.whole = median(std::move(ratios));
    }
    out.loops.push_back(a);
  }
  const auto divisor_at = [window](const Divisor& d, int step) {
    if (window < 0) return d.whole;
    std::vector<double> near;
    for (auto it = d.ratio_at_step.lower_bound(step - window);
         it != d.ratio_at_step.end() && it->first <= step + window; ++it) {
      near.push_back(it->second);
    }
    return near.empty() ? d.whole : median(std::move(near));
  };
  std::map<LoopKey, std::set<ProcessKey>> unreferenced;
  std::map<LoopKey, std::map<ProcessKey, std::pair<double, double>>> totals;  // measured, adjusted
  out.rows.reserve(rows.size());
  for (const StepRow& r : rows) {
    if (is_reference_row(r)) continue;
    StepRow adjusted = r;
    if (const auto loop = divisors.find({r.app, r.loop}); loop != divisors.end()) {
      if (const auto process = loop->second.find(process_of(r)); process != loop->second.end()) {
        adjusted.time_ns = r.time_ns / divisor_at(process->second, r.step);
        auto& [measured, divided] = totals[loop->first][process->first];
        measured += r.time_ns;
        divided += adjusted.time_ns;
      } else {
        unreferenced[loop->first].insert(process_of(r));
      }
    }
    out.rows.push_back(std::move(adjusted));
  }
  for (LevelAdjustment& a : out.loops) {
    const LoopKey loop{a.app, a.loop};
    a.unreferenced = static_cast<int>(unreferenced[loop].size());
    std::vector<double> values;
    for (const auto& [process, d] : divisors[loop]) {
      double level = d.whole;
      if (window >= 0) {
        const auto& [measured, divided] = totals[loop][process];
        if (divided > 0) level = measured / divided;
      }
      values.push_back(level);
      const auto& [phase, app, config, rep] = process;
      out.processes.push_back({phase, app, a.loop, config, rep, level});
    }
    a.min_level = *std::min_element(values.begin(), values.end());
    a.max_level = *std::max_element(values.begin(), values.end());
    a.median_level = median(values);
  }
  return out;
}

}  // namespace autosched::campaign
