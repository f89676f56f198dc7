// `autosched dag simulate|bench`: task graphs (tiled factorisations or a
// graph file) scheduled on a simulated CPU+GPU platform by every scheduler
// of autosched::dag. `simulate` runs one episode per scheduler and can draw
// its Gantt chart; `bench` sweeps graphs × tiles × platforms × noise with
// many noise samples per point and writes tables. Everything is simulated
// (the event simulator of autosched/dag/simulator.hpp), never measured.
#include "commands.hpp"

#include <campaign/gnuplot.hpp>
#include <campaign/runs_table.hpp>

#include <autosched/core/error.hpp>
#include <autosched/core/text.hpp>
#include <autosched/dag/factorizations.hpp>
#include <autosched/dag/graph_file.hpp>
#if AUTOSCHED_CLI_DAG_EXEC
#include <autosched/dag/executor.hpp>
#include <autosched/dag/tiled_factorization.hpp>
#endif
#include <autosched/dag/ranks.hpp>
#include <autosched/dag/simulator.hpp>

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <thread>

namespace autosched::cli {

namespace {

using campaign::csv_field;
using campaign::have_gnuplot;
using campaign::shell_quoted;

namespace fs = std::filesystem;
using namespace autosched::dag;

/// Runs `f`; an autosched::Error it throws is rethrown naming the option
/// and its value first, so that library messages point at the command line.
template <class F>
auto for_option(std::string_view option, std::string_view value, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const Error& e) {
    detail::throw_error(std::string(option) + "=" + text::escape(value, text::max_echoed_value) + ": " + e.what());
  }
}

std::vector<std::string> list(const std::string& value, std::string_view option, std::string_view accepted) {
  std::vector<std::string> out;
  for (std::string_view item : text::split(value, ',')) {
    if (item.empty()) detail::throw_error(text::bad_value(option, value, std::string(accepted) + " (an empty item)"));
    out.emplace_back(item);
  }
  return out;
}

bool is_family(const std::string& spec) {
  const std::string f = text::lower(spec);
  return f == "cholesky" || f == "chol" || f == "lu" || f == "qr";
}

constexpr std::string_view graph_accepted = "cholesky, lu, qr or a graph file (autosched task graph v1)";

/// A graph named on the command line: a factorisation family or a file.
TaskGraph make_graph(const std::string& spec, int tiles, GraphFlavour flavour, std::string_view option) {
  if (is_family(spec)) return factorization(spec, tiles, flavour);
  std::error_code ec;
  if (!fs::is_regular_file(spec, ec))
    detail::throw_error(text::bad_value(option, spec, std::string(graph_accepted) + "; no such file"));
  return load_graph(spec);  // its errors name the file and line
}

int tiles_value(std::string_view item, std::string_view option, const std::string& whole) {
  const auto v = text::to_int(item);
  if (!v || *v < 2 || *v > 4096)
    detail::throw_error(text::bad_value(option, whole, "tile counts in [2, 4096]: N, N,M,… or A..B"));
  return static_cast<int>(*v);
}

/// "8", "4,6,8" or "4..12" (every count from 4 to 12), mixed freely.
std::vector<int> tiles_list(const std::string& value, std::string_view option) {
  std::vector<int> out;
  for (std::string_view item : text::split(value, ',')) {
    const auto dots = item.find("..");
    if (dots == std::string_view::npos) {
      out.push_back(tiles_value(item, option, value));
      continue;
    }
    const int from = tiles_value(item.substr(0, dots), option, value);
    const int to = tiles_value(item.substr(dots + 2), option, value);
    if (to < from) detail::throw_error(text::bad_value(option, value, "ranges A..B with A <= B"));
    for (int t = from; t <= to; ++t) out.push_back(t);
  }
  return out;
}

double sigma_value(std::string_view item, std::string_view option, const std::string& whole) {
  const auto v = text::to_double(item);
  if (!v || *v < 0) detail::throw_error(text::bad_value(option, whole, "noise levels: finite numbers >= 0"));
  return *v;
}

std::vector<std::string> scheduler_list(const std::string& value, std::string_view option) {
  if (text::lower(value) == "all") return scheduler_names();
  std::vector<std::string> out;
  for (const std::string& name : list(value, option, "all or scheduler names separated by ','")) {
    for_option(option, value, [&] { return make_scheduler(name); });  // rejects unknown names, listing the known
    out.push_back(name);
  }
  return out;
}

/// The width of the scheduler column: the longest name, at least 12.
int name_width(const std::vector<std::string>& names) {
  std::size_t w = 12;
  for (const auto& n : names) w = std::max(w, n.size());
  return static_cast<int>(w);
}

/// What tables call a scheduler: its name, with a model file shortened to
/// its stem ("readys:share/autosched/models/cholesky.model" -> "readys:cholesky").
std::vector<std::string> column_labels(const std::vector<std::string>& names) {
  std::vector<std::string> labels;
  for (const auto& n : names) {
    const auto colon = n.find(':');
    labels.push_back(colon == std::string::npos ? n : n.substr(0, colon + 1) + fs::path(n.substr(colon + 1)).stem().string());
  }
  return labels;
}

Platform platform_value(const std::string& spec, std::string_view option, const std::string& whole) {
  return for_option(option, whole, [&] { return platform(spec); });
}

std::string number(double v, int decimals = 1) {
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

// ---------------------------------------------------------------- simulate

struct SimulateOptions {
  std::string graph = "cholesky";
  std::string tiles = "8";
  std::string platform = "2cpu+2gpu";
  std::string durations = "readys";
  std::string schedulers = "heft,mct";
  std::string sigma = "0";
  std::uint64_t seed = 1;
  bool readys_compat = false;
  std::string gantt, csv;
};

struct Episode {
  std::string scheduler;
  SimulationResult result;
};

std::string gnuplot_quoted(const std::string& s) {  // inside '…' a quote is doubled
  std::string out = "'";
  for (char c : s) {
    if (c == '\n') continue;
    out += c == '\'' ? std::string("''") : std::string(1, c);
  }
  return out + "'";
}

/// `base` with "-<scheduler>" before its extension, when there are several.
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

/// Writes <png stem>.dat and .gp beside the PNG and runs gnuplot on them.
void draw_gantt(const std::string& png, const Problem& problem, const Episode& e, const std::string& title) {
  const fs::path out(png);
  const fs::path dir = out.parent_path().empty() ? fs::path(".") : out.parent_path();
  const std::string stem = out.stem().string();
  const TaskGraph& g = *problem.graph;
  {
    std::ofstream dat(dir / (stem + ".dat"));
    dat << "# " << title << "\n# task kernel_index processor start end\n";
    for (const ScheduledTask& s : e.result.schedule) {
      dat << s.task << ' ' << g.task(s.task).kernel << ' ' << s.processor << ' ' << exact(s.start) << ' '
          << exact(s.end) << '\n';
    }
    if (!dat) detail::throw_error("--gantt=" + png + ": cannot write " + (dir / (stem + ".dat")).string());
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
    std::ofstream f(dir / (stem + ".gp"));
    f << gp.str();
    if (!f) detail::throw_error("--gantt=" + png + ": cannot write " + (dir / (stem + ".gp")).string());
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
  std::ofstream f(path);
  if (!f) detail::throw_error("--csv=" + path + ": cannot create this file");
  const TaskGraph& g = *problem.graph;
  f << "scheduler,task,kernel,processor,kind,start,end\n";
  for (const Episode& e : episodes) {
    for (const ScheduledTask& s : e.result.schedule) {
      f << csv_field(e.scheduler) << ',' << s.task << ',' << csv_field(g.kernel_name(s.task)) << ',' << s.processor
        << ',' << to_string(problem.platform.kind(static_cast<std::size_t>(s.processor))) << ',' << exact(s.start)
        << ',' << exact(s.end) << '\n';
    }
  }
  if (!f) detail::throw_error("--csv=" + path + ": cannot write this file");
}

std::string noise_text(double sigma, bool additive) {
  if (sigma == 0) return "no noise";
  return "noise σ=" + exact(sigma) + (additive ? " (READYS: additive, GPU only)" : " (d = max(0, N(E, σE)))");
}

void simulate_command(const SimulateOptions& o) {
  const int tiles = is_family(o.graph) ? tiles_value(o.tiles, "--tiles", o.tiles) : 0;
  const GraphFlavour flavour = o.readys_compat ? GraphFlavour::readys : GraphFlavour::correct;
  const TaskGraph graph = make_graph(o.graph, tiles, flavour, "--graph");
  const Platform plat = platform_value(o.platform, "--platform", o.platform);
  const DurationTable table = for_option("--durations", o.durations, [&] { return duration_table(o.durations); });
  const Problem problem = for_option("--durations", o.durations, [&] { return Problem(graph, plat, table); });
  const std::vector<std::string> names = scheduler_list(o.schedulers, "--scheduler");
  const double sigma = sigma_value(o.sigma, "--sigma", o.sigma);

  SimulationOptions options;
  options.noise = Noise{sigma, o.readys_compat};
  options.seed = o.seed;
  options.keep_schedule = true;
  const LowerBound lb = lower_bound(problem);
  std::printf("%s on %s: %zu tasks, %zu edges; durations %s (%s); %s, seed %llu\n", graph.name().c_str(),
              plat.describe().c_str(), graph.size(), graph.edge_count(), table.name.c_str(), problem.time_unit.c_str(),
              noise_text(sigma, o.readys_compat).c_str(), static_cast<unsigned long long>(o.seed));
  std::printf("lower bound %s (critical path %s, area %s), on expected durations\n\n", number(lb.value()).c_str(),
              number(lb.critical_path).c_str(), number(lb.area).c_str());
  const int width = name_width(names);
  std::printf("  %-*s %10s %9s %10s %7s %7s\n", width, "scheduler", "makespan", "vs bound", "decisions", "passes",
              "forced");
  std::vector<Episode> episodes;
  for (const std::string& name : names) {
    auto scheduler = make_scheduler(name);
    Episode e{name, simulate(problem, *scheduler, options)};
    std::printf("  %-*s %10s %+8.1f%% %10zu %7zu %7zu\n", width, name.c_str(), number(e.result.makespan).c_str(),
                (e.result.makespan / lb.value() - 1) * 100, e.result.decisions, e.result.passes, e.result.forced);
    episodes.push_back(std::move(e));
  }
  std::fflush(stdout);
  if (!o.csv.empty()) {
    write_schedule_csv(o.csv, problem, episodes);
    std::printf("schedule: %s\n", o.csv.c_str());
  }
  if (!o.gantt.empty()) {
    for (const Episode& e : episodes) {
      const std::string title = e.scheduler + ": " + graph.name() + " on " + plat.describe() + ", " +
                                noise_text(sigma, o.readys_compat) + ", makespan " + number(e.result.makespan) + " " +
                                problem.time_unit;
      draw_gantt(per_scheduler_path(o.gantt, e.scheduler, episodes.size() > 1), problem, e, title);
    }
  }
}

// --------------------------------------------------------------------- run

struct RunOptions {
  std::string graph = "cholesky";
  int tiles = 8;
  int tile_size = 512;
  int workers = 2;
  int gpus = 0;
  std::string durations = "calibrate";
  std::string schedulers = "mct-prio";
  int runs = 1;
  std::uint64_t seed = 1;
  std::string gantt, csv;
};

#if AUTOSCHED_CLI_DAG_EXEC
void run_command(const RunOptions& o) {
  if (!is_family(o.graph))
    detail::throw_error(text::bad_value("--graph", o.graph, "cholesky, lu or qr (the executor has their kernels)"));
  if (o.tiles < 2 || o.tiles > 64) detail::throw_error(text::bad_value("--tiles", std::to_string(o.tiles), "an integer in [2, 64]"));
  if (o.tile_size < 1 || o.tile_size > 4096)
    detail::throw_error(text::bad_value("--tile-size", std::to_string(o.tile_size), "an integer in [1, 4096]"));
  if (o.workers < 1 || o.workers > 256)
    detail::throw_error(text::bad_value("--workers", std::to_string(o.workers), "an integer in [1, 256]"));
  if (o.runs < 1 || o.runs > 1000) detail::throw_error(text::bad_value("--runs", std::to_string(o.runs), "an integer in [1, 1000]"));
  const std::vector<std::string> names = scheduler_list(o.schedulers, "--scheduler");
  TiledFactorization f(o.graph, o.tiles, o.tile_size, o.seed);
  if (o.gpus < 0 || o.gpus > 64) detail::throw_error(text::bad_value("--gpus", std::to_string(o.gpus), "an integer in [0, 64]"));
  const Platform plat = platform(std::to_string(o.workers) + "cpu" + (o.gpus > 0 ? "+" + std::to_string(o.gpus) + "gpu" : ""));
  std::fprintf(stderr, "calibrating the %s kernels at tile size %d...\n", o.graph.c_str(), o.tile_size);
  const DurationTable table = o.durations == "calibrate"
                                  ? calibrate(o.graph, o.tile_size)
                                  : for_option("--durations", o.durations, [&] { return duration_table(o.durations); });
  const Problem problem = for_option("--durations", o.durations, [&] { return Problem(f.graph(), plat, table); });
  std::printf("%s, %d×%d tiles of %d² (n = %d), workers %s; durations %s (%s):", f.graph().name().c_str(), o.tiles,
              o.tiles, o.tile_size, o.tiles * o.tile_size, plat.describe().c_str(), table.name.c_str(),
              table.unit.c_str());
  for (const auto& [kernel, d] : table.kernels) {
    std::printf(" %s %s", kernel.c_str(), number(d[0], 2).c_str());
    if (d[1] != not_available) std::printf("/%s", number(d[1], 2).c_str());
  }
  std::printf("\nlower bound %s %s on those durations\n\n", number(lower_bound(problem).value()).c_str(),
              table.unit.c_str());
  const int width = name_width(names);
  std::printf("  %-*s %12s %9s %10s %9s %14s\n", width, "scheduler", "makespan ms", "GFlop/s", "residual", "verified",
              "overhead µs/t");
  std::vector<Episode> episodes;
  bool all_verified = true;
  for (const std::string& name : names) {
    std::vector<double> makespans;
    ExecutionResult kept;
    int verified = 0;
    double worst = 0, overhead = 0;
    for (int r = 0; r < o.runs; ++r) {
      f.reset();
      auto scheduler = make_scheduler(name);
      ExecutionResult e = execute(f, plat, *scheduler, table, {.seed = o.seed});
      makespans.push_back(e.makespan);
      verified += e.verified ? 1 : 0;
      worst = std::max(worst, e.residual);
      overhead += e.overhead_per_task_us / o.runs;
      std::vector<double> sorted = makespans;
      std::sort(sorted.begin(), sorted.end());
      // Keep the run closest to the median for the Gantt chart and the CSV.
      if (r == 0 || std::abs(e.makespan - sorted[sorted.size() / 2]) < std::abs(kept.makespan - sorted[sorted.size() / 2]))
        kept = std::move(e);
    }
    std::sort(makespans.begin(), makespans.end());
    const double median = makespans[makespans.size() / 2];
    all_verified = all_verified && verified == o.runs;
    std::printf("  %-*s %12s %9s %10.2e %6d/%-2d %14s\n", width, name.c_str(), number(median).c_str(),
                number(f.flops() / (median * 1e6)).c_str(), worst, verified, o.runs, number(overhead).c_str());
    SimulationResult as_run;
    as_run.makespan = kept.makespan;
    as_run.decisions = kept.decisions;
    as_run.passes = kept.passes;
    as_run.forced = kept.forced;
    as_run.schedule = std::move(kept.schedule);
    episodes.push_back({name, std::move(as_run)});
  }
  std::fflush(stdout);
  const Problem in_ms(f.graph(), plat, table.expected(f.graph()), "ms");
  if (!o.csv.empty()) {
    write_schedule_csv(o.csv, in_ms, episodes);
    std::printf("schedule: %s\n", o.csv.c_str());
  }
  if (!o.gantt.empty()) {
    for (const Episode& e : episodes) {
      const std::string title = e.scheduler + ": " + f.graph().name() + " n=" + std::to_string(o.tiles * o.tile_size) +
                                " on " + plat.describe() + ", measured makespan " +
                                number(e.result.makespan) + " ms";
      draw_gantt(per_scheduler_path(o.gantt, e.scheduler, episodes.size() > 1), in_ms, e, title);
    }
  }
  if (!all_verified) detail::throw_error("a factorisation failed its residual check (see the table above)");
}
#else
void run_command(const RunOptions&) {
  detail::throw_error("autosched dag run: this build has no executor (LAPACKE and CBLAS were not found; "
                      "scripts/install-deps.sh installs liblapacke-dev and libopenblas-dev)");
}
#endif

// ------------------------------------------------------------------- bench

struct BenchOptions {
  std::string graphs = "cholesky,lu,qr";
  std::string tiles = "4,6,8,10,12";
  std::string platforms = "2cpu+2gpu,4cpu,4gpu";
  std::string sigmas = "0,0.1,0.3,0.5";
  int samples = 100;
  std::string schedulers = "all";
  std::string durations = "readys";
  std::uint64_t seed = 1;
  bool readys_compat = false;
  int jobs = 2;
  bool no_progress = false;
  std::string out;
};

/// One graph × tiles × platform: what every σ of it shares.
struct Instance {
  std::string graph_label;  ///< "cholesky", or the file as given
  int tiles = 0;            ///< 0 for a graph file
  std::unique_ptr<TaskGraph> graph;
  std::unique_ptr<Problem> problem;
  LowerBound bound;
};

struct Stats {
  double mean = 0, stddev = 0, min = 0, max = 0;
};

Stats stats_of(const std::vector<double>& v) {
  Stats s;
  s.min = *std::min_element(v.begin(), v.end());
  s.max = *std::max_element(v.begin(), v.end());
  double sum = 0;
  for (double x : v) sum += x;
  s.mean = sum / static_cast<double>(v.size());
  double sq = 0;
  for (double x : v) sq += (x - s.mean) * (x - s.mean);
  s.stddev = v.size() > 1 ? std::sqrt(sq / static_cast<double>(v.size() - 1)) : 0;
  return s;
}

struct Point {
  std::size_t instance = 0;
  double sigma = 0;
  std::vector<Stats> per_scheduler;
};

/// Every sample of one point: the same actual durations for every
/// scheduler (seed = base + sample index), so differences are the
/// schedulers' own. Independent of the thread that runs it.
void run_point(Point& point, const Instance& inst, const std::vector<std::string>& names, const BenchOptions& o) {
  std::vector<std::unique_ptr<Scheduler>> schedulers;
  for (const auto& n : names) schedulers.push_back(make_scheduler(n));
  std::vector<std::vector<double>> makespans(names.size(), std::vector<double>(static_cast<std::size_t>(o.samples)));
  const Noise noise{point.sigma, o.readys_compat};
  for (int s = 0; s < o.samples; ++s) {
    SimulationOptions options;
    options.noise = noise;
    options.seed = o.seed + static_cast<std::uint64_t>(s);
    options.keep_schedule = false;
    const auto actual = sample_durations(inst.problem->expected, noise, options.seed);
    for (std::size_t k = 0; k < names.size(); ++k)
      makespans[k][static_cast<std::size_t>(s)] = simulate(*inst.problem, *schedulers[k], actual, options).makespan;
  }
  point.per_scheduler.clear();
  for (const auto& m : makespans) point.per_scheduler.push_back(stats_of(m));
}

std::string tiles_text(int tiles) { return tiles == 0 ? std::string("-") : std::to_string(tiles); }

void write_bench_csv(const fs::path& path, const std::vector<Instance>& instances, const std::vector<Point>& points,
                     const std::vector<std::string>& names, const BenchOptions& o) {
  std::ofstream f(path);
  if (!f) detail::throw_error("--out: cannot create " + path.string());
  f << "graph,tiles,platform,sigma,scheduler,samples,mean,stddev,min,max,lower_bound,mean_vs_bound_pct\n";
  for (const Point& p : points) {
    const Instance& inst = instances[p.instance];
    for (std::size_t k = 0; k < names.size(); ++k) {
      const Stats& s = p.per_scheduler[k];
      f << csv_field(inst.graph_label) << ',' << tiles_text(inst.tiles) << ',' << inst.problem->platform.describe()
        << ',' << exact(p.sigma) << ',' << names[k] << ',' << o.samples << ',' << exact(s.mean) << ','
        << exact(s.stddev) << ',' << exact(s.min) << ',' << exact(s.max) << ',' << exact(inst.bound.value()) << ','
        << number((s.mean / inst.bound.value() - 1) * 100, 2) << '\n';
    }
  }
  if (!f) detail::throw_error("--out: cannot write " + path.string());
}

std::string bench_command_text(const BenchOptions& o) {
  std::string s = "autosched dag bench --graphs " + o.graphs + " --tiles " + o.tiles + " --platforms " + o.platforms +
                  " --sigmas " + o.sigmas + " --samples " + std::to_string(o.samples) + " --schedulers " +
                  o.schedulers + " --durations " + o.durations + " --seed " + std::to_string(o.seed);
  if (o.readys_compat) s += " --readys-compat";
  return s + " --out <dir>";
}

/// The summary above the tables: how often each scheduler has the best mean
/// at each σ, and, at the largest T of every graph × platform, the best at
/// the smallest and the largest σ and how much each dynamic or static
/// scheduler's mean grows between them.
void write_bench_summary(std::ofstream& f, const std::vector<Instance>& instances, const std::vector<Point>& points,
                         const std::vector<std::string>& names) {
  std::vector<double> sigmas;
  for (const Point& p : points) {
    if (std::find(sigmas.begin(), sigmas.end(), p.sigma) == sigmas.end()) sigmas.push_back(p.sigma);
  }
  std::sort(sigmas.begin(), sigmas.end());
  auto best_of = [&](const Point& p) {
    double best = p.per_scheduler.front().mean;
    for (const Stats& s : p.per_scheduler) best = std::min(best, s.mean);
    return best;
  };
  auto winners = [&](const Point& p) {
    std::string out;
    const double best = best_of(p);
    for (std::size_t k = 0; k < names.size(); ++k) {
      if (p.per_scheduler[k].mean <= best * (1 + 1e-12)) out += (out.empty() ? "" : ", ") + names[k];
    }
    return out;
  };
  f << "\n## Summary\n\nHow many points (graph × T × platform) each scheduler has the best mean at (ties count for "
       "each):\n\n| σ |";
  for (const auto& n : names) f << ' ' << n << " |";
  f << " points |\n|--:|";
  for (std::size_t k = 0; k <= names.size(); ++k) f << "--:|";
  f << "\n";
  for (double sigma : sigmas) {
    std::vector<int> wins(names.size(), 0);
    int count = 0;
    for (const Point& p : points) {
      if (p.sigma != sigma) continue;
      ++count;
      const double best = best_of(p);
      for (std::size_t k = 0; k < names.size(); ++k) wins[k] += p.per_scheduler[k].mean <= best * (1 + 1e-12) ? 1 : 0;
    }
    f << "| " << exact(sigma) << " |";
    for (int w : wins) f << ' ' << w << " |";
    f << ' ' << count << " |\n";
  }
  if (sigmas.size() < 2) return;
  const double lo = sigmas.front(), hi = sigmas.back();
  std::vector<std::size_t> growth_columns;
  for (const char* n : {"heft", "mct", "mct-prio", "heteroprio"}) {
    const auto it = std::find(names.begin(), names.end(), n);
    if (it != names.end()) growth_columns.push_back(static_cast<std::size_t>(it - names.begin()));
  }
  f << "\nAt the largest T of each graph × platform: the best mean at σ = " << exact(lo) << " and σ = " << exact(hi)
    << " (and its distance to LB), and how much each mean grows from σ = " << exact(lo) << " to " << exact(hi)
    << ":\n\n| graph | T | platform | σ = " << exact(lo) << ": best (vs LB) | σ = " << exact(hi) << ": best (vs LB) |";
  for (std::size_t k : growth_columns) f << ' ' << names[k] << " |";
  f << "\n|---|--:|---|---|---|";
  for (std::size_t k = 0; k < growth_columns.size(); ++k) f << "--:|";
  f << "\n";
  // The largest T per graph × platform.
  std::map<std::pair<std::string, std::string>, int> largest;
  for (const Instance& inst : instances) {
    auto& t = largest[{inst.graph_label, inst.problem->platform.describe()}];
    t = std::max(t, inst.tiles);
  }
  for (std::size_t a = 0; a < points.size(); ++a) {
    const Point& at_lo = points[a];
    const Instance& inst = instances[at_lo.instance];
    if (at_lo.sigma != lo || inst.tiles != largest[{inst.graph_label, inst.problem->platform.describe()}]) continue;
    const Point* at_hi = nullptr;
    for (const Point& p : points) {
      if (p.instance == at_lo.instance && p.sigma == hi) at_hi = &p;
    }
    if (at_hi == nullptr) continue;
    const double lb = inst.bound.value();
    auto vs_lb = [&](double v) { return (v >= lb ? "+" : "") + number(100 * (v / lb - 1)) + "%"; };
    f << "| " << inst.graph_label << " | " << tiles_text(inst.tiles) << " | " << inst.problem->platform.describe()
      << " | " << winners(at_lo) << ' ' << number(best_of(at_lo), 0) << " (" << vs_lb(best_of(at_lo)) << ") | "
      << winners(*at_hi) << ' ' << number(best_of(*at_hi), 0) << " (" << vs_lb(best_of(*at_hi)) << ") |";
    for (std::size_t k : growth_columns) {
      const double g = 100 * (at_hi->per_scheduler[k].mean / at_lo.per_scheduler[k].mean - 1);
      f << ' ' << (g >= 0 ? "+" : "") << number(g) << "% |";
    }
    f << "\n";
  }
}

void write_bench_markdown(const fs::path& path, const std::vector<Instance>& instances,
                          const std::vector<Point>& points, const std::vector<std::string>& names,
                          const BenchOptions& o, const DurationTable& table, double seconds) {
  std::ofstream f(path);
  if (!f) detail::throw_error("--out: cannot create " + path.string());
  f << "# Simulated makespans of task graphs\n\n"
    << "Simulated by autosched's event simulator (autosched/dag/simulator.hpp), not measured on hardware. "
    << "Durations: table `" << table.name << "` (" << table.unit << "); "
    << (o.readys_compat ? "READYS-compatible graphs (its kernel labels and QR graph) and READYS's additive GPU-only "
                          "noise d = E + max(N(0, σ), -2)."
                        : "correctly typed graphs; noise d = max(0, N(E, σE)) per task and resource kind.")
    << " Each cell: the mean ± standard deviation of the makespan over " << o.samples << " noise samples (seeds "
    << o.seed << ".." << o.seed + static_cast<std::uint64_t>(o.samples) - 1
    << "; every scheduler sees the same actual durations in a sample). **Bold**: the best mean of the row. "
    << "LB: the lower bound on expected durations (the larger of the critical path on the fastest kinds and the "
    << "area bound). HEFT plans once from expected durations and keeps its plan's per-processor order.\n\n"
    << "Regenerate: `" << bench_command_text(o) << "` (" << number(seconds, 0) << " s on " << std::max(1, o.jobs)
    << " threads here).\n";
  write_bench_summary(f, instances, points, names);
  std::size_t i = 0;
  while (i < points.size()) {
    // One table per graph × platform: the points of consecutive instances
    // that share both (instances are ordered graph, platform, tiles).
    const Instance& first = instances[points[i].instance];
    f << "\n## " << first.graph_label << " on " << first.problem->platform.describe() << "\n\n| T | σ |";
    for (const auto& n : names) f << ' ' << n << " |";
    f << " LB |\n|--:|--:|";
    for (std::size_t k = 0; k < names.size(); ++k) f << "--:|";
    f << "--:|\n";
    for (; i < points.size(); ++i) {
      const Point& p = points[i];
      const Instance& inst = instances[p.instance];
      if (inst.graph_label != first.graph_label ||
          inst.problem->platform.describe() != first.problem->platform.describe())
        break;
      double best = p.per_scheduler.front().mean;
      for (const Stats& s : p.per_scheduler) best = std::min(best, s.mean);
      f << "| " << tiles_text(inst.tiles) << " | " << exact(p.sigma) << " |";
      for (const Stats& s : p.per_scheduler) {
        std::string cell = number(s.mean);
        if (s.stddev > 0) cell += " ± " + number(s.stddev);
        const bool is_best = s.mean <= best * (1 + 1e-12);
        f << ' ' << (is_best ? "**" + cell + "**" : cell) << " |";
      }
      f << ' ' << number(inst.bound.value()) << " |\n";
    }
  }
  if (!f) detail::throw_error("--out: cannot write " + path.string());
}

void bench_command(const BenchOptions& o) {
  if (o.out.empty()) detail::throw_error("--out: expected a directory for makespans.csv and makespans.md");
  if (o.samples < 1 || o.samples > 1'000'000)
    detail::throw_error(text::bad_value("--samples", std::to_string(o.samples), "an integer in [1, 1000000]"));
  if (o.jobs < 1 || o.jobs > 1024)
    detail::throw_error(text::bad_value("--jobs", std::to_string(o.jobs), "an integer in [1, 1024]"));
  const auto graphs = list(o.graphs, "--graphs", graph_accepted);
  const auto tiles = tiles_list(o.tiles, "--tiles");
  std::vector<Platform> platforms;
  for (const auto& p : list(o.platforms, "--platforms", "platforms like 2cpu+2gpu,4cpu,4gpu"))
    platforms.push_back(platform_value(p, "--platforms", o.platforms));
  std::vector<double> sigmas;
  for (std::string_view s : text::split(o.sigmas, ',')) sigmas.push_back(sigma_value(s, "--sigmas", o.sigmas));
  const auto names = scheduler_list(o.schedulers, "--schedulers");
  const DurationTable table = for_option("--durations", o.durations, [&] { return duration_table(o.durations); });
  const GraphFlavour flavour = o.readys_compat ? GraphFlavour::readys : GraphFlavour::correct;

  // Graphs first (each once per tile count), then the problems, ordered
  // graph, platform, tiles so that each table's rows are consecutive.
  std::vector<Instance> instances;
  for (const auto& spec : graphs) {
    const bool family = is_family(spec);
    const std::vector<int> counts = family ? tiles : std::vector<int>{0};
    for (const Platform& plat : platforms) {
      for (int t : counts) {
        Instance inst;
        inst.graph_label = family ? text::lower(spec) : spec;
        inst.tiles = t;
        inst.graph = std::make_unique<TaskGraph>(make_graph(spec, t, flavour, "--graphs"));
        inst.problem =
            for_option("--durations", o.durations, [&] { return std::make_unique<Problem>(*inst.graph, plat, table); });
        inst.bound = lower_bound(*inst.problem);
        instances.push_back(std::move(inst));
      }
    }
  }
  std::vector<Point> points;
  for (std::size_t i = 0; i < instances.size(); ++i) {
    for (double s : sigmas) points.push_back({i, s, {}});
  }
  std::error_code ec;
  fs::create_directories(o.out, ec);
  if (ec || !fs::is_directory(o.out))
    detail::throw_error("--out=" + o.out + ": cannot create this directory (" + ec.message() + ")");

  // Points are independent and each is deterministic, so the threads only
  // decide which core computes a point, never its result.
  const auto t0 = std::chrono::steady_clock::now();
  std::atomic<std::size_t> next{0}, done{0};
  std::atomic<bool> failed{false};
  std::exception_ptr error;
  std::mutex error_mutex;
  auto worker = [&] {
    for (std::size_t i = next++; i < points.size() && !failed; i = next++) {
      try {
        run_point(points[i], instances[points[i].instance], names, o);
      } catch (...) {
        std::lock_guard lock(error_mutex);
        if (!error) error = std::current_exception();
        failed = true;
      }
      ++done;
    }
  };
  const std::size_t threads = std::min<std::size_t>(static_cast<std::size_t>(o.jobs), points.size());
  std::vector<std::thread> team;
  for (std::size_t t = 0; t < threads; ++t) team.emplace_back(worker);
  const bool tty = isatty(STDERR_FILENO) != 0;
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  double last_report = 0;
  while (done < points.size() && !failed) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    const double t = elapsed();
    if (o.no_progress || (!tty && t - last_report < 10)) continue;
    last_report = t;
    const std::size_t d = done;
    std::fprintf(stderr, "%sdag bench: %zu/%zu points, %.0f s%s", tty ? "\r" : "", d, points.size(), t,
                 tty ? "   " : "\n");
  }
  for (auto& th : team) th.join();
  if (error) {
    if (tty && !o.no_progress) std::fputc('\n', stderr);
    std::rethrow_exception(error);
  }
  const double seconds = elapsed();
  if (!o.no_progress)
    std::fprintf(stderr, "%sdag bench: %zu points × %zu schedulers × %d samples in %.1f s\n", tty ? "\r" : "",
                 points.size(), names.size(), o.samples, seconds);
  const fs::path dir(o.out);
  const auto labels = column_labels(names);
  write_bench_csv(dir / "makespans.csv", instances, points, labels, o);
  write_bench_markdown(dir / "makespans.md", instances, points, labels, o, table, seconds);
  std::printf("wrote %s and %s\n", (dir / "makespans.csv").string().c_str(), (dir / "makespans.md").string().c_str());
}

}  // namespace

void add_dag_command(CLI::App& app) {
  auto* dag =
      app.add_subcommand("dag", "Task graphs on CPU+GPU platforms: simulate schedulers, sweep tables, run factorisations for real");
  dag->require_subcommand(1);

  auto so = std::make_shared<SimulateOptions>();
  auto* sim =
      dag->add_subcommand("simulate", "Simulate one graph under each scheduler: makespans, lower bound, schedule");
  sim->add_option("--graph", so->graph, "cholesky, lu, qr or a graph file (autosched task graph v1)")
      ->capture_default_str();
  sim->add_option("--tiles", so->tiles, "Tiles per matrix side T for cholesky/lu/qr")->capture_default_str();
  sim->add_option("--platform", so->platform, "Processors, e.g. 2cpu+2gpu, 4cpu, 3cpu+1gpu")->capture_default_str();
  sim->add_option("--durations", so->durations, "readys, mirage or a duration table file")->capture_default_str();
  sim->add_option("--scheduler,--schedulers", so->schedulers, "Schedulers separated by ',', or all")
      ->capture_default_str();
  sim->add_option("--sigma", so->sigma, "Noise level σ (relative; absolute with --readys-compat)")
      ->capture_default_str();
  sim->add_option("--seed", so->seed, "Noise seed")->capture_default_str();
  sim->add_flag("--readys-compat", so->readys_compat, "READYS's graphs (its labels, its QR) and additive GPU noise");
  sim->add_option("--csv", so->csv, "Write the schedule: scheduler,task,kernel,processor,kind,start,end");
  sim->add_option(
      "--gantt", so->gantt,
      "Draw a Gantt chart PNG with gnuplot (with several schedulers: one per scheduler, <name>-<scheduler>.png)");
  sim->callback([so] { simulate_command(*so); });

  auto ro = std::make_shared<RunOptions>();
  auto* run = dag->add_subcommand("run", "Run a tiled factorisation for real on worker threads under each scheduler");
  run->add_option("--graph", ro->graph, "cholesky, lu or qr")->capture_default_str();
  run->add_option("--tiles", ro->tiles, "Tiles per matrix side T")->capture_default_str();
  run->add_option("--tile-size", ro->tile_size, "Rows (= columns) of a tile")->capture_default_str();
  run->add_option("--workers", ro->workers, "CPU worker threads")->capture_default_str();
  run->add_option("--gpus", ro->gpus, "GPU workers (builds with CUDA, where a GPU is present)")->capture_default_str();
  run->add_option("--durations", ro->durations, "calibrate (measure the kernels here first) or a duration table file")
      ->capture_default_str();
  run->add_option("--scheduler,--schedulers", ro->schedulers, "Schedulers separated by ',', or all")
      ->capture_default_str();
  run->add_option("--runs", ro->runs, "Runs per scheduler (the median is shown)")->capture_default_str();
  run->add_option("--seed", ro->seed, "Matrix and scheduler seed")->capture_default_str();
  run->add_option("--csv", ro->csv, "Write the measured schedule: scheduler,task,kernel,processor,kind,start,end (ms)");
  run->add_option("--gantt", ro->gantt, "Draw the measured schedule as a Gantt chart PNG (one per scheduler)");
  run->callback([ro] { run_command(*ro); });

  auto bo = std::make_shared<BenchOptions>();
  auto* bench = dag->add_subcommand("bench", "Mean makespan of every scheduler over noise samples, as tables");
  bench->add_option("--graphs", bo->graphs, "cholesky, lu, qr or graph files, separated by ','")->capture_default_str();
  bench->add_option("--tiles", bo->tiles, "Tile counts: 8, 4,6,8 or 4..12")->capture_default_str();
  bench->add_option("--platforms", bo->platforms, "Platforms separated by ','")->capture_default_str();
  bench->add_option("--sigmas", bo->sigmas, "Noise levels separated by ','")->capture_default_str();
  bench->add_option("--samples", bo->samples, "Noise samples per point (seeds seed .. seed+samples-1)")
      ->capture_default_str();
  bench->add_option("--schedulers", bo->schedulers, "all or names separated by ','")->capture_default_str();
  bench->add_option("--durations", bo->durations, "readys, mirage or a duration table file")->capture_default_str();
  bench->add_option("--seed", bo->seed, "The first noise seed")->capture_default_str();
  bench->add_flag("--readys-compat", bo->readys_compat, "READYS's graphs and additive GPU noise");
  bench->add_option("--jobs", bo->jobs, "Threads over points (results do not depend on it)")->capture_default_str();
  bench->add_flag("--no-progress", bo->no_progress, "No progress on stderr");
  bench->add_option("--out", bo->out, "Directory for makespans.csv and makespans.md")->required();
  bench->callback([bo] { bench_command(*bo); });
  add_dag_train_command(*dag);  // says so when this build has no libtorch
}

}  // namespace autosched::cli
