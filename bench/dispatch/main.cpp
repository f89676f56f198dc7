// bench_dispatch: the cost of handing out chunks. Every competitor runs the
// same loop (n iterations, empty or tiny body, p threads); repetitions are
// interleaved across competitors so that machine noise hits all of them
// alike; medians are reported with ratios to `omp dynamic,1` and to a bare
// fetch_add loop measured in the same run.
//
//   bench_dispatch [--threads P] [--reps R] [--n N] [--only name;name;...] [--out results.md]
// --only keeps the named competitors (plus the two baselines the ratios need).
#include "competitor.hpp"

#include <autosched/measure/clock.hpp>
#include <autosched/core/system_info.hpp>
#include <autosched/core/text.hpp>
#include <autosched/core/version.hpp>

#include <omp.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

namespace {

struct Options {
  int threads = omp_get_max_threads();
  int reps = 11;
  std::int64_t n = std::int64_t{1} << 20;
  std::string out;
  std::string only;
  std::string command;
};

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 0; i < argc; ++i) {
    if (i > 0) o.command += ' ';
    o.command += argv[i];
  }
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string key = argv[i], value = argv[i + 1];
    auto number = [&](std::int64_t low) {
      auto v = autosched::text::to_int(value);
      if (!v || *v < low) {
        std::fprintf(stderr, "%s\n",
                     autosched::text::bad_value(key, value, "an integer >= " + std::to_string(low)).c_str());
        std::exit(2);
      }
      return *v;
    };
    if (key == "--threads")
      o.threads = static_cast<int>(number(1));
    else if (key == "--reps")
      o.reps = static_cast<int>(number(1));
    else if (key == "--n")
      o.n = number(1000);
    else if (key == "--out")
      o.out = value;
    else if (key == "--only")
      o.only = value;
    else {
      std::fprintf(stderr, "unknown option %s; accepted: --threads --reps --n --only --out\n", key.c_str());
      std::exit(2);
    }
  }
  return o;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

struct Result {
  double seconds = 0;       ///< median wall time of one loop
  std::int64_t chunks = 0;  ///< chunks handed out (0 = unknown)
};

std::map<std::string, Result> measure(const std::vector<bench::Competitor>& competitors, const Options& o,
                                      bench::Body body) {
  std::map<std::string, std::vector<double>> times;
  std::map<std::string, std::int64_t> chunks;
  for (const auto& c : competitors) c.run(o.n, o.threads, body);  // warm-up: teams, pages, plans
  for (int rep = 0; rep < o.reps; ++rep) {
    for (const auto& c : competitors) {
      const std::int64_t t0 = autosched::now_ns();
      chunks[c.name] = c.run(o.n, o.threads, body);
      times[c.name].push_back(static_cast<double>(autosched::now_ns() - t0) * 1e-9);
    }
  }
  std::map<std::string, Result> out;
  for (const auto& c : competitors) out[c.name] = {median(times[c.name]), chunks[c.name]};
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse(argc, argv);
  std::vector<bench::Competitor> competitors;
  bench::add_openmp_baselines(competitors);
  bench::add_fetch_add_baseline(competitors);
  bench::add_autosched_techniques(competitors);
  if (!o.only.empty()) {
    const auto keep = autosched::text::split(o.only, ';');
    std::erase_if(competitors, [&](const bench::Competitor& c) {
      if (c.name == "omp dynamic,1" || c.name == "bare fetch_add") return false;
      return std::find(keep.begin(), keep.end(), c.name) == keep.end();
    });
  }

  const auto& sys = autosched::system_info();
  std::ostringstream md;
  char date[32];
  const std::time_t now = std::time(nullptr);
  std::strftime(date, sizeof date, "%Y-%m-%d", std::gmtime(&now));
  md << "### Dispatch cost — " << sys.openmp_runtime << ", " << sys.compiler << "\n\n"
     << "`" << o.command << "` — " << date << ", autosched " << AUTOSCHED_VERSION_STRING << ", " << sys.cpu_model
     << " (" << sys.physical_cores << " cores), " << o.threads << " threads, N = " << o.n << ", median of " << o.reps
     << " interleaved repetitions, fingerprint " << sys.fingerprint << ".\n\n";

  for (bench::Body body : {bench::Body::empty, bench::Body::tiny}) {
    const auto results = measure(competitors, o, body);
    const double dyn1 = results.at("omp dynamic,1").seconds;
    const double fetch = results.at("bare fetch_add").seconds;
    md << "**"
       << (body == bench::Body::empty ? "Empty body" : "Tiny body (four dependent multiply-adds, no memory traffic)")
       << "**\n\n"
       << "| competitor | ns/iteration | chunks | ns/chunk | × omp dynamic,1 | × bare fetch_add |\n"
       << "|---|---:|---:|---:|---:|---:|\n";
    for (const auto& c : competitors) {
      const Result& r = results.at(c.name);
      char line[256];
      const double ns_iter = r.seconds * 1e9 / static_cast<double>(o.n);
      std::string per_chunk = "—";
      if (r.chunks > 0) {
        char b[32];
        std::snprintf(b, sizeof b, "%.1f", r.seconds * 1e9 / static_cast<double>(r.chunks));
        per_chunk = b;
      }
      std::snprintf(line, sizeof line, "| %s%s | %.2f | %s | %s | %.2f | %.2f |\n", c.group == "baseline" ? "**" : "",
                    (c.name + (c.group == "baseline" ? "**" : "")).c_str(), ns_iter,
                    r.chunks > 0 ? std::to_string(r.chunks).c_str() : "—", per_chunk.c_str(), r.seconds / dyn1,
                    r.seconds / fetch);
      md << line;
    }
    md << "\n";
  }
  std::fputs(md.str().c_str(), stdout);
  if (!o.out.empty()) {
    std::ofstream f(o.out);
    f << md.str();
    if (!f) {
      std::fprintf(stderr, "bench_dispatch: cannot write %s\n", o.out.c_str());
      return 1;
    }
  }
  return 0;
}
