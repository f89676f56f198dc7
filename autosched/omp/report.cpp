#include <autosched/omp/report.hpp>

#include <autosched/core/environment.hpp>
#include <autosched/core/error.hpp>
#include <autosched/core/file_checks.hpp>
#include <autosched/core/forked_child.hpp>
#include <autosched/omp/dropin_loop.hpp>
#include <autosched/omp/loop_site.hpp>
#include <autosched/omp/static_loops.hpp>
#include <autosched/session/session.hpp>
#include <autosched/store/store.hpp>

#include <sys/file.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>

namespace autosched::omp {

namespace {

std::string ms(double ns) {
  char b[32];
  std::snprintf(b, sizeof b, "%.3f", ns / 1e6);
  return b;
}

/// This process's MPI rank as its launcher exported it (Open MPI, PMIx,
/// MPICH's PMI, Slurm), or empty: the report is written at exit, after
/// MPI_Finalize, so the launcher's variables are the only source.
std::string launcher_rank() {
  for (const char* name : {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", "SLURM_PROCID"}) {
    if (const char* v = std::getenv(name); v != nullptr && *v != '\0') return v;
  }
  return {};
}

/// Whether this process has anything to say: a shell or mpirun between
/// `autosched run` and the program ran no parallel region, and writing its
/// empty table over (or beside) the program's would bury the one that counts.
bool worth_reporting(const Counts& c) { return c.loops > 0 || c.regions > 0 || c.forwarded > 0; }

/// "0.71/0.29": each thread's share of the iterations.
std::string shares(const BlockBounds& b) {
  std::string out;
  const double n = static_cast<double>(b.back());
  for (std::size_t t = 0; t + 1 < b.size(); ++t) {
    char one[16];
    std::snprintf(one, sizeof one, "%s%.2f", t == 0 ? "" : "/", n > 0 ? static_cast<double>(b[t + 1] - b[t]) / n : 0.0);
    out += one;
  }
  return out;
}

/// The static loops taken with AUTOSCHED_OMP_LOOPS=static: per partition
/// (parallel region, trip count, team), the split it ended on and the time
/// saved against the even split measured in the same run.
void write_static_plans(std::FILE* out) {
  const std::vector<StaticPlanReport> plans = static_plans();
  if (plans.empty()) {
    if (takes_static() && counts().regions > 0) {
      std::fprintf(out, "autosched-omp: --loops static: no static loop asked the runtime for its bounds; a program "
                        "built by GCC computes them inline, so only programs of LLVM's OpenMP ABI (clang, flang) "
                        "have theirs balanced\n");
    }
    return;
  }
  std::fprintf(out, "autosched-omp: static loops (--loops static), per parallel region and trip count:\n");
  std::fprintf(out, "%-10s %4s %9s  %-10s %-24s %10s %10s %10s\n", "n", "team", "instances", "state", "split",
               "even ms", "learned ms", "saved ms");
  for (const StaticPlanReport& r : plans) {
    char learned[32] = "-", saved[32] = "-";
    if (r.learned_instances > 0) {
      std::snprintf(learned, sizeof learned, "%.3f", r.learned_mean_ms);
      // Against the even split's median instance, measured in this process.
      if (r.even_ms > 0)
        std::snprintf(saved, sizeof saved, "%.1f",
                      (r.even_ms - r.learned_mean_ms) * static_cast<double>(r.learned_instances));
    }
    char even[32] = "-";
    if (r.even_ms > 0) std::snprintf(even, sizeof even, "%.3f", r.even_ms);
    std::fprintf(out, "%-10lld %4d %9lld  %-10s %-24s %10s %10s %10s\n", static_cast<long long>(r.n), r.p,
                 static_cast<long long>(r.instances), to_string(r.phase), shares(r.blocks).c_str(), even, learned,
                 saved);
    std::fprintf(out, "    region %s%s\n", r.region.c_str(), r.resumed ? " (resumed from the store)" : "");
  }
}

}  // namespace

std::string report_path(const std::string& pattern) {
  std::string out;
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] != '%' || i + 1 == pattern.size()) {
      out += pattern[i];
      continue;
    }
    const char what = pattern[++i];
    if (what == 'p') {
      out += std::to_string(::getpid());
    } else if (what == 'r') {
      const std::string rank = launcher_rank();
      out += rank.empty() ? "0" : rank;
    } else if (what == '%') {
      out += '%';
    } else {
      out += '%';
      out += what;
    }
  }
  return out;
}

void write_report_to_destination();

void write_report(std::FILE* out) {
  const Counts c = counts();
  const std::string rank = launcher_rank();
  std::fprintf(out, "autosched-omp report: %s, pid %ld%s%s\n", program_invocation_name, static_cast<long>(::getpid()),
               rank.empty() ? "" : ", rank ", rank.c_str());
  std::fprintf(out, "autosched-omp: %llu loop(s) scheduled, %llu instance(s), %llu chunk(s)\n",
               static_cast<unsigned long long>(c.loops), static_cast<unsigned long long>(c.instances),
               static_cast<unsigned long long>(c.chunks));
  if (c.loops == 0 && static_plans().empty()) {
    // The usual surprise: loops without a schedule clause (or static ones)
    // are divided by the compiler's code and never call the runtime.
    std::fprintf(out,
                 "autosched-omp: %llu parallel region(s) ran and none handed a loop to the drop-in: it takes loops "
                 "with schedule(runtime), and with --loops all (AUTOSCHED_OMP_LOOPS=all) schedule(dynamic) and "
                 "schedule(guided) too; a loop with no schedule clause or schedule(static) is divided by the "
                 "compiler's code and never asks, except in programs built by clang (LLVM's OpenMP ABI) with "
                 "--loops static (docs/dropin.md)\n",
                 static_cast<unsigned long long>(c.regions));
  } else if (c.loops > 0) {
    std::fprintf(out, "%-36s %9s  %-22s %10s %8s  %s\n", "loop", "instances", "chosen arm", "mean ms", "explored",
                 "runtime's arm");
  }
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
  write_static_plans(out);
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

/// The readable names the report printed, kept in the store beside the
/// loops' ids, so that `autosched db show "<a name from the report>"` finds
/// the loop. Only with a report: the names cost a symbol-table read.
void remember_names() {
  if (counts().loops == 0) return;  // no session, and nothing to name
  autosched::detail::Store* store = session::store();
  if (store == nullptr) return;
  for (LoopSite* site : all_sites()) {
    if (site->stats().instances == 0 || site->where().empty() || site->where() == site->id()) continue;
    store->save_blob("loop-name", site->id(), site->where());
  }
}

void write_report_to_destination() {
  const auto where = environment::get("AUTOSCHED_OMP_REPORT");
  if (!where || where->empty() || !worth_reporting(counts())) return;
  try {
    remember_names();
  } catch (const std::exception& e) {
    detail::warn(std::string("the loops' names could not be kept in the store: ") + e.what());
  }
  if (*where == "stderr" || *where == "-") {
    write_report(stderr);
    return;
  }
  // The whole report is composed first and written in one call under a
  // lock: the processes of one run (ranks, a pipeline) that share the file
  // add whole sections, never interleaved lines.
  char* text = nullptr;
  std::size_t size = 0;
  std::FILE* memory = ::open_memstream(&text, &size);
  if (memory == nullptr) {
    write_report(stderr);
    return;
  }
  write_report(memory);
  std::fclose(memory);
  const std::string path = report_path(*where);
  // A name without %p or %r is shared by every process the program starts:
  // sections are appended (`autosched run --report-file` empties it first).
  const bool shared = path == *where;
  // Through the one check for user-named files: a FIFO there blocked the
  // program at exit, and /dev/full or a full disk lost the report silently.
  std::string why;
  std::FILE* f = files::open_for_writing(path, &why, shared);
  if (f != nullptr) {
    const bool locked = ::flock(::fileno(f), LOCK_EX) == 0;
    bool written = std::fwrite(text, 1, size, f) == size && std::fflush(f) == 0;
    int error = written ? 0 : errno;
    if (locked) ::flock(::fileno(f), LOCK_UN);
    if (std::fclose(f) != 0 && written) {
      written = false;
      error = errno;
    }
    if (written) {
      std::free(text);
      return;
    }
    why = std::string("writing it failed: ") + std::strerror(error != 0 ? error : EIO);
  }
  detail::warn("AUTOSCHED_OMP_REPORT=" + *where + ": " + why + "; the report goes to stderr");
  std::fwrite(text, 1, size, stderr);
  std::free(text);
}

}  // namespace autosched::omp
