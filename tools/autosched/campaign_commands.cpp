// `autosched bench`, `autosched report` and `autosched demo`: Oracle
// campaigns over the benchmark apps (docs/campaigns.md) and their reports.
#include "cli_app.hpp"
#include "commands.hpp"
#include "subcommands.hpp"
#include "helper_programs.hpp"
#include "tool_layout.hpp"

#include <campaign/bench_runner.hpp>
#include <campaign/configurations.hpp>
#include <campaign/report_writer.hpp>

#include <autosched/core/error.hpp>
#include <autosched/core/text.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>

namespace autosched::cli {

namespace {

/// Where the benchmark apps are: beside this tool in a build tree, in the
/// helper directory (libexec/autosched) once installed.
std::string app_directory() {
  std::vector<std::filesystem::path> dirs{front_directory()};
  for (const auto& d : helper_directories()) dirs.push_back(d);
  std::error_code ec;
  for (const auto& d : dirs) {
    if (std::filesystem::exists(d / "autosched-pisolver", ec)) return d.string();
  }
  return front_directory().string();
}

/// The `autosched` that launches the drop-in runs: the one beside the apps
/// (another build's, with --bin-dir), else this one.
std::string launcher_beside(const std::string& app_dir) {
  const std::filesystem::path beside = std::filesystem::path(app_dir) / "autosched";
  std::error_code ec;
  return std::filesystem::exists(beside, ec) ? beside.string() : (front_directory() / "autosched").string();
}


using namespace autosched::campaign;

struct BenchOptions {
  std::string apps = "all";
  std::string arms = "all";
  std::string references = "all";
  std::string methods = "all";
  std::string warm = "none";
  int reps = 3;
  int steps = 200;
  int threads = 0;
  unsigned seed = 1;
  std::string out;
  std::string bin_dir;
  std::string dropin_library;
  std::vector<std::string> app_args;
  bool no_progress = false;
  bool no_level_reference = false;
  bool resume = false;
};

struct ReportCommandOptions {
  std::string dir;
  std::string plot = "Oracle;auto;ExhaustiveSel;QLearn-LT";
  bool no_pictures = false;
  int level_window = campaign::default_level_window;
};

/// "pisolver=--n 3000 --work 10" → {"pisolver", {"--n", "3000", "--work", "10"}}.
void add_app_args(BenchPlan& plan, const std::vector<std::string>& specs) {
  for (const auto& spec : specs) {
    const auto eq = spec.find('=');
    const std::string app = spec.substr(0, eq);
    if (eq == std::string::npos || select_apps(app).size() != 1) {
      detail::throw_error(text::bad_value("--app-args", spec, "APP=ARGS, e.g. 'pisolver=--n 3000'"));
    }
    auto& list = plan.app_args[app];
    const std::string args = spec.substr(eq + 1);  // split() returns views into it
    for (auto piece : text::split(args, ' ')) {
      if (!piece.empty()) list.emplace_back(piece);
    }
  }
}

void print_report(const ReportOutcome& r) {
  std::printf("%s\n", r.degradation_table.c_str());
  std::printf("Summary: %s\n", r.summary_path.c_str());
  for (const auto& p : r.pictures) std::printf("Picture: %s\n", p.c_str());
  for (const auto& n : r.notes) std::printf("Note: %s\n", n.c_str());
}

std::vector<std::string> plot_list(const std::string& spec) {
  std::vector<std::string> out;
  for (auto p : text::split(spec, spec.find(';') != std::string::npos ? ';' : ',')) {
    if (!p.empty()) out.emplace_back(p);
  }
  return out;
}

void run_bench_command(const BenchOptions& o) {
  if (o.out.empty()) detail::throw_error("bench: --out DIR is required");
  BenchPlan plan;
  plan.apps = select_apps(o.apps);
  plan.configs = select_arms(o.arms);
  for (auto& c : select_references(o.references)) plan.configs.push_back(c);
  for (auto& c : select_methods(o.methods)) plan.configs.push_back(c);
  plan.warm_methods = select_methods(o.warm);
  plan.reps = o.reps;
  plan.steps = o.steps;
  plan.threads = o.threads;
  plan.seed = o.seed;
  plan.out_dir = o.out;
  plan.bin_dir = o.bin_dir.empty() ? app_directory() : o.bin_dir;
  plan.launcher = launcher_beside(plan.bin_dir);
  // The drop-in as `autosched run` finds it (AUTOSCHED_OMP_LIBRARY, beside
  // this tool, installed, the build tree's), looked for only when needed.
  const auto is_dropin = [](const Configuration& c) { return c.dropin; };
  if (!o.dropin_library.empty()) {
    plan.dropin_library = o.dropin_library;
  } else if (std::any_of(plan.configs.begin(), plan.configs.end(), is_dropin) ||
             std::any_of(plan.warm_methods.begin(), plan.warm_methods.end(), is_dropin)) {
    plan.dropin_library = dropin_library();
  }
  plan.progress = !o.no_progress;
  plan.level_reference = !o.no_level_reference;
  plan.resume = o.resume;
  plan.command_line = recorded_command_line();
  add_app_args(plan, o.app_args);
  const BenchOutcome r = run_bench(plan);
  std::printf("bench: %d runs in %.0f s into %s/runs.csv; %d failed%s", r.runs, r.seconds, o.out.c_str(), r.failed,
              r.failed > 0 ? " (see failures.csv)" : "");
  if (o.resume) std::printf("; %d complete runs kept from before", r.kept);
  std::printf("\n");
  std::printf("next: autosched report %s\n", o.out.c_str());
}

}  // namespace

void add_campaign_commands(CLI::App& app) {
  auto bench = std::make_shared<BenchOptions>();
  auto* b = app.add_subcommand("bench", std::string(description("bench")));
  b->add_option("--apps", bench->apps, "Apps, comma separated, or all")->capture_default_str();
  b->add_option("--methods", bench->methods,
                "Methods (RandomSel, ExhaustiveSel, ExpertSel, QLearn-LT, QLearn-LIB, SARSA-LT, SARSA-LIB, each also "
                "+exp; ChunkSel; auto; an auto:... schedule; or dropin:<schedule>, the plain OpenMP app under the "
                "drop-in), ';' or ',' separated, all or none")
      ->capture_default_str();
  b->add_option("--arms", bench->arms, "Oracle arms (the Auto4OMP 12, each also +exp), all or none")
      ->capture_default_str();
  b->add_option("--references", bench->references, "omp:static, omp:dynamic, omp:guided; all or none")
      ->capture_default_str();
  b->add_option("--warm", bench->warm, "Methods also run warm: twice on a fresh store, the second run recorded")
      ->capture_default_str();
  b->add_option("--reps", bench->reps, "Repetitions of every run")->capture_default_str()->check(CLI::PositiveNumber);
  b->add_option("--steps", bench->steps, "Time steps per run")->capture_default_str()->check(CLI::PositiveNumber);
  b->add_option("--threads", bench->threads, "Team size (0: OpenMP's default)")->capture_default_str();
  b->add_option("--seed", bench->seed, "Seed of the interleaved run order")->capture_default_str()->check(seed_check(~0U));
  b->add_option("--out", bench->out, "Directory for runs.csv (replaced unless --resume), failures.csv and logs")->required();
  b->add_option("--bin-dir", bench->bin_dir, "Where the autosched-<app> executables are (default: beside this one, or installed in libexec/autosched)");
  b->add_option("--app-args", bench->app_args, "Extra app arguments, 'APP=ARGS' (repeatable)");
  b->add_option("--dropin-library", bench->dropin_library,
                "libautosched-omp.so for the dropin: methods (default: as autosched run finds it)");
  b->add_flag("--no-progress", bench->no_progress, "No progress bar on stderr");
  b->add_flag("--no-level-reference", bench->no_level_reference,
              "Do not measure idempotent loops (stream-triad) a second time under a fixed schedule after each "
              "instance; the report then leaves their process levels in");
  b->add_flag("--resume", bench->resume,
              "Continue a stopped campaign in --out: keep the complete runs of its runs.csv (same machine, build "
              "and plan, or an error naming the difference) and run only the missing ones");
  b->callback([bench] { run_bench_command(*bench); });

  auto report = std::make_shared<ReportCommandOptions>();
  auto* r = app.add_subcommand("report", std::string(description("report")));
  r->add_option("dir", report->dir, "The campaign's directory (holds runs.csv)")->required();
  r->add_option("--plot", report->plot, "Methods whose per-step selections are plotted (Oracle for its own)")
      ->capture_default_str();
  r->add_flag("--no-pictures", report->no_pictures, "Write the gnuplot scripts but do not run gnuplot");
  r->add_option("--level-window", report->level_window,
                "Instances either side of each one over which its process's level is taken (-1: one level per "
                "process)")
      ->capture_default_str()
      ->check(CLI::Range(-1, 1000));
  r->callback([report] {
    ReportOptions o;
    o.dir = report->dir;
    o.level_window = report->level_window;
    o.plot_methods = plot_list(report->plot);
    o.pictures = !report->no_pictures;
    print_report(write_report(o));
  });

  auto demo = std::make_shared<BenchOptions>();
  demo->apps = "mandelbrot,triangle-count";
  demo->methods = "ExhaustiveSel;QLearn-LT;auto";
  // Short by default (about four minutes on 2 cores): one repetition of
  // 60 steps. One repetition measures each process's luck as much as the
  // choices (auto 1.9-11.3% over nine one-repetition demos of the same
  // selector, the best fixed arm 0.9-6.9%), which the demo says; --reps 3
  // is the full one, whose per-step medians tell the methods apart.
  demo->reps = 1;
  demo->steps = 60;
  demo->out = "autosched-demo";
  auto* d = app.add_subcommand("demo", std::string(description("demo")));
  d->add_option("--apps", demo->apps, "Apps")->capture_default_str();
  d->add_option("--methods", demo->methods, "Methods")->capture_default_str();
  d->add_option("--steps", demo->steps, "Time steps per run")->capture_default_str()->check(CLI::PositiveNumber);
  d->add_option("--reps", demo->reps, "Repetitions of every run (the report takes per-step medians; 3 for the full demo)")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  d->add_option("--threads", demo->threads, "Team size (0: OpenMP's default)")->capture_default_str();
  d->add_option("--out", demo->out, "Directory for the results")->capture_default_str();
  d->add_option("--bin-dir", demo->bin_dir, "Where the autosched-<app> executables are (default: beside this one, or installed in libexec/autosched)");
  d->add_option("--app-args", demo->app_args, "Extra app arguments, 'APP=ARGS' (repeatable)");
  d->add_flag("--no-progress", demo->no_progress, "No progress bar on stderr");
  d->callback([demo] {
    std::printf("autosched demo: %s, %d steps, %d repetition%s, 24 Oracle arms + 3 OpenMP references + %s\n",
                demo->apps.c_str(), demo->steps, demo->reps, demo->reps == 1 ? "" : "s", demo->methods.c_str());
    std::fflush(stdout);
    run_bench_command(*demo);
    ReportOptions o;
    o.dir = demo->out;
    o.plot_methods = {"Oracle", "auto", "QLearn-LT", "ExhaustiveSel"};
    std::printf("\nDegradation vs the Oracle (%%), per app/loop:\n\n");
    print_report(write_report(o));
    if (demo->reps == 1) {
      std::printf("\nOne repetition: each number is one process, and a process's luck on a shared machine moves it "
                  "by several points. `autosched demo --reps 3` (about 3x as long) takes per-step medians.\n");
    }
  });
}

}  // namespace autosched::cli
