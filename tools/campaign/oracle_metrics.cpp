#include "oracle_metrics.hpp"

#include <autosched/core/error.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>

namespace autosched::campaign {

namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

/// Steps every repetition of every configuration has (a short run, e.g. one
/// that failed, limits the table rather than skewing a median).
int common_steps(const LoopTable& t) {
  int steps = std::numeric_limits<int>::max();
  bool any = false;
  for (const auto& c : t.configs) {
    for (const auto& r : c.reps) {
      steps = std::min(steps, static_cast<int>(r.time_ns.size()));
      any = true;
    }
  }
  return any ? steps : 0;
}

using ArmTimes = std::map<std::string, const std::vector<double>*>;

/// ConfigMetrics::choice_pct and ::run_level of a method (NaN otherwise).
void price_choices(const ConfigRuns& c, const LoopMetrics& m, const ArmTimes& arm_times, ConfigMetrics& cm) {
  cm.choice_pct = nan;
  cm.run_level = nan;
  if (c.kind != ConfigKind::method || c.reps.empty()) return;
  const auto T = static_cast<std::size_t>(m.steps);
  std::vector<StepSeries> priced(c.reps.size());
  std::vector<double> levels;
  for (std::size_t r = 0; r < c.reps.size(); ++r) {
    const StepSeries& run = c.reps[r];
    priced[r].time_ns.resize(T);
    for (std::size_t t = 0; t < T; ++t) {
      const bool cut = t < run.cut_short.size() && run.cut_short[t];
      const auto it = arm_times.find(run.arm[t]);
      if (cut || it == arm_times.end()) {
        priced[r].time_ns[t] = run.time_ns[t];
        continue;
      }
      const double price = (*it->second)[t];
      priced[r].time_ns[t] = price;
      if (price > 0) levels.push_back(run.time_ns[t] / price);
    }
  }
  double total_ms = 0;
  for (double x : step_medians(priced)) total_ms += x / 1e6;
  cm.choice_pct = (total_ms - m.oracle_ms) / m.oracle_ms * 100;
  if (!levels.empty()) cm.run_level = median(std::move(levels));
}

}  // namespace

const ConfigMetrics* LoopMetrics::find(const std::string& name) const {
  for (const auto& c : configs) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

double median(std::vector<double> v) {
  AUTOSCHED_ASSERT(!v.empty());
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.size() % 2 == 1 ? v[m] : (v[m - 1] + v[m]) / 2;
}

std::vector<double> step_medians(const std::vector<StepSeries>& reps) {
  if (reps.empty()) return {};
  std::size_t steps = reps[0].time_ns.size();
  for (const auto& r : reps) steps = std::min(steps, r.time_ns.size());
  std::vector<double> out(steps);
  std::vector<double> column(reps.size());
  for (std::size_t t = 0; t < steps; ++t) {
    for (std::size_t r = 0; r < reps.size(); ++r) column[r] = reps[r].time_ns[t];
    out[t] = median(column);
  }
  return out;
}

LoopMetrics evaluate(const LoopTable& table) {
  LoopMetrics m;
  m.app = table.app;
  m.loop = table.loop;
  const int steps = common_steps(table);
  m.steps = steps;
  const auto T = static_cast<std::size_t>(steps);

  for (const auto& c : table.configs) {
    ConfigMetrics cm;
    cm.name = c.name;
    cm.kind = c.kind;
    cm.reps = static_cast<int>(c.reps.size());
    if (!c.reps.empty()) {
      cm.median_ns = step_medians(c.reps);
      cm.median_ns.resize(T);
      cm.arms.assign(c.reps[0].arm.begin(), c.reps[0].arm.begin() + static_cast<std::ptrdiff_t>(T));
    }
    for (double x : cm.median_ns) cm.total_ms += x / 1e6;
    m.configs.push_back(std::move(cm));
  }

  // The Oracle: per step, the fastest arm's median.
  m.oracle_ns.assign(T, std::numeric_limits<double>::infinity());
  m.oracle_arms.assign(T, "");
  m.oracle_labels.assign(T, "");
  m.best_arm_ms = std::numeric_limits<double>::infinity();
  bool any_arm = false;
  for (std::size_t i = 0; i < table.configs.size(); ++i) {
    const auto& c = table.configs[i];
    const auto& cm = m.configs[i];
    if (c.kind != ConfigKind::arm || c.reps.empty()) continue;
    any_arm = true;
    for (std::size_t t = 0; t < T; ++t) {
      if (cm.median_ns[t] < m.oracle_ns[t]) {
        m.oracle_ns[t] = cm.median_ns[t];
        m.oracle_arms[t] = c.name;
        m.oracle_labels[t] = c.arm_label;
      }
    }
    if (cm.total_ms < m.best_arm_ms) {
      m.best_arm_ms = cm.total_ms;
      m.best_arm = c.name;
    }
  }
  if (!any_arm || steps == 0) {
    detail::throw_error("loop " + table.app + "/" + table.loop +
                        ": no arm was measured, so there is no Oracle (run the campaign with --arms)");
  }
  for (double x : m.oracle_ns) m.oracle_ms += x / 1e6;

  // Median time of each arm at each step, by recorded label, to judge the
  // arms methods chose.
  ArmTimes arm_times;
  for (std::size_t i = 0; i < table.configs.size(); ++i) {
    if (table.configs[i].kind == ConfigKind::arm && !table.configs[i].reps.empty()) {
      arm_times[table.configs[i].arm_label] = &m.configs[i].median_ns;
    }
  }

  for (std::size_t i = 0; i < table.configs.size(); ++i) {
    const auto& c = table.configs[i];
    auto& cm = m.configs[i];
    cm.degradation_pct = (cm.total_ms - m.oracle_ms) / m.oracle_ms * 100;
    cm.regret_pct = (cm.total_ms - m.best_arm_ms) / m.best_arm_ms * 100;
    if (c.reps.empty()) continue;
    double steps_share = 0, time_share = 0, lost = 0, same = 0, near = 0;
    long judged = 0, near_hits = 0;
    std::vector<double> settled, selection;
    double fastest = std::numeric_limits<double>::infinity(), slowest = 0;
    for (const auto& r : c.reps) {
      long explored = 0;
      double explored_ns = 0, total_ns = 0, lost_ns = 0;
      int last_explored = -1;
      long same_steps = 0;
      for (std::size_t t = 0; t < T; ++t) {
        total_ns += r.time_ns[t];
        if (r.explored[t]) {
          ++explored;
          explored_ns += r.time_ns[t];
          lost_ns += r.time_ns[t] - m.oracle_ns[t];
          last_explored = static_cast<int>(t);
        }
        if (r.arm[t] == m.oracle_labels[t]) ++same_steps;
        if (auto it = arm_times.find(r.arm[t]); it != arm_times.end()) {
          ++judged;
          if ((*it->second)[t] <= near_oracle_factor * m.oracle_ns[t]) ++near_hits;
        }
        if (c.kind == ConfigKind::method) selection.push_back(r.selection_ns[t]);
      }
      fastest = std::min(fastest, total_ns);
      slowest = std::max(slowest, total_ns);
      steps_share += static_cast<double>(explored) / steps;
      time_share += total_ns > 0 ? explored_ns / total_ns : 0;
      lost += lost_ns / 1e6;
      same += static_cast<double>(same_steps) / steps;
      settled.push_back(last_explored + 1);
    }
    const auto reps = static_cast<double>(c.reps.size());
    price_choices(c, m, arm_times, cm);
    cm.explored_steps_pct = steps_share / reps * 100;
    cm.explored_time_pct = time_share / reps * 100;
    cm.explored_lost_ms = lost / reps;
    cm.settled_step = static_cast<int>(median(settled));
    cm.same_arm_pct = same / reps * 100;
    near = judged > 0 ? static_cast<double>(near_hits) / static_cast<double>(judged) * 100 : nan;
    cm.near_oracle_pct = near;
    // The mean, not the median: a settled auto learns 8 to 32 instances at a time,
    // so most of its instances cost nothing and the batch's last all of it.
    cm.selector_ns = selection.empty() ? nan
                                       : std::accumulate(selection.begin(), selection.end(), 0.0) /
                                             static_cast<double>(selection.size());
    cm.rep_spread_pct = c.reps.size() > 1 && fastest > 0 ? (slowest - fastest) / fastest * 100 : nan;
  }
  return m;
}

std::vector<LoopTable> group_rows(const std::vector<StepRow>& rows, const std::string& phase) {
  std::vector<LoopTable> tables;
  std::map<std::pair<std::string, std::string>, std::size_t> loop_index;
  std::vector<std::map<std::string, std::size_t>> config_index;
  std::vector<std::vector<std::map<int, std::size_t>>> rep_index;
  for (const StepRow& r : rows) {
    if (r.phase != phase) continue;
    auto [lit, new_loop] = loop_index.try_emplace({r.app, r.loop}, tables.size());
    if (new_loop) {
      tables.push_back({r.app, r.loop, {}});
      config_index.emplace_back();
      rep_index.emplace_back();
    }
    LoopTable& t = tables[lit->second];
    auto [cit, new_config] = config_index[lit->second].try_emplace(r.config, t.configs.size());
    if (new_config) {
      t.configs.push_back({r.config, r.kind, r.arm_label, {}});
      rep_index[lit->second].emplace_back();
    }
    ConfigRuns& c = t.configs[cit->second];
    auto [rit, new_rep] = rep_index[lit->second][cit->second].try_emplace(r.rep, c.reps.size());
    if (new_rep) c.reps.emplace_back();
    StepSeries& s = c.reps[rit->second];
    const auto step = static_cast<std::size_t>(r.step);
    if (s.time_ns.size() <= step) {
      s.time_ns.resize(step + 1, 0.0);
      s.arm.resize(step + 1);
      s.explored.resize(step + 1, false);
      s.selection_ns.resize(step + 1, 0.0);
      s.cut_short.resize(step + 1, false);
    }
    s.time_ns[step] = r.time_ns;
    s.arm[step] = r.arm;
    s.explored[step] = r.explored;
    s.selection_ns[step] = r.selection_ns;
    s.cut_short[step] = r.cut_short;
  }
  return tables;
}

}  // namespace autosched::campaign
