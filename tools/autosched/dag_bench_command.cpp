// `autosched dag bench`: graphs × tiles × platforms × noise levels, many
// noise samples per point, every scheduler on the same samples; writes
// makespans.csv and makespans.md. Simulated, never measured.
#include "output_file.hpp"
#include "dag_arguments.hpp"
#include "dag_options.hpp"
#include "dag_output.hpp"

#include <campaign/gnuplot.hpp>
#include <campaign/runs_table.hpp>

#include <autosched/dag/ranks.hpp>
#include <autosched/dag/scheduler.hpp>
#include <autosched/dag/simulator.hpp>

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <thread>

namespace autosched::cli::dag_cli {

namespace {

using campaign::csv_field;

namespace fs = std::filesystem;
using namespace autosched::dag;

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
  std::ofstream f = open_output("--out", path.string());
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
  close_output(f, "--out", path.string());
}

/// One picture per graph × platform at its largest T: each scheduler's mean
/// makespan over the lower bound against σ, as sigma-<graph>-<platform>.png
/// (with .dat and .gp beside it). Returns the pictures drawn.
std::vector<std::string> draw_sigma_pictures(const fs::path& dir, const std::vector<Instance>& instances,
                                             const std::vector<Point>& points, const std::vector<std::string>& names) {
  std::map<std::pair<std::string, std::string>, std::size_t> largest;  // (graph, platform) -> instance
  for (std::size_t i = 0; i < instances.size(); ++i) {
    const auto key = std::make_pair(instances[i].graph_label, instances[i].problem->platform.describe());
    const auto it = largest.find(key);
    if (it == largest.end() || instances[it->second].tiles < instances[i].tiles) largest[key] = i;
  }
  std::vector<std::string> drawn;
  for (const auto& [key, index] : largest) {
    std::vector<const Point*> line;
    for (const Point& p : points) {
      if (p.instance == index) line.push_back(&p);
    }
    if (line.size() < 2) continue;  // one σ: nothing to draw a line through
    std::sort(line.begin(), line.end(), [](const Point* a, const Point* b) { return a->sigma < b->sigma; });
    const Instance& inst = instances[index];
    std::string stem = "sigma-" + fs::path(key.first).stem().string() + "-" + key.second;
    for (char& c : stem) {
      if (c == '+' || c == '/' || c == ' ') c = '_';
    }
    std::ostringstream dat;
    dat << "sigma";
    for (const auto& n : names) dat << '\t' << '"' << n << '"';
    dat << '\n';
    for (const Point* p : line) {
      dat << exact(p->sigma);
      for (const Stats& s : p->per_scheduler) dat << '\t' << s.mean / inst.bound.value();
      dat << '\n';
    }
    write_output("--out", (dir / (stem + ".dat")).string(), dat.str());
    std::ostringstream gp;
    gp << "# Mean makespan over the lower bound against the noise level. Regenerate: gnuplot " << stem << ".gp\n"
       << "set terminal pngcairo size 900,480 font 'sans,9'\nset output '" << stem << ".png'\n"
       << "set datafile separator '\\t'\nset title '" << key.first << (inst.tiles > 0 ? " T=" + std::to_string(inst.tiles) : "")
       << " on " << key.second << ": mean makespan / lower bound (simulated)' noenhanced\n"
       << "set xlabel 'noise level sigma'\nset ylabel 'mean makespan / lower bound'\nset key outside right noenhanced\n"
       // gnuplot's eight default colours, and four more: nine schedulers
       // by default, and no two lines alike.
       << "set linetype 9 lc rgb '#8c564b' pt 9\nset linetype 10 lc rgb '#e377c2' pt 11\n"
       << "set linetype 11 lc rgb '#7f7f7f' pt 13\nset linetype 12 lc rgb '#bcbd22' pt 15\nset linetype cycle 12\n"
       << "set grid\nplot for [i=2:" << names.size() + 1 << "] '" << stem
       << ".dat' using 1:i with linespoints lw 2 title columnheader(i)\n";
    write_output("--out", (dir / (stem + ".gp")).string(), gp.str());
    if (campaign::have_gnuplot() && campaign::run_gnuplot(dir.string(), stem + ".gp")) {
      drawn.push_back((dir / (stem + ".png")).string());
    }
  }
  return drawn;
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
    auto vs_lb = [&](double v) { return std::string(v >= lb ? "+" : "") + number(100 * (v / lb - 1)) + "%"; };
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
  std::ofstream f = open_output("--out", path.string());
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
  close_output(f, "--out", path.string());
}

}  // namespace

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

  // Every graph is held until the tables are written: their sum must fit.
  double all_graphs_bytes = 0;
  for (const auto& spec : graphs)
    if (is_family(spec))
      for (int t : tiles) all_graphs_bytes += static_cast<double>(platforms.size()) * simulation_bytes(spec, t);
  refuse_beyond_memory("--tiles", o.tiles, all_graphs_bytes,
                       "the factorisation graphs of --graphs=" + o.graphs + " on " + std::to_string(platforms.size()) +
                           " platform(s)");

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
  for (const std::string& png : draw_sigma_pictures(dir, instances, points, labels)) {
    std::printf("picture: %s\n", png.c_str());
  }
}


}  // namespace autosched::cli::dag_cli
