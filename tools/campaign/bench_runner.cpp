#include "bench_runner.hpp"

#include <autosched/core/file_checks.hpp>
#include <autosched/core/error.hpp>
#include <autosched/core/hash.hpp>
#include <autosched/core/system_info.hpp>
#include <autosched/core/text.hpp>
#include <autosched/core/version.hpp>

#include <fcntl.h>
#include <omp.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <tuple>

extern char** environ;

namespace autosched::campaign {

namespace fs = std::filesystem;

namespace {

using Clock = std::chrono::steady_clock;

struct Job {
  std::string app;
  Configuration config;
  int rep = 0;
  bool warm = false;  ///< two runs on one fresh store, the second recorded
};

std::string utc_now() { return text::utc_now("%Y-%m-%d %H:%M:%S UTC"); }

std::string duration(double seconds) {
  const long s = std::lround(std::max(0.0, seconds));
  char buffer[32];
  if (s >= 3600) {
    std::snprintf(buffer, sizeof buffer, "%ldh%02ldm", s / 3600, (s / 60) % 60);
  } else {
    std::snprintf(buffer, sizeof buffer, "%ldm%02lds", s / 60, s % 60);
  }
  return buffer;
}

std::string safe_name(std::string s) {
  for (char& c : s) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '+' && c != '.') c = '_';
  }
  return s;
}

/// Runs one app process; its stdout and stderr go to `log`. `env` replaces
/// those variables of this process's environment (an empty value removes
/// one), AUTOSCHED_DB is `db`. Returns the exit status as the shell would
/// print it (128 + signal for a signal).
int spawn_app(const std::string& exe, const std::vector<std::string>& args, const std::string& db, const fs::path& log,
              std::vector<std::pair<std::string, std::string>> env = {}) {
  env.emplace_back("AUTOSCHED_DB", db);
  std::vector<std::string> env_text;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string_view entry(*e);
    const bool replaced = std::any_of(env.begin(), env.end(), [&](const auto& kv) {
      return entry.size() > kv.first.size() && entry.starts_with(kv.first) && entry[kv.first.size()] == '=';
    });
    if (!replaced) env_text.emplace_back(entry);
  }
  for (const auto& [name, value] : env) {
    if (!value.empty()) env_text.push_back(name + "=" + value);
  }
  std::vector<char*> envp;
  for (auto& e : env_text) envp.push_back(e.data());
  envp.push_back(nullptr);
  std::vector<std::string> argv_text{exe};
  argv_text.insert(argv_text.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_text) argv.push_back(a.data());
  argv.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, exe.c_str(), &actions, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) detail::throw_error(exe + ": cannot start it (" + std::strerror(rc) + ")");
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) detail::throw_error(exe + ": lost track of the process (" + std::strerror(errno) + ")");
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

/// The progress bar: on a terminal redrawn in place, otherwise a line every
/// 5% so a log file stays short. ETA from each app's mean run time so far.
class Progress {
 public:
  Progress(int total, bool enabled) : total_(total), enabled_(enabled), tty_(isatty(2) != 0), start_(Clock::now()) {}

  void finished(const Job& job, double seconds, double weight) {
    auto& [sum, count] = per_app_[job.app];
    sum += seconds / weight;
    count += 1;
    done_ += 1;
  }

  void show(const std::vector<Job>& jobs, std::size_t next) {
    if (!enabled_) return;
    double remaining = 0;
    double all_sum = 0, all_count = 0;
    for (const auto& [app, sc] : per_app_) {
      all_sum += sc.first;
      all_count += sc.second;
    }
    const double fallback = all_count > 0 ? all_sum / all_count : 0;
    for (std::size_t j = next; j < jobs.size(); ++j) {
      auto it = per_app_.find(jobs[j].app);
      const double mean = it != per_app_.end() ? it->second.first / it->second.second : fallback;
      remaining += mean * (jobs[j].warm ? 2 : 1);
    }
    const double elapsed = std::chrono::duration<double>(Clock::now() - start_).count();
    const int percent = total_ > 0 ? done_ * 100 / total_ : 100;
    const std::string what = next < jobs.size() ? jobs[next].app + " " + jobs[next].config.name : "done";
    if (tty_) {
      constexpr int width = 30;
      const int filled = total_ > 0 ? done_ * width / total_ : width;
      std::fprintf(stderr, "\r[%s%s] %d/%d %3d%%  elapsed %s  ETA %s  %-40.40s", std::string(filled, '#').c_str(),
                   std::string(width - filled, '.').c_str(), done_, total_, percent, duration(elapsed).c_str(),
                   done_ > 0 ? duration(remaining).c_str() : "?", what.c_str());
      if (next >= jobs.size()) std::fputc('\n', stderr);
    } else if (percent / 5 != last_printed_ / 5 || next >= jobs.size() || done_ == 0) {
      std::fprintf(stderr, "bench: %d/%d runs (%d%%), elapsed %s, ETA %s\n", done_, total_, percent,
                   duration(elapsed).c_str(), done_ > 0 ? duration(remaining).c_str() : "?");
      last_printed_ = percent;
    }
    std::fflush(stderr);
  }

 private:
  int total_;
  bool enabled_;
  bool tty_;
  Clock::time_point start_;
  int done_ = 0;
  int last_printed_ = -100;
  std::map<std::string, std::pair<double, double>> per_app_;
};

void remove_store(const fs::path& db) {
  for (const char* suffix : {"", "-wal", "-shm", "-journal"}) fs::remove(db.string() + suffix);
}

/// Per repetition, one round: every (app, configuration) pair and every
/// (app, warm method) pair, in a shuffled order. The warm pairs (two runs
/// each) share the round of their repetition rather than coming after all
/// cold ones: this VM drifts over an hour, and a warm run measured at the
/// end of a campaign was judged against arms measured earlier (issue 12's
/// campaigns of 2026-11-24 and 2026-11-27 ran every warm run last).
std::vector<Job> schedule_jobs(const BenchPlan& plan) {
  std::vector<Job> jobs;
  for (int rep = 0; rep < plan.reps; ++rep) {
    std::vector<Job> round;
    for (const auto& app : plan.apps) {
      for (const auto& c : plan.configs) round.push_back({app, c, rep, false});
      for (const auto& c : plan.warm_methods) round.push_back({app, c, rep, true});
    }
    std::mt19937 rng(plan.seed * 7919U + static_cast<unsigned>(rep));
    std::shuffle(round.begin(), round.end(), rng);
    jobs.insert(jobs.end(), round.begin(), round.end());
  }
  return jobs;
}

/// A campaign killed while stdio wrote its buffer leaves the last line of
/// runs.csv half written: cut the file after its last newline (the run that
/// line belonged to is then incomplete and runs again).
void drop_unfinished_line(const fs::path& path) {
  const auto size = fs::file_size(path);
  if (size == 0) return;
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) detail::throw_error(path.string() + ": cannot read this file");
  std::uintmax_t keep = size;
  for (std::uintmax_t back = size; back > 0; --back) {
    std::fseek(f, static_cast<long>(back - 1), SEEK_SET);
    if (std::fgetc(f) == '\n') break;
    keep = back - 1;
  }
  std::fclose(f);
  if (keep != size) fs::resize_file(path, keep);
}

/// A run as runs.csv names it: (phase, app, configuration, repetition from 1).
using RunKey = std::tuple<std::string, std::string, std::string, int>;

RunKey key_of(const Job& job) { return {job.warm ? "warm" : "cold", job.app, job.config.name, job.rep + 1}; }

/// The metadata a resumed campaign must share with the one it continues:
/// the machine, the build and the plan's shape. The command line and the
/// start time may differ.
constexpr const char* kResumeKeys[] = {"fingerprint", "cpu",   "threads", "build",           "binaries", "apps", "app arguments",
                                       "repetitions", "steps", "seed",    "level reference", "drop-in"};

/// --resume: reads the runs.csv a stopped `bench` left in the same directory
/// and returns the runs it holds completely (steps × the app's loops rows).
/// A run cut off while its rows were being written is left out, so it runs
/// again. A file from another machine, build or plan is an error naming the
/// first difference, never a silent mix.
std::set<RunKey> complete_runs(const RunsTable& table, const std::string& path, const Metadata& meta,
                               const std::vector<Job>& jobs, int steps, int& partial) {
  for (const char* key : kResumeKeys) {
    const std::string was = meta_value(table.meta, key), now = meta_value(meta, key);
    if (was != now) {
      detail::throw_error(path + ": measured with " + key + " '" + was + "', this campaign has '" + now +
                          "'; --resume continues only the same campaign on the same machine (choose another --out)");
    }
  }
  std::set<RunKey> planned;
  for (const Job& job : jobs) planned.insert(key_of(job));
  std::map<RunKey, std::size_t> rows;
  std::map<std::string, std::set<std::string>> loops;  // per app
  for (const StepRow& r : table.rows) {
    const RunKey key{r.phase, r.app, r.config, r.rep};
    if (!planned.contains(key)) {
      detail::throw_error(path + ": holds " + r.phase + " run " + std::to_string(r.rep) + " of " + r.app + " under " +
                          r.config +
                          ", which this campaign does not plan; resume it with the same --apps, --arms, "
                          "--references, --methods, --warm and --reps");
    }
    ++rows[key];
    loops[r.app].insert(r.loop);
  }
  std::set<RunKey> done;
  partial = 0;
  for (const auto& [key, count] : rows) {
    if (count == static_cast<std::size_t>(steps) * loops[std::get<1>(key)].size()) {
      done.insert(key);
    } else {
      ++partial;
    }
  }
  return done;
}

OutputFile append_file(const fs::path& path) {
  if (const std::string kind = files::special_kind(path.string()); !kind.empty())
    detail::throw_error(path.string() + ": it is " + kind + ", not a regular file");
  OutputFile f(std::fopen(path.c_str(), "a"));
  if (!f) detail::throw_error(path.string() + ": cannot append to this file");
  return f;
}

/// A new campaign's runs.csv and failures.csv, each with the metadata and its header.
void start_files(const fs::path& out, const Metadata& meta, OutputFile& runs, OutputFile& failures) {
  runs = create_file(out / "runs.csv");
  write_metadata(runs.get(), meta);
  std::fprintf(runs.get(), "%s\n", runs_header());
  std::fflush(runs.get());
  failures = create_file(out / "failures.csv");
  write_metadata(failures.get(), meta);
  std::fputs("phase,app,config,rep,exit_status,log\n", failures.get());
  std::fflush(failures.get());
}

/// --resume: keeps the complete runs of out/runs.csv (in a copy written
/// beside the file and renamed over it, so a stop during the rewrite loses
/// nothing either), opens both files for appending with a `resumed` line,
/// and takes the kept runs out of `jobs`. Returns how many runs it kept.
int resume_files(const fs::path& out, const Metadata& meta, int steps, bool progress, std::vector<Job>& jobs,
                 OutputFile& runs, OutputFile& failures) {
  const fs::path runs_path = out / "runs.csv";
  drop_unfinished_line(runs_path);
  const RunsTable before = read_runs(runs_path.string());
  int partial = 0;
  const std::set<RunKey> done = complete_runs(before, runs_path.string(), meta, jobs, steps, partial);
  const fs::path fresh = out / "runs.csv.resuming";
  {
    OutputFile copy = create_file(fresh);
    write_metadata(copy.get(), before.meta);
    std::fprintf(copy.get(), "%s\n", runs_header());
    for (const StepRow& r : before.rows) {
      if (done.contains(RunKey{r.phase, r.app, r.config, r.rep})) write_row(copy.get(), r);
    }
    if (std::fflush(copy.get()) != 0) detail::throw_error(fresh.string() + ": cannot write this file");
  }
  fs::rename(fresh, runs_path);
  const std::string resumed = utc_now() + ", " + std::to_string(done.size()) + " complete runs kept" +
                              (partial > 0 ? ", " + std::to_string(partial) + " cut-off run(s) to redo" : "");
  runs = append_file(runs_path);
  failures = append_file(out / "failures.csv");
  for (std::FILE* f : {runs.get(), failures.get()}) {
    write_metadata(f, {{"resumed", resumed}});
    std::fflush(f);
  }
  std::erase_if(jobs, [&](const Job& job) { return done.contains(key_of(job)); });
  if (progress)
    std::fprintf(stderr, "bench: resuming %s: %s; %zu to run\n", runs_path.c_str(), resumed.c_str(), jobs.size());
  return static_cast<int>(done.size());
}

}  // namespace

/// FNV-1a of the files a campaign runs: the apps (autosched is linked into
/// them), their plain builds and the drop-in's library where the plan uses
/// them. The build line names the version and compiler only, which a
/// rebuild after a code change keeps: without this a --resume would mix
/// runs of two versions of the code under one campaign.
std::string binaries_digest(const BenchPlan& plan, bool dropin) {
  std::vector<std::string> files;
  for (const auto& app : plan.apps) {
    files.push_back(plan.bin_dir + "/autosched-" + app);
    if (dropin) files.push_back(plan.bin_dir + "/autosched-plain-" + app);
  }
  if (dropin) files.push_back(plan.dropin_library);
  std::string digests;
  for (const auto& file : files) {
    std::ifstream in(file, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (!in && !in.eof()) detail::throw_error(file + ": cannot read this file");
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(fnv1a64(bytes)));
    digests += hex;
  }
  char all[17];
  std::snprintf(all, sizeof all, "%016llx", static_cast<unsigned long long>(fnv1a64(digests)));
  return std::string("fnv1a64 ") + all + " of the " + std::to_string(files.size()) + " programs and libraries run";
}

Metadata campaign_metadata(const BenchPlan& plan) {
  const SystemInfo& s = system_info();
  const int threads = plan.threads > 0 ? plan.threads : omp_get_max_threads();
  std::string apps, args;
  for (const auto& a : plan.apps) apps += (apps.empty() ? "" : ",") + a;
  for (const auto& [app, list] : plan.app_args) {
    args += (args.empty() ? "" : "; ") + app + ":";
    for (const auto& x : list) args += " " + x;
  }
  Metadata m;
  m.emplace_back("fingerprint", s.fingerprint);
  m.emplace_back("cpu", s.cpu_model + ", " + std::to_string(s.physical_cores) + " cores, " +
                            std::to_string(s.hardware_threads) + " hardware threads");
  m.emplace_back("threads", std::to_string(threads) + (threads > s.hardware_threads
                                                           ? " (oversubscribed: more threads than hardware threads)"
                                                           : " (real threads of this machine)"));
  m.emplace_back("build", "autosched " + std::string(AUTOSCHED_VERSION_STRING) + ", " + s.compiler + ", " +
                              s.openmp_runtime + ", " + AUTOSCHED_CAMPAIGN_BUILD_TYPE);
  const auto uses_dropin = [](const Configuration& c) { return c.dropin; };
  m.emplace_back("binaries",
                 binaries_digest(plan, std::any_of(plan.configs.begin(), plan.configs.end(), uses_dropin) ||
                                           std::any_of(plan.warm_methods.begin(), plan.warm_methods.end(), uses_dropin)));
  m.emplace_back("command", plan.command_line);
  m.emplace_back("started", utc_now());
  m.emplace_back("apps", apps);
  m.emplace_back("app arguments", args.empty() ? "defaults" : args);
  m.emplace_back("repetitions", std::to_string(plan.reps));
  m.emplace_back("steps", std::to_string(plan.steps));
  m.emplace_back("seed", std::to_string(plan.seed));
  m.emplace_back("timing", "wall clock of each loop call as the app sees it, selection included");
  m.emplace_back("level reference", plan.level_reference
                                        ? "on: idempotent loops also run under a fixed balanced schedule after each instance"
                                        : "off");
  const auto dropin = [](const Configuration& c) { return c.dropin; };
  if (std::any_of(plan.configs.begin(), plan.configs.end(), dropin) ||
      std::any_of(plan.warm_methods.begin(), plan.warm_methods.end(), dropin)) {
    m.emplace_back("drop-in",
                   "dropin:<schedule> runs autosched-plain-<app> (plain OpenMP, schedule(runtime)) under "
                   "`autosched run --schedule <schedule>`, which preloads " +
                       plan.dropin_library);
  }
  return m;
}

BenchOutcome run_bench(const BenchPlan& plan) {
  if (plan.reps < 1) detail::throw_error("--reps=" + std::to_string(plan.reps) + ": expected at least 1");
  if (plan.steps < 1) detail::throw_error("--steps=" + std::to_string(plan.steps) + ": expected at least 1");
  if (plan.threads < 0) detail::throw_error("--threads=" + std::to_string(plan.threads) + ": expected 0 or more");
  if (plan.configs.empty()) detail::throw_error("bench: nothing to run (no arms, references or methods)");
  const auto is_dropin = [](const Configuration& c) { return c.dropin; };
  const bool dropin = std::any_of(plan.configs.begin(), plan.configs.end(), is_dropin) ||
                      std::any_of(plan.warm_methods.begin(), plan.warm_methods.end(), is_dropin);
  for (const auto& app : plan.apps) {
    for (const char* prefix : {"/autosched-", "/autosched-plain-"}) {
      if (std::string_view(prefix) == "/autosched-plain-" && !dropin) continue;
      const std::string exe = plan.bin_dir + prefix + app;
      if (access(exe.c_str(), X_OK) != 0) {
        detail::throw_error(exe + ": not found; build the apps (AUTOSCHED_BUILD_APPS=ON) or pass --bin-dir");
      }
    }
  }
  if (dropin && (plan.dropin_library.empty() || access(plan.dropin_library.c_str(), R_OK) != 0)) {
    detail::throw_error("--dropin-library=" + plan.dropin_library +
                        ": not found; the dropin: methods need libautosched-omp.so (build autosched_omp)");
  }
  // The drop-in's launcher, `autosched run` (the front's tool, or another
  // build's beside its apps).
  const std::string launcher = plan.launcher.empty() ? plan.bin_dir + "/autosched" : plan.launcher;
  if (dropin && access(launcher.c_str(), X_OK) != 0) {
    detail::throw_error(launcher + ": not found; the dropin: methods launch the apps with `autosched run`");
  }
  const fs::path out = plan.out_dir;
  fs::create_directories(out / "logs");
  const int threads = plan.threads > 0 ? plan.threads : omp_get_max_threads();

  BenchOutcome outcome;
  const Metadata meta = campaign_metadata(plan);
  std::vector<Job> jobs = schedule_jobs(plan);
  OutputFile runs, failures;
  if (plan.resume && fs::exists(out / "runs.csv")) {
    outcome.kept = resume_files(out, meta, plan.steps, plan.progress, jobs, runs, failures);
  } else {
    start_files(out, meta, runs, failures);
  }

  Progress progress(static_cast<int>(jobs.size()), plan.progress);
  const auto start = Clock::now();
  const fs::path record = out / "logs" / "record.csv";
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    progress.show(jobs, j);
    const Job& job = jobs[j];
    const std::string app_exe = plan.bin_dir + (job.config.dropin ? "/autosched-plain-" : "/autosched-") + job.app;
    std::vector<std::string> args{
        "--steps", std::to_string(plan.steps), "--threads", std::to_string(threads), "--record", record.string(),
        "--quiet"};
    if (plan.level_reference) args.emplace_back("--level-reference");
    if (!job.config.dropin) args.insert(args.end(), {"--schedule", job.config.schedule});
    if (auto it = plan.app_args.find(job.app); it != plan.app_args.end()) {
      args.insert(args.end(), it->second.begin(), it->second.end());
    }
    // The drop-in runs the plain build as a user does, through the launcher
    // (`autosched run --schedule S -- app …`, the CLI beside the apps), with
    // the plan's library; its schedule is the launcher's alone: no
    // OMP_SCHEDULE or per-loop one from the environment.
    const std::string& exe = job.config.dropin ? launcher : app_exe;
    std::vector<std::pair<std::string, std::string>> env;
    if (job.config.dropin) {
      args.insert(args.begin(), {"run", "--schedule", job.config.schedule, "--", app_exe});
      env = {{"AUTOSCHED_OMP_LIBRARY", plan.dropin_library}, {"AUTOSCHED_SCHEDULE_FOR", ""}, {"OMP_SCHEDULE", ""}};
    }
    const std::string phase = job.warm ? "warm" : "cold";
    const fs::path log =
        out / "logs" /
        (phase + "-" + job.app + "-" + safe_name(job.config.name) + "-r" + std::to_string(job.rep + 1) + ".log");
    const auto t0 = Clock::now();
    int status = 0;
    if (job.warm) {
      // A fresh store per (app, method, rep): the first run fills it.
      const fs::path db = out / "logs" / "warm.db";
      remove_store(db);
      status = spawn_app(exe, args, db.string(), log, env);
      if (status == 0) status = spawn_app(exe, args, db.string(), log, env);
    } else {
      status = spawn_app(exe, args, "off", log, env);
    }
    const double seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    progress.finished(job, seconds, job.warm ? 2 : 1);
    ++outcome.runs;
    if (status == 0) {
      StepRow run;
      run.phase = phase;
      run.app = job.app;
      run.config = job.config.name;
      run.kind = job.config.kind;
      run.arm_label = job.config.arm_label;
      run.rep = job.rep + 1;
      for (const StepRow& r : read_app_record(record.string(), run)) write_row(runs.get(), r);
      std::fflush(runs.get());
      fs::remove(log);
    } else {
      ++outcome.failed;
      std::fprintf(failures.get(), "%s,%s,%s,%d,%d,%s\n", phase.c_str(), job.app.c_str(),
                   csv_field(job.config.name).c_str(), job.rep + 1, status, log.c_str());
      std::fflush(failures.get());
      std::fprintf(stderr, "%sbench: %s under %s failed (exit status %d); its output is in %s\n", isatty(2) ? "\n" : "",
                   job.app.c_str(), job.config.schedule.c_str(), status, log.c_str());
    }
  }
  progress.show(jobs, jobs.size());
  fs::remove(record);
  remove_store(out / "logs" / "warm.db");
  outcome.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return outcome;
}

}  // namespace autosched::campaign
