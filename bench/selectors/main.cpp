// bench_selectors: what a selector costs per loop instance on real loops.
// Every selector (and the fixed `static` schedule as the baseline) runs its
// own small loop; instances are interleaved across selectors so that machine
// noise hits all of them alike. Per selector it prints, as CSV:
//   selection_ns  choose() + observe() as the decision point times them
//                 (median, 90th percentile and mean over instances; a
//                 selector that learns in batches (auto once settled) costs
//                 nothing on most instances and a batch's worth on one, so
//                 its mean is the number to compare);
//   call_ns       the whole parallel_for call seen by the caller (median);
//   overhead_ns   call_ns minus the fixed schedule's call_ns: everything the
//                 selection costs the application, bookkeeping and (when
//                 AUTOSCHED_DB is set) posting to the store included.
// The store is a process-wide setting: run.sh runs this twice, store off and on.
// --pollute-kib K writes K KiB of memory before each instance, as an
// application's step between two calls of one loop does: the selector then
// runs with its data and code out of the caches, as in a real app (the
// campaign's records), instead of hot from the instance before.
// --body-kib K has the loop's body write K KiB (its iterations share the
// buffer), so that observe() too runs after the caches were emptied, as it
// does after a real step's loop; with --pollute-kib alone the tiny body
// leaves choose()'s data in the cache for observe().
//
// --schedules "a;b" measures only those (static, the baseline, is always first).
//
//   bench_selectors [--instances K] [--n N] [--threads P] [--pollute-kib K] [--body-kib K] [--schedules LIST]
#include <autosched/autosched.hpp>
#include <autosched/measure/clock.hpp>
#include <autosched/core/text.hpp>
#include <select_sim/simulation.hpp>

#include <omp.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <string>
#include <vector>

namespace {

double percentile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  return v[static_cast<std::size_t>(q * static_cast<double>(v.size() - 1) + 0.5)];
}

long option(int argc, char** argv, const char* name, long fallback, long low) {
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::string(argv[i]) != name) continue;
    const auto v = autosched::text::to_int(argv[i + 1]);
    if (!v || *v < low) {
      std::fprintf(stderr, "%s\n",
                   autosched::text::bad_value(name, argv[i + 1], "an integer >= " + std::to_string(low)).c_str());
      std::exit(2);
    }
    return static_cast<long>(*v);
  }
  return fallback;
}

}  // namespace

int main(int argc, char** argv) {
  const long instances = option(argc, argv, "--instances", 3000, 10);
  const long n = option(argc, argv, "--n", 1024, 1);
  const int threads = static_cast<int>(option(argc, argv, "--threads", omp_get_max_threads(), 1));
  const long pollute_kib = option(argc, argv, "--pollute-kib", 0, 0);
  std::vector<char> pollution(static_cast<std::size_t>(pollute_kib) * 1024);
  const long body_kib = option(argc, argv, "--body-kib", 0, 0);
  std::vector<char> body_buffer(static_cast<std::size_t>(body_kib) * 1024);
  // Iteration i writes every cache line of its slice of the body's buffer.
  const std::size_t slice = body_buffer.size() / static_cast<std::size_t>(n);
  char* const body_data = body_buffer.data();

  std::vector<std::string> schedules{"static"};
  std::string only;
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::string(argv[i]) == "--schedules") only = argv[i + 1];
  }
  if (only.empty()) {
    for (const auto& s : autosched::published_selector_schedules()) schedules.push_back(s);
    schedules.emplace_back("auto:chunk");
    schedules.emplace_back("auto");
  } else {
    for (std::size_t from = 0; from <= only.size();) {
      const std::size_t to = std::min(only.find(';', from), only.size());
      if (to > from && only.substr(from, to - from) != "static") schedules.push_back(only.substr(from, to - from));
      from = to + 1;
    }
  }

  struct Samples {
    std::vector<double> selection, call;
  };
  std::vector<Samples> samples(schedules.size());
  for (long k = 0; k < instances; ++k) {
    for (std::size_t s = 0; s < schedules.size(); ++s) {
      const std::string loop = "bench/" + schedules[s];
      for (std::size_t b = 0; b < pollution.size(); b += 64) pollution[b] = static_cast<char>(pollution[b] + 1);
      asm volatile("" : : "r"(pollution.data()) : "memory");
      const std::int64_t start = autosched::now_ns();
      autosched::parallel_for(0L, n,
                              [=](long i) {
                                char* part = body_data + static_cast<std::size_t>(i) * slice;
                                for (std::size_t b = 0; b < slice; b += 64) part[b] = static_cast<char>(part[b] + 1);
                                asm volatile("" : : "r"(part) : "memory");
                              },
                              {.name = loop, .schedule = schedules[s], .threads = threads});
      const std::int64_t stop = autosched::now_ns();
      const auto r = autosched::last_instance(loop);
      if (k < instances / 10) continue;  // the first tenth warms caches and the team up
      samples[s].selection.push_back(r->selection_ns);
      samples[s].call.push_back(static_cast<double>(stop - start));
    }
  }
  const double baseline = percentile(samples[0].call, 0.5);
  std::printf("schedule,selection_ns_median,selection_ns_p90,selection_ns_mean,call_ns_median,overhead_ns\n");
  for (std::size_t s = 0; s < schedules.size(); ++s) {
    const std::vector<double>& selection = samples[s].selection;
    const double call = percentile(samples[s].call, 0.5);
    const double mean = selection.empty() ? 0.0 : std::accumulate(selection.begin(), selection.end(), 0.0) /
                                                       static_cast<double>(selection.size());
    std::printf("\"%s\",%.0f,%.0f,%.0f,%.0f,%.0f\n", schedules[s].c_str(), percentile(selection, 0.5),
                percentile(selection, 0.9), mean, call, call - baseline);
  }
  autosched::flush_records();
  return 0;
}
