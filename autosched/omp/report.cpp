#include <autosched/omp/report.hpp>

#include <autosched/core/environment.hpp>
#include <autosched/core/error.hpp>
#include <autosched/core/file_checks.hpp>
#include <autosched/core/forked_child.hpp>
#include <autosched/omp/dropin_loop.hpp>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <string>

namespace autosched::omp {

namespace {

std::string ms(double ns) {
  char b[32];
  std::snprintf(b, sizeof b, "%.3f", ns / 1e6);
  return b;
}

}  // namespace

void write_report_to_destination();

void write_report(std::FILE* out) {
  const Counts c = counts();
  std::fprintf(out, "autosched-omp: %llu loop(s) scheduled, %llu instance(s), %llu chunk(s)\n",
               static_cast<unsigned long long>(c.loops), static_cast<unsigned long long>(c.instances),
               static_cast<unsigned long long>(c.chunks));
  std::fprintf(out, "%-36s %9s  %-22s %10s %8s  %s\n", "loop", "instances", "chosen arm", "mean ms", "explored",
               "runtime's arm");
  for (LoopSite* site : all_sites()) {
    const SiteStats s = site->stats();
    if (s.instances == 0) continue;
    const double mean = s.total_ns / static_cast<double>(s.instances);
    char instances[32];
    // A loop that ran once: its one instance is all the drop-in saw (under
    // auto, the arm its first instances in earlier runs did best with).
    std::snprintf(instances, sizeof instances, s.instances == 1 ? "%llu (once)" : "%llu",
                  static_cast<unsigned long long>(s.instances));
    char explored[16];
    std::snprintf(explored, sizeof explored, "%.0f%%", 100.0 * static_cast<double>(s.explored) /
                                                          static_cast<double>(s.instances));
    const std::string& native = site->native_arm();
    // A long name (templates, lambdas) gets a line of its own, so the columns stay aligned.
    const bool long_name = site->where().size() > 36;
    if (long_name) std::fprintf(out, "%s\n", site->where().c_str());
    std::fprintf(out, "%-36s %9s  %-22s %10s %8s  %s\n", long_name ? "" : site->where().c_str(), instances,
                 s.last_arm.c_str(), ms(mean).c_str(), explored, native.empty() ? "-" : native.c_str());
    std::fprintf(out, "    id %s\n", site->id().c_str());
    if (s.resumed_points == 1) {
      std::fprintf(out, "    resumed: %llu earlier instances (warm start from the store)\n",
                   static_cast<unsigned long long>(s.resumed_instances));
    } else if (s.resumed_points > 1) {
      std::fprintf(out, "    resumed: %llu earlier instances, over %d decision points (warm start from the store)\n",
                   static_cast<unsigned long long>(s.resumed_instances), s.resumed_points);
    }
  }
  if (c.fallbacks > 0) {
    std::fprintf(out, "autosched-omp: %llu thread entries ran as static blocks (the driver refused the loop; "
                      "see the warnings)\n",
                 static_cast<unsigned long long>(c.fallbacks));
  }
  std::fprintf(out, "autosched-omp: %llu thread entries forwarded to the OpenMP runtime\n",
               static_cast<unsigned long long>(c.forwarded));
  for (int i = 0; i < static_cast<int>(ForwardReason::count_); ++i) {
    if (c.forwarded_by[i] == 0) continue;
    std::fprintf(out, "    %llu: %s\n", static_cast<unsigned long long>(c.forwarded_by[i]),
                 describe(static_cast<ForwardReason>(i)));
  }
}

void write_report_once() {
  static std::atomic<bool> written{false};
  // A forked child's counts are its parent's, and its file the parent's too.
  if (in_forked_child() || written.exchange(true)) return;
  try {
    write_report_to_destination();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "autosched-omp: warning: the report could not be written: %s\n", e.what());
  } catch (...) {
  }
}

void write_report_to_destination() {
  const auto where = environment::get("AUTOSCHED_OMP_REPORT");
  if (!where || where->empty()) return;
  if (*where == "stderr" || *where == "-") {
    write_report(stderr);
    return;
  }
  // Through the one check for user-named files: a FIFO there blocked the
  // program at exit, and /dev/full or a full disk lost the report silently.
  std::string why;
  std::FILE* f = files::open_for_writing(*where, &why);
  if (f != nullptr) {
    write_report(f);
    const bool failed = std::ferror(f) != 0;
    if (std::fclose(f) == 0 && !failed) return;
    why = std::string("writing it failed: ") + std::strerror(errno != 0 ? errno : EIO);
  }
  detail::warn("AUTOSCHED_OMP_REPORT=" + *where + ": " + why + "; the report goes to stderr");
  write_report(stderr);
}

}  // namespace autosched::omp
