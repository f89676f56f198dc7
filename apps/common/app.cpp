#include "app.hpp"

#include <autosched/select/schedule.hpp>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>

namespace autosched::apps {

namespace {

[[noreturn]] void usage_error(const std::string& app, const std::string& message) {
  std::fprintf(stderr, "autosched-%s: %s (--help lists the options)\n", app.c_str(), message.c_str());
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

}  // namespace

App::App(std::string name, std::string description, int argc, char** argv, std::vector<SizeOption> sizes,
         int default_steps)
    : name_(std::move(name)), sizes_(std::move(sizes)), steps_(default_steps), threads_(omp_get_max_threads()) {
  std::string record_path;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::printf("autosched-%s: %s\n\nusage: autosched-%s [options]\n", name_.c_str(), description.c_str(),
                  name_.c_str());
      std::printf("  --steps T          time steps (default %d)\n", default_steps);
      std::printf("  --threads P        team size (default %d, OpenMP's)\n", threads_);
      std::printf("  --schedule S       autosched schedule for every loop, or omp:static|omp:dynamic|omp:guided\n");
      std::printf("  --record FILE      one CSV row per loop instance\n  --quiet            no summary\n");
      for (const SizeOption& s : sizes_) {
        std::printf("  --%-16s %s (default %g)\n", s.name.c_str(), s.help.c_str(), s.value);
      }
      std::exit(0);
    }
    if (arg == "--quiet") {
      quiet_ = true;
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
    try {
      (void)parse_schedule(schedule_, "--schedule");
    } catch (const Error& e) {
      usage_error(name_, e.what());
    }
  }
  if (!record_path.empty()) {
    record_ = std::fopen(record_path.c_str(), "w");
    if (record_ == nullptr) usage_error(name_, "--record=" + record_path + ": cannot write this file");
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
  std::fprintf(stderr, "autosched-%s: internal error: no size option %s\n", name_.c_str(), option.c_str());
  std::abort();
}

double App::real(const std::string& option) const {
  for (const SizeOption& s : sizes_) {
    if (s.name == option) return s.value;
  }
  std::fprintf(stderr, "autosched-%s: internal error: no option %s\n", name_.c_str(), option.c_str());
  std::abort();
}

void App::record(const std::string& loop, double ns) {
  total_ns_ += ns;
  loop_ns_[loop] += ns;
  if (record_ == nullptr) return;
  if (runner_ != Runner::autosched) {
    static const char* names[] = {"", "omp-static", "omp-dynamic", "omp-guided"};
    std::fprintf(record_, "%d,%s,%.0f,%s,0,0,0\n", step_, loop.c_str(), ns, names[static_cast<int>(runner_)]);
    return;
  }
  const auto r = last_instance(loop);
  std::string arm(r->technique);
  if (r->exp_chunk) {
    arm += ":expert";
  } else if (r->chunk > 0) {
    arm.append(":").append(std::to_string(r->chunk));  // not `":" + …`: GCC 12 warns falsely (-Wrestrict)
  }
  std::fprintf(record_, "%d,%s,%.0f,%s,%d,%.0f,%d\n", step_, loop.c_str(), ns, arm.c_str(), r->explored ? 1 : 0,
               r->selection_ns, r->cut_short ? 1 : 0);
}

int App::finish(bool verified, const std::string& what) {
  if (record_ != nullptr) std::fflush(record_);
  if (!verified) {
    std::fprintf(stderr, "autosched-%s: WRONG RESULT: %s\n", name_.c_str(), what.c_str());
    return 1;
  }
  if (!quiet_) {
    std::printf("autosched-%s: %d steps on %d threads, schedule %s: %.3f s in the loops; %s\n", name_.c_str(), steps_,
                threads_, schedule_.empty() ? "(default)" : schedule_.c_str(), total_ns_ / 1e9, what.c_str());
  }
  return 0;
}

}  // namespace autosched::apps
