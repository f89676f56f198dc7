#include "output_file.hpp"
#include "dag_output.hpp"

#include <campaign/gnuplot.hpp>
#include <campaign/runs_table.hpp>

#include <autosched/core/error.hpp>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace autosched::cli::dag_cli {

using campaign::csv_field;
using campaign::have_gnuplot;
using campaign::shell_quoted;

namespace fs = std::filesystem;
using namespace autosched::dag;

int name_width(const std::vector<std::string>& names) {
  std::size_t w = 12;
  for (const auto& n : names) w = std::max(w, n.size());
  return static_cast<int>(w);
}

std::vector<std::string> column_labels(const std::vector<std::string>& names) {
  std::vector<std::string> labels;
  for (const auto& n : names) {
    const auto colon = n.find(':');
    labels.push_back(colon == std::string::npos ? n : n.substr(0, colon + 1) + fs::path(n.substr(colon + 1)).stem().string());
  }
  return labels;
}

std::string number(double v, int decimals) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, v);
  return buffer;
}

std::string exact(double v) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.10g", v);
  return buffer;
}

std::string processor_label(const Platform& platform, std::size_t p) {
  return std::string(to_string(platform.kind(p))) + " " + std::to_string(p);
}


namespace {

std::string gnuplot_quoted(const std::string& s) {  // inside '…' a quote is doubled
  std::string out = "'";
  for (char c : s) {
    if (c == '\n') continue;
    out += c == '\'' ? std::string("''") : std::string(1, c);
  }
  return out + "'";
}

}  // namespace

std::string per_scheduler_path(const std::string& base, const std::string& scheduler, bool several) {
  if (!several) return base;
  const fs::path p(base);
  // A file-safe name: "readys:models/cholesky.model" -> "readys-cholesky".
  std::string label = column_labels({scheduler}).front();
  for (char& c : label) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.') c = '-';
  }
  return (p.parent_path() / (p.stem().string() + "-" + label + p.extension().string())).string();
}

void draw_gantt(const std::string& png, const Problem& problem, const Episode& e, const std::string& title) {
  const fs::path out(png);
  const fs::path dir = out.parent_path().empty() ? fs::path(".") : out.parent_path();
  const std::string stem = out.stem().string();
  const TaskGraph& g = *problem.graph;
  if (const std::string kind = files::special_kind(png); !kind.empty())
    detail::throw_error(output_label("--gantt", png) + "it is " + kind + ", not a regular file");
  {
    const std::string dat_path = (dir / (stem + ".dat")).string();
    std::ofstream dat = open_output("--gantt", dat_path);
    dat << "# " << title << "\n# task kernel_index processor start end\n";
    for (const ScheduledTask& s : e.result.schedule) {
      dat << s.task << ' ' << g.task(s.task).kernel << ' ' << s.processor << ' ' << exact(s.start) << ' '
          << exact(s.end) << '\n';
    }
    close_output(dat, "--gantt", dat_path);
  }
  static constexpr const char* colours[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                                            "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};
  const std::size_t P = problem.processors();
  std::ostringstream gp;
  gp << "# Gantt chart of " << title << ". Regenerate: gnuplot " << stem << ".gp\n"
     << "set terminal pngcairo size 1200," << 140 + 45 * P << " font 'sans,9'\n"
     << "set output " << gnuplot_quoted(out.filename().string()) << "\n"
     << "set title " << gnuplot_quoted(title) << " noenhanced\n"
     << "set xlabel " << gnuplot_quoted("time (" + problem.time_unit + ")") << "\n"
     << "set xrange [0:" << exact(e.result.makespan) << "]\nset yrange [" << P << "-0.5:-0.5]\nset ytics (";
  for (std::size_t p = 0; p < P; ++p)
    gp << (p ? ", " : "") << gnuplot_quoted(processor_label(problem.platform, p)) << ' ' << p;
  gp << ") noenhanced\nset key outside right top vertical noenhanced\n"
     << "set style fill solid 0.85 border lc rgb '#303030'\nplot ";
  for (std::size_t k = 0; k < g.kernel_names().size(); ++k) {
    gp << (k ? ", \\\n     " : "") << gnuplot_quoted(stem + ".dat") << " using ($2 == " << k
       << " ? ($4 + $5) / 2 : 1/0):3:(($5 - $4) / 2):(0.4) with boxxyerror lc rgb '" << colours[k % 10] << "' title "
       << gnuplot_quoted(g.kernel_names()[k]);
  }
  gp << '\n';
  {
    write_output("--gantt", (dir / (stem + ".gp")).string(), gp.str());
  }
  if (!have_gnuplot()) {
    detail::warn("gnuplot not found: wrote " + (dir / (stem + ".gp")).string() + " and its .dat, no Gantt chart " +
                 png + " (apt-get install gnuplot-nox, then run gnuplot on the script)");
    return;
  }
  std::error_code ec;
  fs::remove(out, ec);
  const std::string cmd = "cd " + shell_quoted(dir.string()) + " && gnuplot " + shell_quoted(stem + ".gp") + " 2>&1";
  if (std::system(cmd.c_str()) != 0 || !fs::exists(out)) {
    detail::warn("gnuplot failed on " + (dir / (stem + ".gp")).string() + ": no Gantt chart " + png);
    return;
  }
  std::printf("Gantt chart of %s: %s\n", e.scheduler.c_str(), png.c_str());
}

void write_schedule_csv(const std::string& path, const Problem& problem, const std::vector<Episode>& episodes) {
  std::ofstream f = open_output("--csv", path);
  const TaskGraph& g = *problem.graph;
  f << "scheduler,task,kernel,processor,kind,start,end\n";
  for (const Episode& e : episodes) {
    for (const ScheduledTask& s : e.result.schedule) {
      f << csv_field(e.scheduler) << ',' << s.task << ',' << csv_field(g.kernel_name(s.task)) << ',' << s.processor
        << ',' << to_string(problem.platform.kind(static_cast<std::size_t>(s.processor))) << ',' << exact(s.start)
        << ',' << exact(s.end) << '\n';
    }
  }
  close_output(f, "--csv", path);
}

std::string noise_text(double sigma, bool additive) {
  if (sigma == 0) return "no noise";
  return "noise σ=" + exact(sigma) + (additive ? " (READYS: additive, GPU only)" : " (d = max(0, N(E, σE)))");
}


}  // namespace autosched::cli::dag_cli
