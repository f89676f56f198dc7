// `autosched simulate`: what every arm of a portfolio would cost on loops
// whose cost profiles were recorded (AUTOSCHED_PROFILES=<file>), at any
// worker count, by the loop simulator `auto` ranks its arms with. Prints a
// table per loop and P (simulated, not measured) and how long ranking all
// arms took.
#include "output_file.hpp"
#include "commands.hpp"
#include "subcommands.hpp"
#include "worker_speeds.hpp"

#include <campaign/gnuplot.hpp>

#include <autosched/core/error.hpp>
#include <autosched/core/text.hpp>
#include <autosched/select/grammar/arm.hpp>
#include <autosched/select/selectors/auto/arm_ranking.hpp>
#include <select_sim/profile_scenario.hpp>
#include <autosched/select/grammar/selector_config.hpp>
#include <autosched/techniques/dispatch_calibration.hpp>

#include <algorithm>
#include <chrono>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <cstdio>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>

namespace autosched::cli {

namespace {

struct Options {
  std::string profiles;
  std::string workers = "2";
  std::string arms = "auto";
  std::string speeds;
  std::string queues;
  std::string csv;
  std::string owner = "measured";
  double jitter = 0;
  std::string plots;  ///< a directory: predicted time against the worker count, per profile
};

/// Draws one recorded profile's predictions against the worker count:
/// the five arms best at the largest count, and static for reference.
/// Writes <dir>/<n>-<loop>.{dat,gp,png}; returns what to tell the user.
std::string draw_scaling(const std::string& dir, std::size_t index, const std::string& loop, const Portfolio& arms,
                         const std::vector<int>& counts, const std::vector<std::vector<double>>& predicted) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) detail::throw_error("--plots=" + dir + ": cannot create it: " + ec.message());
  std::vector<std::size_t> order(arms.size());
  for (std::size_t a = 0; a < order.size(); ++a) order[a] = a;
  const std::vector<double>& last = predicted.back();
  std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) { return last[x] < last[y]; });
  std::vector<std::size_t> shown(order.begin(),
                                 order.begin() + static_cast<std::ptrdiff_t>(std::min<std::size_t>(5, order.size())));
  for (std::size_t a = 0; a < arms.size(); ++a) {
    if (arms[a].label() == "static" && std::find(shown.begin(), shown.end(), a) == shown.end()) shown.push_back(a);
  }
  std::string stem = std::to_string(index + 1) + "-" + loop;
  for (char& c : stem) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.') c = '_';
  }
  std::ostringstream dat;
  dat << "workers";
  for (std::size_t a : shown) dat << '\t' << '"' << arms[a].label() << '"';
  dat << '\n';
  for (std::size_t k = 0; k < counts.size(); ++k) {
    dat << counts[k];
    for (std::size_t a : shown) dat << '\t' << predicted[k][a] / 1e6;
    dat << '\n';
  }
  const std::filesystem::path base = std::filesystem::path(dir) / stem;
  write_output("--plots", base.string() + ".dat", dat.str());
  std::ostringstream gp;
  gp << "# Predicted time of " << loop << " against the worker count. Regenerate: gnuplot " << stem << ".gp\n"
     << "set terminal pngcairo size 900,480 font 'sans,9'\nset output '" << stem << ".png'\n"
     << "set datafile separator '\\t'\nset title '" << loop
     << ": predicted time against the worker count (simulated)' noenhanced\n"
     << "set xlabel 'workers'\nset ylabel 'predicted ms'\nset logscale xy\nset key outside right noenhanced\n"
     << "set grid\nplot for [i=2:" << shown.size() + 1 << "] '" << stem
     << ".dat' using 1:i with linespoints lw 2 title columnheader(i)\n";
  write_output("--plots", base.string() + ".gp", gp.str());
  if (campaign::have_gnuplot() && campaign::run_gnuplot(dir, stem + ".gp")) return "picture: " + base.string() + ".png";
  return "picture: " + base.string() + ".gp (gnuplot did not draw it here)";
}

/// `--owner-dispatch`: what a chunk from static-steal's own range costs.
/// A file holds each loop's h; the owner's price is a machine's, by default
/// this one's, measured as a profiling instance measures it, so that the
/// table is the ranking `auto` would make here. `h`: every chunk at the
/// profile's h (the simulator before 2026-12-01).
void apply_owner_dispatch(const std::string& spec, std::vector<RecordedProfile>& profiles) {
  double ns = -1;  // h
  if (spec == "measured") {
    ns = measured_owner_dispatch_ns();
  } else if (spec != "h") {
    const std::optional<double> given = text::to_double(spec);
    if (!given || !(*given >= 0) || !std::isfinite(*given)) {
      detail::throw_error(text::bad_value("--owner-dispatch", spec, "measured, h, or a time in ns >= 0"));
    }
    ns = *given;
  }
  for (RecordedProfile& r : profiles) r.profile.set_owner_dispatch(ns);
}

/// `--queues 12100,6300`: the process level's dispatch queues in ns (rank 0's
/// shared counter, then its coordinator), as autosched::mpi measures them.
void apply_queues(const std::string& spec, std::vector<RecordedProfile>& profiles) {
  if (spec.empty()) return;
  const std::vector<std::string_view> parts = text::split(spec, ',');
  std::optional<double> counter, coordinator;
  if (parts.size() == 2) {
    counter = text::to_double(text::trim(parts[0]));
    coordinator = text::to_double(text::trim(parts[1]));
  }
  if (!counter || !coordinator || !(*counter >= 0) || !(*coordinator >= 0) || !std::isfinite(*counter) ||
      !std::isfinite(*coordinator)) {
    detail::throw_error("simulate: --queues '" + spec + "': expected two times in ns ≥ 0, counter,coordinator");
  }
  for (RecordedProfile& r : profiles) r.profile.set_dispatch_queues(*counter, *coordinator);
}

Portfolio arms_for(const std::string& text) {
  if (text == "auto") return auto_portfolio();
  if (text == "auto4omp") return auto4omp_portfolio();
  if (text == "lb4mpi") return lb4mpi_portfolio();
  return parse_selector("auto,portfolio=" + text, "--arms").portfolio;
}

void run(const Options& o) {
  std::vector<RecordedProfile> profiles = load_profiles(o.profiles);
  apply_queues(o.queues, profiles);
  apply_owner_dispatch(o.owner, profiles);
  const std::vector<int> counts = worker_counts(o.workers, "--workers");
  const Portfolio arms = arms_for(o.arms);
  if (!(o.jitter >= 0 && o.jitter <= 0.9)) {
    char given[32];
    std::snprintf(given, sizeof given, "%g", o.jitter);
    detail::throw_error(text::bad_value("--jitter", given, "a share of a worker's time in [0, 0.9]"));
  }
  if (o.jitter > 0 && !o.speeds.empty()) {
    detail::throw_error("simulate: --jitter and --speeds both set the workers' speeds; give one of them");
  }
  if (!o.plots.empty() && counts.size() < 2) {
    detail::throw_error("--plots: draws the predictions against the worker count; give several, e.g. --workers 2,8,64");
  }
  std::ostringstream csv;
  csv << "loop,profiled_p,workers,arm,predicted_ms,vs_best_pct\n";
  std::vector<std::string> pictures;
  for (std::size_t ri = 0; ri < profiles.size(); ++ri) {
    const RecordedProfile& r = profiles[ri];
    std::vector<std::vector<double>> by_count;
    for (const int p : counts) {
      const std::vector<double> speeds = worker_speeds(o.speeds, p, "--speeds");
      const auto t0 = std::chrono::steady_clock::now();
      std::vector<std::int64_t> dispatches;
      std::vector<double> predicted = o.jitter > 0 ? predict_arms_robust(arms, r.profile, p, o.jitter, &dispatches)
                                                   : predict_arms(arms, r.profile, p, speeds, &dispatches);
      const double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
      const std::vector<int> order = rank_by(predicted, dispatches);
      by_count.push_back(predicted);
      char slow[64];
      std::snprintf(slow, sizeof slow, ", one worker %g%% slow", o.jitter * 100);
      const std::string team = !speeds.empty() ? ", speeds " + o.speeds : o.jitter > 0 ? std::string(slow) : "";
      const double best = predicted[static_cast<std::size_t>(order.front())];
      std::printf("\n%s (profiled at P = %d; n = %lld, %zu blocks, h = %.0f ns, static-steal's own chunks %.1f ns) "
                  "simulated at P = %d%s: %zu arms ranked in %.0f µs\n",
                  r.loop.c_str(), r.workers, static_cast<long long>(r.profile.n()), r.profile.blocks(),
                  r.profile.overhead_ns(), r.profile.owner_dispatch_ns(), p, team.c_str(), arms.size(), us);
      std::printf("  %-22s %12s %10s\n", "arm", "predicted ms", "vs best %");
      for (const int a : order) {
        const double t = predicted[static_cast<std::size_t>(a)];
        std::printf("  %-22s %12.3f %10.1f\n", arms[static_cast<std::size_t>(a)].label().c_str(), t / 1e6,
                    (t / best - 1) * 100);
        char line[256];
        std::snprintf(line, sizeof line, "\"%s\",%d,%d,%s,%.6f,%.3f\n", r.loop.c_str(), r.workers, p,
                      arms[static_cast<std::size_t>(a)].label().c_str(), t / 1e6, (t / best - 1) * 100);
        csv << line;
      }
    }
    if (!o.plots.empty()) pictures.push_back(draw_scaling(o.plots, ri, r.loop, arms, counts, by_count));
  }
  for (const std::string& p : pictures) std::printf("%s\n", p.c_str());
  if (!o.csv.empty()) {
    write_output("--csv", o.csv, csv.str());
  }
}

}  // namespace

void add_simulate_command(CLI::App& app) {
  auto options = std::make_shared<Options>();
  auto* cmd = app.add_subcommand("simulate", std::string(description("simulate")));
  cmd->add_option("--profiles", options->profiles, "A file written with AUTOSCHED_PROFILES=<file>")->required();
  cmd->add_option("--workers", options->workers, "Worker counts, comma separated (default 2)");
  cmd->add_option("--arms", options->arms,
                  "auto (the 24 of auto's portfolio, default), auto4omp, lb4mpi, or arms like static,gss:16,ss:expert");
  cmd->add_option("--speeds", options->speeds, "Relative worker speeds, ':' separated, repeated over the team");
  cmd->add_option("--queues", options->queues,
                  "Process-level dispatch queues in ns, counter,coordinator (autosched::mpi measures them; default none)");
  cmd->add_option("--jitter", options->jitter,
                  "Rank as auto does: one worker loses this share of its time (auto: 0.05; default 0, perfect workers)");
  cmd->add_option("--owner-dispatch", options->owner,
                  "What a chunk from static-steal's own range costs: measured (this machine's, default), h (the "
                  "profile's h, as every other chunk), or ns");
  cmd->add_option("--csv", options->csv, "Also write the predictions as CSV to this file");
  cmd->add_option("--plots", options->plots,
                  "Draw each profile's predictions against the worker count into this directory (with gnuplot)");
  cmd->callback([options] { run(*options); });
}

}  // namespace autosched::cli
