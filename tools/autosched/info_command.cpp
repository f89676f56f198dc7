// `autosched info`: what this build is, what it runs on, and how it is
// configured; `autosched info --techniques`: the portfolio.
#include "commands.hpp"
#include "helper_programs.hpp"
#include "subcommands.hpp"
#include "tool_layout.hpp"

#include <autosched/core/components.hpp>
#include <autosched/core/environment.hpp>
#include <autosched/core/system_info.hpp>
#include <autosched/core/text.hpp>
#include <autosched/core/version.hpp>
#include <autosched/pinning/team_pinning.hpp>
#include <autosched/pinning/affinity.hpp>
#include <autosched/pinning/speed.hpp>
#include <autosched/select/grammar/schedule_environment.hpp>
#include <autosched/store/store.hpp>
#include <autosched/techniques/catalogue.hpp>

#include <omp.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>

namespace autosched::cli {

namespace {

void row(const char* key, const std::string& value) { std::printf("  %-18s %s\n", key, value.c_str()); }

std::string env_or(const char* name, const char* unset) {
  auto v = environment::get(name);
  return v ? std::string(name) + "=" + *v : unset;
}

/// The pinning manager: its speed source here (without an application,
/// so without heartbeats), whether affinities can be set, whether PAPI is
/// built and counts here, and its setting.
void print_pinning() {
  namespace pin = autosched::pinning;
  const pin::SpeedSourceReport speed = pin::speed_source(false);
  const int rc = pin::check_setaffinity();
  // PAPI's state has a row of its own below: said once.
  std::string why = speed.why;
  const std::string papi = "PAPI " + pin::papi_status().detail;
  if (const auto at = why.find(papi); at != std::string::npos) why.replace(at, papi.size(), "PAPI as below");
  std::string line = std::string("speed source ") + pin::to_string(speed.source) + " (" + why +
                     "), heartbeats when the application sends them; pthread_setaffinity_np " +
                     (rc == 0 ? std::string("works") : std::string("fails: ") + std::strerror(rc)) + " on cores " +
                     pin::format_cores(pin::allowed_cores());
  // What the loop runtime's OpenMP teams do with AUTOSCHED_PINNING (no loop
  // has run here, so this says what the first one would start).
  std::string setting = autosched::loop_pinning_status();
  const pin::OpenMpBinding binding = pin::openmp_binding();
  if (binding.bound) setting += "; off unless force=yes: " + binding.reason;
  row("pinning", line);
  row("  PAPI", pin::papi_status().detail);
  row("  loop teams", setting);
}

/// The helper programs this build has (AUTOSCHED_CLI_HELPERS, set by
/// tools/CMakeLists.txt): found where the front looks for them, or missing.
void print_helpers() {
  std::string dir, missing;
  for (std::string_view program : text::split(AUTOSCHED_CLI_HELPERS, ',')) {
    const std::string path = find_helper(program);
    if (path.empty()) {
      missing += (missing.empty() ? "" : ", ") + std::string(program);
    } else if (dir.empty()) {
      dir = std::filesystem::path(path).parent_path().string();
    }
  }
  if (dir.empty()) {
    for (const auto& d : helper_directories()) dir += (dir.empty() ? "" : ", ") + d.string();
    dir = "none in " + dir;
  }
  row("helpers", dir + (missing.empty() ? std::string(" (every subcommand but run)")
                                        : "; missing: " + missing + " (not built or not installed)"));
}

void print_info() {
  const SystemInfo& s = system_info();
  std::printf("autosched %s\n", AUTOSCHED_VERSION_STRING);
  row("compiler", s.compiler);
  row("OpenMP runtime", s.openmp_runtime + (s.openmp_library.empty() ? "" : " (" + s.openmp_library + ")"));
  row("threads",
      std::to_string(omp_get_max_threads()) + " per team (" + env_or("OMP_NUM_THREADS", "OMP_NUM_THREADS unset") + ")");
  row("binding", env_or("OMP_PROC_BIND", "OMP_PROC_BIND unset") + ", " + env_or("OMP_PLACES", "OMP_PLACES unset"));
  row("CPU", s.cpu_model);
  row("cores",
      std::to_string(s.physical_cores) + " physical, " + std::to_string(s.hardware_threads) + " hardware threads");
  row("kernel", s.kernel);
  row("fingerprint", s.fingerprint);

  std::printf("configuration\n");
  const ScheduleEnvironment& env = schedule_environment();
  std::string schedule = default_schedule().text() + " (default)";
  if (env.global) {
    schedule = env.global->text() + " (AUTOSCHED_SCHEDULE)";
  } else if (env.alias) {
    schedule = env.alias->text() + " (alias, below)";
  }
  row("schedule", schedule);
  for (const auto& [loop, per_loop] : env.per_loop) {
    row("  for loop", loop + " = " + per_loop.text() + " (AUTOSCHED_SCHEDULE_FOR)");
  }
  for (const auto& used : env.aliases_used) row("  alias", used);
  // The drop-in reads OMP_SCHEDULE for schedule(runtime) loops itself (the
  // loop runtime only its auto,N alias): say what it will run.
  if (const auto omp = environment::get("OMP_SCHEDULE"); omp && !env.alias) {
    const OmpScheduleReading r = read_omp_schedule(*omp, false);
    row("  OMP_SCHEDULE", *omp + ": under autosched run, schedule(runtime) loops run " +
                              (r.schedule ? r.schedule->text() : "auto (" + r.problem + ")") +
                              "; linked programs read only OMP_SCHEDULE=auto,<n>");
  }
  for (const auto& problem : env.problems) row("  ignored", problem);
  const auto store = store_path_from_environment();
  if (!store) {
    row("store", "off (AUTOSCHED_DB)");
  } else {
    row("store", *store + (std::filesystem::exists(*store) ? "" : " (not created yet)") +
                     (std::getenv("AUTOSCHED_DB") != nullptr ? " (AUTOSCHED_DB)" : " (default)"));
  }
  const char* trace = std::getenv("AUTOSCHED_TRACE");
  row("trace", trace != nullptr && *trace != '\0' ? std::string(trace) + " (AUTOSCHED_TRACE)" : std::string("none"));

  print_pinning();

  const std::string dropin = dropin_library();
  row("OpenMP drop-in", dropin.empty() ? std::string("libautosched-omp.so not found (set AUTOSCHED_OMP_LIBRARY)")
                                       : dropin + " (autosched run -- ./app)");
#if AUTOSCHED_CLI_TORCH
  const std::string learned = learned_plugin_library();
  row("learned policy", learned.empty()
                            ? std::string("libautosched-dag-learn.so not found: readys:<model> falls back to mct-prio")
                            : learned + " (loaded by the first readys:<model>)");
#endif
  print_helpers();

  std::printf("optional components\n");
  for (const Component& c : components()) {
    const char* status = c.status == Component::Status::found         ? "found"
                         : c.status == Component::Status::unavailable ? "unavailable"
                                                                      : "not built";
    std::string line = std::string(status) + ": " + c.detail;
    if (!c.fallback.empty()) line += "; fallback: " + c.fallback;
    row(c.name.c_str(), line);
  }
}

void print_techniques() {
  std::printf("%-13s %-8s %-9s %s\n", "technique", "adaptive", "needs", "source / formula / chunk parameter");
  for (const TechniqueInfo& t : technique_catalogue()) {
    if (t.id == TechniqueId::profiling) std::printf("\ntool (not a schedule of its own):\n");
    std::printf("%-13.*s %-8s %-9.*s %.*s\n", static_cast<int>(t.name.size()), t.name.data(), t.adaptive ? "yes" : "no",
                static_cast<int>(t.needs.size()), t.needs.data(), static_cast<int>(t.paper.size()), t.paper.data());
    std::printf("%-32s formula: %.*s\n", "", static_cast<int>(t.formula.size()), t.formula.data());
    std::printf("%-32s chunk c: %.*s", "", static_cast<int>(t.chunk.size()), t.chunk.data());
    if (!t.aliases.empty()) std::printf("; also spelled %.*s", static_cast<int>(t.aliases.size()), t.aliases.data());
    std::printf("\n");
  }
  std::printf("\n%d techniques. Schedules: <technique>[,chunk=<n>|expert][,<key>=<value>...], e.g. gss,chunk=16\n",
              technique_count);
}

}  // namespace

void add_info_command(CLI::App& app) {
  auto* info =
      app.add_subcommand("info", std::string(description("info")));
  auto techniques = std::make_shared<bool>(false);
  info->add_flag("--techniques", *techniques, "List every scheduling technique with its source and formula");
  info->callback([techniques] {
    if (*techniques) {
      print_techniques();
    } else {
      print_info();
    }
  });
}

}  // namespace autosched::cli
