#include "app.hpp"

#ifdef AUTOSCHED_APPS_PLAIN_OPENMP
#include <autosched/omp/dropin.h>

#include <dlfcn.h>
#include <sys/stat.h>
#else
#include <autosched/core/file_checks.hpp>
#include <autosched/select/grammar/schedule.hpp>
#endif

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>

namespace autosched::apps {

namespace {

[[noreturn]] void usage_error(const std::string& app, const std::string& message) {
  std::fprintf(stderr, "%s%s: %s (--help lists the options)\n", program_prefix, app.c_str(), message.c_str());
  std::exit(2);
}

double parse_number(const std::string& app, const std::string& option, const char* text, bool integer) {
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(text, &end);
  if (end == text || *end != '\0' || errno != 0 || !std::isfinite(v) || v < 0 || (integer && v != std::floor(v))) {
    usage_error(app, "--" + option + "=" + text + ": expected " +
                         (integer ? "a non-negative integer" : "a non-negative number"));
  }
  return v;
}

#ifdef AUTOSCHED_APPS_PLAIN_OPENMP
// What the drop-in reports when it is preloaded (autosched/omp/dropin.h; the
// program is never linked to it, so the functions are looked up at run time).
using DropinCounts = autosched_omp_counts;
using GetCounts = int (*)(DropinCounts*);

GetCounts dropin_counts() noexcept {
  return reinterpret_cast<GetCounts>(dlsym(RTLD_DEFAULT, "autosched_omp_get_counts"));
}

// The instance the drop-in closed last.
using DropinInstance = autosched_omp_instance;
using GetLastInstance = int (*)(DropinInstance*);

/// The loop that just ran, as the drop-in scheduled it: true and `out` set
/// when the drop-in is preloaded and took an instance since `*seen` (its
/// count of instances, updated), so that a loop it forwarded is not credited
/// with the previous loop's arm.
bool dropin_took(DropinInstance& out, unsigned long long* seen) noexcept {
  static const GetCounts get_counts = dropin_counts();
  static const auto get_last =
      reinterpret_cast<GetLastInstance>(dlsym(RTLD_DEFAULT, "autosched_omp_last_instance"));
  DropinCounts c{};
  if (get_counts == nullptr || get_last == nullptr || get_counts(&c) != 0 || c.instances == *seen) return false;
  *seen = c.instances;
  return get_last(&out) == 0;
}
#endif

}  // namespace

App::App(std::string name, std::string description, int argc, char** argv, std::vector<SizeOption> sizes,
         int default_steps)
    : name_(std::move(name)), sizes_(std::move(sizes)), steps_(default_steps), threads_(omp_get_max_threads()) {
  std::string record_path;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::printf("%s%s: %s\n\nusage: %s%s [options]\n", program_prefix, name_.c_str(), description.c_str(),
                  program_prefix, name_.c_str());
      std::printf("  --steps T          time steps (default %d)\n", default_steps);
      std::printf("  --threads P        team size (default %d, OpenMP's)\n", threads_);
#ifdef AUTOSCHED_APPS_PLAIN_OPENMP
      std::printf(
          "  --schedule S       omp:static|omp:dynamic|omp:guided as the runtime schedule (default:\n"
          "                     OMP_SCHEDULE's, or AUTOSCHED_SCHEDULE's under the autosched drop-in)\n");
#else
      std::printf("  --schedule S       autosched schedule for every loop, or omp:static|omp:dynamic|omp:guided\n");
#endif
      std::printf(
          "  --record FILE      one CSV row per loop instance\n"
          "  --level-reference  follow each loop instance by its work once more under a fixed\n"
          "                     balanced schedule, recorded as <loop>@reference\n"
          "  --quiet            no summary\n");
      for (const SizeOption& s : sizes_) {
        std::printf("  --%-16s %s (default %g)\n", s.name.c_str(), s.help.c_str(), s.value);
      }
      std::exit(0);
    }
    if (arg == "--quiet") {
      quiet_ = true;
      continue;
    }
    if (arg == "--level-reference") {
      level_reference_ = true;
      continue;
    }
    if (arg.rfind("--", 0) != 0) usage_error(name_, "unexpected argument '" + arg + "'");
    if (i + 1 >= argc) usage_error(name_, arg + " needs a value");
    const std::string option = arg.substr(2);
    const char* value = argv[++i];
    if (option == "steps") {
      steps_ = static_cast<int>(parse_number(name_, option, value, true));
      if (steps_ < 1) usage_error(name_, "--steps=0: expected at least one step");
    } else if (option == "threads") {
      threads_ = static_cast<int>(parse_number(name_, option, value, true));
      if (threads_ < 1) usage_error(name_, "--threads=0: expected at least one thread");
    } else if (option == "schedule") {
      schedule_ = value;
    } else if (option == "record") {
      record_path = value;
    } else {
      bool known = false;
      for (SizeOption& s : sizes_) {
        if (s.name == option) {
          s.value = parse_number(name_, option, value, s.integer);
          known = true;
        }
      }
      if (!known) usage_error(name_, "unknown option --" + option);
    }
  }
  if (schedule_.rfind("omp:", 0) == 0) {
    const std::string kind = schedule_.substr(4);
    if (kind == "static") {
      runner_ = Runner::omp_static;
    } else if (kind == "dynamic") {
      runner_ = Runner::omp_dynamic;
    } else if (kind == "guided") {
      runner_ = Runner::omp_guided;
    } else {
      usage_error(name_, "--schedule=" + schedule_ + ": expected omp:static, omp:dynamic or omp:guided");
    }
  } else if (!schedule_.empty()) {
#ifdef AUTOSCHED_APPS_PLAIN_OPENMP
    usage_error(name_, "--schedule=" + schedule_ +
                           ": expected omp:static, omp:dynamic or omp:guided (a plain OpenMP program; under the "
                           "autosched drop-in, AUTOSCHED_SCHEDULE chooses its schedule)");
#else
    try {
      (void)parse_schedule(schedule_, "--schedule");
    } catch (const Error& e) {
      usage_error(name_, e.what());
    }
#endif
  }
#ifdef AUTOSCHED_APPS_PLAIN_OPENMP
  // The loops are schedule(runtime); chunk 0 is each kind's default, as in
  // the autosched build's schedule(static|dynamic|guided) references.
  if (runner_ == Runner::omp_static) omp_set_schedule(omp_sched_static, 0);
  if (runner_ == Runner::omp_dynamic) omp_set_schedule(omp_sched_dynamic, 0);
  if (runner_ == Runner::omp_guided) omp_set_schedule(omp_sched_guided, 0);
#endif
  if (!record_path.empty()) {
    std::string why;
#ifdef AUTOSCHED_APPS_PLAIN_OPENMP
    // No autosched library here: the same refusal of a FIFO or a device.
    struct stat st {};
    const bool special = ::stat(record_path.c_str(), &st) == 0 && !S_ISREG(st.st_mode);
    record_ = special ? nullptr : std::fopen(record_path.c_str(), "w");
    why = special ? "it is not a regular file" : "cannot write this file";
#else
    record_ = files::open_for_writing(record_path, &why);
#endif
    if (record_ == nullptr) usage_error(name_, "--record=" + record_path + ": " + why);
    std::fputs("step,loop,time_ns,arm,explored,selection_ns,cut_short\n", record_);
  }
}

App::~App() {
  if (record_ != nullptr) std::fclose(record_);
}

long App::size(const std::string& option) const {
  for (const SizeOption& s : sizes_) {
    if (s.name == option) return static_cast<long>(s.value);
  }
  std::fprintf(stderr, "%s%s: internal error: no size option %s\n", program_prefix, name_.c_str(), option.c_str());
  std::abort();
}

double App::real(const std::string& option) const {
  for (const SizeOption& s : sizes_) {
    if (s.name == option) return s.value;
  }
  std::fprintf(stderr, "%s%s: internal error: no option %s\n", program_prefix, name_.c_str(), option.c_str());
  std::abort();
}

void App::record(const std::string& loop, double ns) {
  total_ns_ += ns;
  loop_ns_[loop] += ns;
  if (record_ == nullptr) return;
#ifdef AUTOSCHED_APPS_PLAIN_OPENMP
  constexpr bool plain = true;  // Runner::autosched stands for schedule(runtime) as the environment sets it
#else
  constexpr bool plain = false;
#endif
#ifdef AUTOSCHED_APPS_PLAIN_OPENMP
  // Under the drop-in, the record names the arm it ran, as the native build's.
  if (DropinInstance d{}; runner_ == Runner::autosched && dropin_took(d, &dropin_seen_)) {
    std::fprintf(record_, "%d,%s,%.0f,%s,%d,%.0f,%d\n", step_, loop.c_str(), ns, d.arm, d.explored, d.selection_ns,
                 d.cut_short);
    return;
  }
#endif
  if (plain || runner_ != Runner::autosched) {
    static const char* names[] = {"runtime", "omp-static", "omp-dynamic", "omp-guided"};
    std::fprintf(record_, "%d,%s,%.0f,%s,0,0,0\n", step_, loop.c_str(), ns, names[static_cast<int>(runner_)]);
    return;
  }
#ifndef AUTOSCHED_APPS_PLAIN_OPENMP
  const auto r = last_instance(loop);
  std::string arm(r->technique);
  if (r->exp_chunk) {
    arm += ":expert";
  } else if (r->chunk > 0) {
    arm.append(":").append(std::to_string(r->chunk));  // not `":" + …`: GCC 12 warns falsely (-Wrestrict)
  }
  std::fprintf(record_, "%d,%s,%.0f,%s,%d,%.0f,%d\n", step_, loop.c_str(), ns, arm.c_str(), r->explored ? 1 : 0,
               r->selection_ns, r->cut_short ? 1 : 0);
#endif
}

void App::record_reference(const std::string& loop, double ns) {
  if (record_ != nullptr)
    std::fprintf(record_, "%d,%s%s,%.0f,balanced-reference,0,0,0\n", step_, loop.c_str(), reference_suffix, ns);
}

int App::finish(bool verified, const std::string& what) {
  if (record_ != nullptr) std::fflush(record_);
  if (!verified) {
    std::fprintf(stderr, "%s%s: WRONG RESULT: %s\n", program_prefix, name_.c_str(), what.c_str());
    return 1;
  }
  if (!quiet_) {
    std::printf("%s%s: %d steps on %d threads, schedule %s: %.3f s in the loops; %s\n", program_prefix, name_.c_str(),
                steps_, threads_, schedule_.empty() ? "(default)" : schedule_.c_str(), total_ns_ / 1e9, what.c_str());
#ifdef AUTOSCHED_APPS_PLAIN_OPENMP
    DropinCounts c{};
    if (const GetCounts get = dropin_counts(); get != nullptr && get(&c) == 0) {
      std::printf("%s%s: the autosched drop-in scheduled %llu instances of %llu loops, %llu chunks; %llu forwarded\n",
                  program_prefix, name_.c_str(), c.instances, c.loops, c.chunks, c.forwarded);
    }
#endif
  }
  return 0;
}

}  // namespace autosched::apps
