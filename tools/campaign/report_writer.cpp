#include "report_writer.hpp"

#include "gnuplot.hpp"
#include "oracle_metrics.hpp"
#include "process_levels.hpp"
#include "runs_table.hpp"

#include <autosched/core/error.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <memory>
#include <set>
#include <sstream>

namespace autosched::campaign {

namespace fs = std::filesystem;

namespace {

constexpr const char* warm_suffix = " (warm)";

std::string file_name(std::string s) {
  for (char& c : s) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '+') c = '-';
  }
  return s;
}

std::string fmt(double v, int decimals = 1) {
  if (std::isnan(v)) return "–";
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, v);
  return buffer;
}

/// The cold table of each loop with the warm runs appended as extra methods
/// ("auto (warm)"), so both are judged against the same Oracle.
std::vector<LoopMetrics> evaluate_all(const std::vector<StepRow>& rows) {
  std::vector<LoopTable> cold = group_rows(rows, "cold");
  const std::vector<LoopTable> warm = group_rows(rows, "warm");
  for (const LoopTable& w : warm) {
    auto it =
        std::find_if(cold.begin(), cold.end(), [&](const LoopTable& c) { return c.app == w.app && c.loop == w.loop; });
    if (it == cold.end()) continue;
    for (ConfigRuns c : w.configs) {
      c.name += warm_suffix;
      it->configs.push_back(std::move(c));
    }
  }
  // Columns in the protocol's app order (runs were shuffled), loops by name.
  auto app_rank = [](const std::string& app) {
    const auto& names = app_names();
    return std::find(names.begin(), names.end(), app) - names.begin();
  };
  std::stable_sort(cold.begin(), cold.end(), [&](const LoopTable& a, const LoopTable& b) {
    return std::pair(app_rank(a.app), a.loop) < std::pair(app_rank(b.app), b.loop);
  });
  std::vector<LoopMetrics> out;
  out.reserve(cold.size());
  for (const LoopTable& t : cold) out.push_back(evaluate(t));
  return out;
}

/// Where a configuration sits in the campaign's plan order (arms, references,
/// published methods, then anything else).
std::size_t plan_rank(const std::string& name) {
  static const std::vector<std::string> order = [] {
    std::vector<std::string> o;
    for (const auto& list : {oracle_arms(), references(), published_methods()}) {
      for (const auto& c : list) o.push_back(c.name);
    }
    return o;
  }();
  const std::string base =
      name.ends_with(warm_suffix) ? name.substr(0, name.size() - std::string(warm_suffix).size()) : name;
  return static_cast<std::size_t>(std::find(order.begin(), order.end(), base) - order.begin());
}

/// Row names of a kind, in plan order.
std::vector<std::string> names_of_kind(const std::vector<LoopMetrics>& loops, ConfigKind kind, bool warm) {
  std::vector<std::string> out;
  for (const auto& l : loops) {
    for (const auto& c : l.configs) {
      const bool is_warm = c.name.size() > std::string(warm_suffix).size() && c.name.ends_with(warm_suffix);
      if (c.kind == kind && is_warm == warm && std::find(out.begin(), out.end(), c.name) == out.end()) {
        out.push_back(c.name);
      }
    }
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const std::string& a, const std::string& b) { return plan_rank(a) < plan_rank(b); });
  return out;
}

/// A methods × loops Markdown table of one metric, with a mean column.
template <class Metric>
std::string matrix(const std::vector<LoopMetrics>& loops, const std::vector<std::string>& rows, Metric metric,
                   int decimals, bool with_mean) {
  std::ostringstream md;
  md << "| method |";
  for (const auto& l : loops) md << ' ' << l.loop << " |";
  if (with_mean) md << " mean |";
  md << "\n|---|";
  for (std::size_t i = 0; i < loops.size() + (with_mean ? 1 : 0); ++i) md << "---:|";
  md << '\n';
  for (const auto& row : rows) {
    md << "| " << row << " |";
    double sum = 0;
    int n = 0;
    for (const auto& l : loops) {
      const ConfigMetrics* c = l.find(row);
      const double v = c != nullptr ? metric(l, *c) : std::nan("");
      md << ' ' << fmt(v, decimals) << " |";
      if (!std::isnan(v)) {
        sum += v;
        ++n;
      }
    }
    if (with_mean) md << ' ' << (n > 0 ? fmt(sum / n, decimals) : "–") << " |";
    md << '\n';
  }
  return md.str();
}

/// The "best fixed arm" row under a degradation matrix: each loop's best arm
/// against its Oracle (%), and their mean when the matrix has a mean column.
std::string best_fixed_arm_row(const std::vector<LoopMetrics>& loops, bool with_mean) {
  std::ostringstream row;
  double sum = 0;
  row << "| best fixed arm |";
  for (const auto& l : loops) {
    const double d = (l.best_arm_ms - l.oracle_ms) / l.oracle_ms * 100;
    sum += d;
    row << ' ' << fmt(d) << " |";
  }
  if (with_mean) row << ' ' << fmt(sum / static_cast<double>(loops.size())) << " |";
  row << '\n';
  return row.str();
}

void write_metrics_csv(const fs::path& path, const Metadata& meta, const std::vector<LoopMetrics>& loops) {
  OutputFile f = create_file(path);
  write_metadata(f.get(), meta);
  std::fputs(
      "phase,app,loop,config,kind,reps,total_ms,oracle_ms,best_arm,degradation_pct,regret_pct,explored_steps_pct,"
      "explored_time_pct,explored_lost_ms,settled_step,same_arm_pct,near_oracle_pct,selector_ns,rep_spread_pct,"
      "choice_pct,run_level\n",
      f.get());
  for (const auto& l : loops) {
    for (const auto& c : l.configs) {
      const bool warm = c.name.ends_with(warm_suffix);
      const std::string name = warm ? c.name.substr(0, c.name.size() - std::string(warm_suffix).size()) : c.name;
      std::fprintf(f.get(), "%s,%s,%s,%s,%s,%d,%.3f,%.3f,%s,%.3f,%.3f,%.2f,%.2f,%.3f,%d,%.2f,%.2f,%.0f,%.2f,%.3f,%.4f\n",
                   warm ? "warm" : "cold", csv_field(l.app).c_str(), csv_field(l.loop).c_str(), csv_field(name).c_str(),
                   kind_name(c.kind), c.reps, c.total_ms, l.oracle_ms, csv_field(l.best_arm).c_str(), c.degradation_pct,
                   c.regret_pct, c.explored_steps_pct, c.explored_time_pct, c.explored_lost_ms, c.settled_step,
                   c.same_arm_pct, c.near_oracle_pct, c.selector_ns, c.rep_spread_pct, c.choice_pct, c.run_level);
    }
  }
}

void write_steps_csv(const fs::path& path, const Metadata& meta, const std::vector<LoopMetrics>& loops) {
  OutputFile f = create_file(path);
  write_metadata(f.get(), meta);
  std::fputs("app,loop,config,step,median_ns,arm,oracle_ns,oracle_arm\n", f.get());
  for (const auto& l : loops) {
    for (const auto& c : l.configs) {
      for (std::size_t t = 0; t < c.median_ns.size(); ++t) {
        std::fprintf(f.get(), "%s,%s,%s,%zu,%.0f,%s,%.0f,%s\n", csv_field(l.app).c_str(), csv_field(l.loop).c_str(),
                     csv_field(c.name).c_str(), t, c.median_ns[t], csv_field(c.arms[t]).c_str(), l.oracle_ns[t],
                     csv_field(l.oracle_arms[t]).c_str());
      }
    }
  }
}

/// "2 (real threads of this machine)" → "2".
/// Every process's level (process_levels.hpp), so that a script summing
/// runs.csv itself can divide it out as the report did.
void write_levels_csv(const fs::path& path, const Metadata& meta, const std::vector<ProcessLevel>& processes) {
  OutputFile f = create_file(path);
  write_metadata(f.get(), meta);
  std::fputs("phase,app,loop,config,rep,level\n", f.get());
  for (const auto& p : processes) {
    std::fprintf(f.get(), "%s,%s,%s,%s,%d,%.6f\n", p.phase.c_str(), csv_field(p.app).c_str(), csv_field(p.loop).c_str(),
                 csv_field(p.config).c_str(), p.rep, p.level);
  }
}

std::string thread_count(const Metadata& meta) {
  const std::string t = meta_value(meta, "threads");
  return t.substr(0, t.find(' '));
}

std::string gnuplot_text(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '\'') continue;
    if (c == '_' || c == '@' || c == '^' || c == '&' || c == '{' || c == '}') out += '\\';
    out += c;
  }
  return out;
}

/// Writes heatmap.{dat,gp}; returns the script's name. A campaign with
/// cells not measured adds a note saying so.
std::string heatmap_script(const fs::path& dir, const Metadata& meta, const std::vector<LoopMetrics>& loops,
                           const std::vector<std::string>& rows, std::vector<std::string>& notes) {
  OutputFile dat = create_file(dir / "heatmap.dat");
  write_metadata(dat.get(), meta);
  std::fputs("# column row degradation_pct\n", dat.get());
  std::size_t measured = 0;
  for (std::size_t r = 0; r < rows.size(); ++r) {
    for (std::size_t c = 0; c < loops.size(); ++c) {
      double v = std::nan("");
      if (rows[r] == "best fixed arm") {
        v = (loops[c].best_arm_ms - loops[c].oracle_ms) / loops[c].oracle_ms * 100;
      } else if (const ConfigMetrics* m = loops[c].find(rows[r])) {
        v = m->degradation_pct;
      }
      if (!std::isnan(v)) {
        std::fprintf(dat.get(), "%zu %zu %.3f\n", c, r, v);
        ++measured;
      }
    }
  }
  const std::size_t cells = rows.size() * loops.size();
  const std::string incomplete =
      measured < cells ? ", incomplete campaign: " + std::to_string(cells - measured) + " of " +
                             std::to_string(cells) + " cells not measured (blank)"
                       : "";
  if (!incomplete.empty()) notes.push_back(incomplete.substr(2) + " in heatmap.png");
  OutputFile gp = create_file(dir / "heatmap.gp");
  // Room on the right for the colour bar's label (it was clipped).
  const int width = 360 + 110 * static_cast<int>(loops.size());
  // At least as tall as the colour bar's label (a three-row heatmap clipped it).
  const int height = std::max(330, 140 + 24 * static_cast<int>(rows.size()));
  std::fprintf(gp.get(),
               "# Degradation vs the Oracle, methods x app/loop. Regenerate: gnuplot heatmap.gp\n"
               "set terminal pngcairo size %d,%d font 'sans,9'\nset output 'heatmap.png'\n"
               "set title 'Degradation vs the Oracle (%%), %s threads%s' noenhanced\nunset key\nset rmargin 14\n"
               "set xrange [-0.5:%zu.5]\nset yrange [%zu.5:-0.5]\nset xtics rotate by 25 right (",
               width, height, thread_count(meta).c_str(), incomplete.c_str(), loops.size() - 1, rows.size() - 1);
  for (std::size_t c = 0; c < loops.size(); ++c) {
    std::fprintf(gp.get(), "%s'%s' %zu", c ? ", " : "", gnuplot_text(loops[c].loop).c_str(), c);
  }
  std::fputs(") noenhanced\nset ytics (", gp.get());
  for (std::size_t r = 0; r < rows.size(); ++r) {
    std::fprintf(gp.get(), "%s'%s' %zu", r ? ", " : "", gnuplot_text(rows[r]).c_str(), r);
  }
  std::fputs(
      ") noenhanced\nset tics scale 0\ncap = 50\nset cbrange [0:cap]\nset cblabel 'degradation % (capped at 50)'\n"
      "set palette defined (0 '#1a9850', 5 '#a6d96a', 10 '#fee08b', 25 '#fc8d59', 50 '#d73027')\n"
      // One box per measured cell: a cell not measured stays blank (an
      // image plot of a sparse grid smeared its neighbours into wedges).
      "plot 'heatmap.dat' using 1:2:(0.5):(0.5):($3 > cap ? cap : $3) with boxxyerror fs solid noborder "
      "fc palette, \\\n"
      "     '' using 1:2:(sprintf('%.1f', $3)) with labels font 'sans,8'\n",
      gp.get());
  return "heatmap.gp";
}

/// A colour per arm label, the same in every plot of the report.
std::map<std::string, std::string> arm_colours(const std::set<std::string>& labels) {
  std::map<std::string, std::string> out;
  int i = 0;
  for (const auto& label : labels) {
    const double h = std::fmod(i * 0.618033988749895, 1.0) * 6;
    const double v = i % 2 == 0 ? 0.85 : 0.6;
    const double s = 0.75;
    const double f = h - std::floor(h);
    const double p = v * (1 - s), q = v * (1 - s * f), t = v * (1 - s * (1 - f));
    // The HSV sector picks which of v, t, p, q feed red, green and blue.
    const double sectors[6][3] = {{v, t, p}, {q, v, p}, {p, v, t}, {p, q, v}, {t, p, v}, {v, p, q}};
    const auto& rgb = sectors[std::min(5, static_cast<int>(h))];
    const double r = rgb[0], g = rgb[1], b = rgb[2];
    char buffer[8];
    std::snprintf(buffer, sizeof buffer, "#%02x%02x%02x", static_cast<int>(r * 255), static_cast<int>(g * 255),
                  static_cast<int>(b * 255));
    out[label] = buffer;
    ++i;
  }
  return out;
}

struct Selection {
  std::string method;
  std::vector<double> ms;
  std::vector<std::string> arms;
};

/// Writes selection-<loop>-<method>.{dat,gp}; returns the script's name.
std::string selection_script(const fs::path& dir, const Metadata& meta, const LoopMetrics& l, const Selection& s,
                             const std::map<std::string, std::string>& colours) {
  const std::string base = "selection-" + file_name(l.loop) + "-" + file_name(s.method);
  std::vector<std::string> used;
  for (const auto& a : s.arms) {
    if (std::find(used.begin(), used.end(), a) == used.end()) used.push_back(a);
  }
  OutputFile dat = create_file(dir / (base + ".dat"));
  write_metadata(dat.get(), meta);
  std::fputs("# step time_ms arm_index oracle_ms\n", dat.get());
  double total = 0;
  for (std::size_t t = 0; t < s.ms.size(); ++t) {
    const auto k = std::find(used.begin(), used.end(), s.arms[t]) - used.begin();
    std::fprintf(dat.get(), "%zu %.4f %td %.4f\n", t, s.ms[t], k, l.oracle_ns[t] / 1e6);
    total += s.ms[t];
  }
  OutputFile gp = create_file(dir / (base + ".gp"));
  std::fprintf(gp.get(),
               "# Per-step selection of %s on %s (first repetition). Regenerate: gnuplot %s.gp\n"
               "set terminal pngcairo size 1000,420 font 'sans,9'\nset output '%s.png'\n"
               "set title '%s on %s: %.1f ms in total, Oracle %.1f ms (%s threads)' noenhanced\n"
               "set xlabel 'time step'\nset ylabel 'loop time (ms)'\nset yrange [0:*]\nset xrange [-1:%zu]\n"
               "set key outside right top vertical noenhanced font 'sans,8'\nset style fill solid 1.0 noborder\n"
               "set boxwidth 0.9\nplot ",
               s.method.c_str(), l.loop.c_str(), base.c_str(), base.c_str(), gnuplot_text(s.method).c_str(),
               gnuplot_text(l.loop).c_str(), total, l.oracle_ms, thread_count(meta).c_str(), s.ms.size());
  for (std::size_t k = 0; k < used.size(); ++k) {
    const auto it = colours.find(used[k]);
    std::fprintf(gp.get(), "%s'%s.dat' using 1:($3 == %zu ? $2 : 1/0) with boxes lc rgb '%s' title '%s'",
                 k ? ", \\\n     " : "", base.c_str(), k, it != colours.end() ? it->second.c_str() : "#888888",
                 gnuplot_text(used[k]).c_str());
  }
  std::fprintf(gp.get(), ", \\\n     '%s.dat' using 1:4 with lines lc rgb 'black' lw 1 title 'Oracle step'\n",
               base.c_str());
  return base + ".gp";
}

std::vector<std::string> failures(const fs::path& path) {
  std::vector<std::string> out;
  std::ifstream in(path);
  std::string line;
  bool header = false;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    if (!header) {
      header = true;
      continue;
    }
    out.push_back(line);
  }
  return out;
}

}  // namespace

ReportOutcome write_report(const ReportOptions& options) {
  const fs::path dir = options.dir;
  const RunsTable runs = read_runs((dir / "runs.csv").string());
  if (runs.rows.empty()) detail::throw_error((dir / "runs.csv").string() + ": no runs recorded yet");
  // Processes' levels divided out where the apps measured references
  // (process_levels.hpp); everything below is computed on these rows.
  const LevelAdjusted adjusted = divide_out_process_levels(runs.rows, options.level_window);
  const std::vector<LoopMetrics> loops = evaluate_all(adjusted.rows);
  const std::vector<std::string> methods = names_of_kind(loops, ConfigKind::method, false);
  const std::vector<std::string> warm = names_of_kind(loops, ConfigKind::method, true);
  const std::vector<std::string> refs = names_of_kind(loops, ConfigKind::reference, false);
  std::vector<std::string> rows = methods;
  rows.insert(rows.end(), refs.begin(), refs.end());
  std::vector<std::string> cold_and_warm = methods;
  cold_and_warm.insert(cold_and_warm.end(), warm.begin(), warm.end());

  ReportOutcome out;
  const Metadata& meta = runs.meta;
  write_metrics_csv(dir / "metrics.csv", meta, loops);
  write_steps_csv(dir / "steps.csv", meta, loops);
  write_levels_csv(dir / "process-levels.csv", meta, adjusted.processes);

  // The headline table: every method and reference, then the best fixed arm.
  std::string degradation = matrix(
      loops, rows, [](const LoopMetrics&, const ConfigMetrics& c) { return c.degradation_pct; }, 1, true);
  degradation += best_fixed_arm_row(loops, true);
  {
    std::ostringstream extra;
    extra << "| Oracle (ms) |";
    for (const auto& l : loops) extra << ' ' << fmt(l.oracle_ms, l.oracle_ms < 10 ? 2 : 0) << " |";
    extra << " |\n";
    degradation += extra.str();
  }
  out.degradation_table = degradation;

  std::ostringstream md;
  md << "# Campaign summary\n\n";
  for (const auto& [k, v] : meta) md << "- **" << k << "**: " << v << '\n';
  md << "\nLoop times are per-step medians over the repetitions; the Oracle takes, at every step, the fastest of the "
        "arms measured (the fixed schedules), so a method can beat it only by luck of noise.\n\n";
  md << "## Degradation vs the Oracle (%)\n\n(T − T_oracle) / T_oracle × 100; lower is better.\n\n";
  if (!adjusted.loops.empty()) {
    md << "Level-adjusted loops: ";
    for (std::size_t i = 0; i < adjusted.loops.size(); ++i) md << (i > 0 ? ", " : "") << adjusted.loops[i].loop;
    md << ". Every instance of these loops is divided by the level its process ran at "
       << (options.level_window < 0 ? std::string("(one level per process)")
                                    : "around it (" + std::to_string(2 * options.level_window + 1) + " instances)")
       << " (see \"Process levels\" below), so the tables measure the schedule, not the process's luck.\n\n";
  }
  md << degradation;
  md << "\n## The choices alone: degradation with each step priced at its arm's median (%)\n\n"
        "A method runs in its own processes, and on a shared machine one process can run every arm 10% or more "
        "faster or slower than the next. Here each step of a method is priced as the Oracle prices its own: at the "
        "per-step median of the fixed-arm runs of the arm the method ran (a profiling step or a trial cut at its "
        "budget keeps its measured time). What remains is the cost of the choices, without the luck of the method's "
        "processes. The headline table above is the measurement; this one says how much of it is the choice.\n\n"
     << matrix(
            loops, cold_and_warm, [](const LoopMetrics&, const ConfigMetrics& c) { return c.choice_pct; }, 1, true)
     << "\nRun level: median over those steps of measured ÷ priced time (1.00 = the method's processes ran its arms "
        "as fast as the arms' own processes did).\n\n"
     << matrix(
            loops, cold_and_warm, [](const LoopMetrics&, const ConfigMetrics& c) { return c.run_level; }, 2, true);
  if (!adjusted.loops.empty()) {
    const std::vector<LoopMetrics> raw = evaluate_all(without_reference_rows(runs.rows));
    std::vector<LoopMetrics> raw_adjusted_loops;
    for (const auto& l : raw) {
      for (const auto& a : adjusted.loops) {
        if (a.app == l.app && a.loop == l.loop) raw_adjusted_loops.push_back(l);
      }
    }
    // Did the division remove the processes' luck? Then the fixed arms'
    // processes agree better with each other than as measured.
    const auto arms_rep_spread = [](const std::vector<LoopMetrics>& of, const LevelAdjustment& a) {
      std::vector<double> spreads;
      for (const auto& l : of) {
        if (l.app != a.app || l.loop != a.loop) continue;
        for (const auto& c : l.configs) {
          if (c.kind == ConfigKind::arm && std::isfinite(c.rep_spread_pct)) spreads.push_back(c.rep_spread_pct);
        }
      }
      return spreads.empty() ? std::numeric_limits<double>::quiet_NaN() : median(spreads);
    };
    md << "\n## Process levels\n\nAfter each instance of these loops the app ran the same work once more under "
          "a fixed balanced schedule, each thread its own share from the front and then the others' from the back "
          "(`--level-reference`). ";
    if (options.level_window < 0) {
      md << "A process's level is the median of its reference instances ÷ the median over all processes; its "
            "instances of the loop were divided by it. ";
    } else {
      md << "An instance at step s was divided by the median, over the steps s − " << options.level_window
         << " … s + " << options.level_window
         << " of its process, of the reference ÷ that step's median reference over all processes: the level the "
            "process ran at around that instance (the machine drifts within a process too). A process's level "
            "below is what its total was divided by (Σ measured ÷ Σ adjusted). ";
    }
    md << "Rep spread: the median over the fixed arms of (slowest − fastest repetition) ÷ fastest, as measured and "
          "after the division; the division removed process luck where the second is the smaller.\n\n"
          "| loop | processes | without references (as measured) | baseline reference (ms) | lowest level | "
          "median level | highest level | arms' rep spread as measured (%) | after the division (%) |\n"
          "|---|---:|---:|---:|---:|---:|---:|---:|---:|\n";
    for (const auto& a : adjusted.loops) {
      md << "| " << a.loop << " | " << a.processes << " | " << a.unreferenced << " | " << fmt(a.baseline_ns / 1e6, 2)
         << " | " << fmt(a.min_level, 2) << " | " << fmt(a.median_level, 2) << " | " << fmt(a.max_level, 2) << " | "
         << fmt(arms_rep_spread(raw, a)) << " | " << fmt(arms_rep_spread(loops, a)) << " |\n";
    }
    md << "\nThe same loops as measured, levels left in (degradation vs the Oracle, %):\n\n"
       << matrix(
              raw_adjusted_loops, cold_and_warm,
              [](const LoopMetrics&, const ConfigMetrics& c) { return c.degradation_pct; }, 1, false)
       << best_fixed_arm_row(raw_adjusted_loops, false);
    if (options.level_window >= 0) {
      // The yardstick before the rolling level, so that a reader can tell
      // what the window changed (`autosched report --level-window -1`
      // writes every table this way).
      const std::vector<LoopMetrics> whole =
          evaluate_all(divide_out_process_levels(runs.rows, whole_process_level).rows);
      md << "\nAll loops with one level per process instead (degradation vs the Oracle, %):\n\n"
         << matrix(
                whole, cold_and_warm,
                [](const LoopMetrics&, const ConfigMetrics& c) { return c.degradation_pct; }, 1, true)
         << best_fixed_arm_row(whole, true);
    }
  }
  md << "\n## Regret vs the best fixed arm (%)\n\n"
     << matrix(
            loops, rows, [](const LoopMetrics&, const ConfigMetrics& c) { return c.regret_pct; }, 1, true);
  md << "\n## Exploration: share of steps the selector explored (%)\n\n"
     << matrix(
            loops, methods, [](const LoopMetrics&, const ConfigMetrics& c) { return c.explored_steps_pct; }, 0, true);
  md << "\n## Time lost in explored steps (ms, vs the Oracle's step times)\n\n"
     << matrix(
            loops, methods, [](const LoopMetrics&, const ConfigMetrics& c) { return c.explored_lost_ms; }, 1, true);
  md << "\n## Similarity to the Oracle: steps on an arm within 5% of the Oracle's step time (%)\n\n"
     << matrix(
            loops, methods, [](const LoopMetrics&, const ConfigMetrics& c) { return c.near_oracle_pct; }, 0, true);
  md << "\n## Selector cost (mean ns per instance)\n\n"
     << matrix(
            loops, methods, [](const LoopMetrics&, const ConfigMetrics& c) { return c.selector_ns; }, 0, true);
  if (!warm.empty()) {
    std::vector<std::string> pairs;
    for (const auto& w : warm) {
      pairs.push_back(w.substr(0, w.size() - std::string(warm_suffix).size()));
      pairs.push_back(w);
    }
    md << "\n## Warm start: second run on a populated store vs a cold run (degradation vs Oracle, %)\n\n"
       << matrix(
              loops, pairs, [](const LoopMetrics&, const ConfigMetrics& c) { return c.degradation_pct; }, 1, true);
    md << "\nExplored steps (%), cold vs warm:\n\n"
       << matrix(
              loops, pairs, [](const LoopMetrics&, const ConfigMetrics& c) { return c.explored_steps_pct; }, 0, true);
  }
  md << "\n## Per loop\n";
  for (const auto& l : loops) {
    md << "\n### " << l.loop << " (" << l.app << ")\n\nOracle " << fmt(l.oracle_ms) << " ms over " << l.steps
       << " steps; best fixed arm **" << l.best_arm << "** " << fmt(l.best_arm_ms) << " ms.\n\n"
       << "| configuration | kind | total ms | vs Oracle % | vs best arm % | explored steps % | explored time % | "
          "lost ms | settled at | same arm % | near Oracle % | selector ns | rep spread % |\n"
       << "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
    std::vector<const ConfigMetrics*> sorted;
    for (const auto& c : l.configs) sorted.push_back(&c);
    std::stable_sort(sorted.begin(), sorted.end(),
                     [](const ConfigMetrics* a, const ConfigMetrics* b) { return a->total_ms < b->total_ms; });
    for (const ConfigMetrics* c : sorted) {
      const bool method = c->kind == ConfigKind::method;
      md << "| " << c->name << " | " << kind_name(c->kind) << " | " << fmt(c->total_ms) << " | "
         << fmt(c->degradation_pct) << " | " << fmt(c->regret_pct) << " | "
         << (method ? fmt(c->explored_steps_pct, 0) : "–") << " | " << (method ? fmt(c->explored_time_pct, 0) : "–")
         << " | " << (method ? fmt(c->explored_lost_ms) : "–") << " | "
         << (method ? std::to_string(c->settled_step) : "–") << " | " << fmt(c->same_arm_pct, 0) << " | "
         << fmt(c->near_oracle_pct, 0) << " | " << fmt(c->selector_ns, 0) << " | " << fmt(c->rep_spread_pct) << " |\n";
    }
  }
  const auto failed = failures(dir / "failures.csv");
  if (!failed.empty()) {
    md << "\n## Failed runs (excluded; logs kept)\n\n";
    for (const auto& f : failed) md << "- " << f << '\n';
    out.notes.push_back(std::to_string(failed.size()) + " run(s) failed; see failures.csv");
  }

  // Pictures.
  std::vector<std::string> heat_rows = rows;
  heat_rows.emplace_back("best fixed arm");
  std::vector<std::string> scripts{heatmap_script(dir, meta, loops, heat_rows, out.notes)};
  std::vector<std::pair<const LoopMetrics*, Selection>> plots;
  std::set<std::string> labels;
  const std::vector<LoopTable> cold_tables = group_rows(adjusted.rows, "cold");
  for (const auto& l : loops) {
    for (const auto& m : options.plot_methods) {
      Selection s{m, {}, {}};
      if (m == "Oracle") {
        for (double x : l.oracle_ns) s.ms.push_back(x / 1e6);
        s.arms = l.oracle_labels;
      } else if (const ConfigMetrics* c = l.find(m); c != nullptr && c->kind == ConfigKind::method) {
        // Bars show the first repetition, so height and colour are one run's.
        for (const auto& t : cold_tables) {
          if (t.app != l.app || t.loop != l.loop) continue;
          for (const auto& cr : t.configs) {
            if (cr.name != m || cr.reps.empty()) continue;
            for (int step = 0; step < l.steps; ++step) {
              s.ms.push_back(cr.reps[0].time_ns[static_cast<std::size_t>(step)] / 1e6);
              s.arms.push_back(cr.reps[0].arm[static_cast<std::size_t>(step)]);
            }
          }
        }
      }
      if (s.ms.empty()) continue;
      labels.insert(s.arms.begin(), s.arms.end());
      plots.emplace_back(&l, std::move(s));
    }
  }
  const auto colours = arm_colours(labels);
  for (const auto& [l, s] : plots) scripts.push_back(selection_script(dir, meta, *l, s, colours));

  if (options.pictures) {
    if (!have_gnuplot()) {
      out.notes.push_back("gnuplot not found: the .gp scripts are written, no PNGs (apt-get install gnuplot-nox)");
    } else {
      for (const auto& script : scripts) {
        const std::string cmd = "cd " + shell_quoted(dir.string()) + " && gnuplot " + shell_quoted(script) + " 2>>gnuplot.log";
        const fs::path png = dir / (script.substr(0, script.size() - 3) + ".png");
        if (std::system(cmd.c_str()) == 0 && fs::exists(png)) {
          out.pictures.push_back(png.string());
        } else {
          out.notes.push_back(script + ": gnuplot failed; see gnuplot.log");
        }
      }
    }
  }
  if (!out.pictures.empty()) {
    md << "\n## Pictures\n\n";
    for (const auto& p : out.pictures) md << "- " << fs::path(p).filename().string() << '\n';
  }
  out.summary_path = (dir / "summary.md").string();
  OutputFile summary = create_file(out.summary_path);
  std::fputs(md.str().c_str(), summary.get());
  return out;
}

}  // namespace autosched::campaign
