// bench_guard: on real threads and the real clock, what the tests check in
// virtual time (tests/loops/test_selection.cpp, tests/loops/test_adaptive.cpp):
//   guard   `auto,portfolio=static,ss` on 2^25 empty iterations: the ss trial
//           (chunks of 1) must be cut at about guard (2) × static's time and
//           finish on static. Reports per repetition whether it was cut, and
//           the medians of the static trial, the cut ss trial and a whole
//           uncut ss instance, with their ratios to static;
//   shares  2 threads, thread 0 spinning 3× as long per iteration: thread 0's
//           share of the iterations per technique (ideal 1/4, static 1/2) and
//           each loop time over static's, medians over the repetitions.
// Ratios are taken within one repetition, then the median over repetitions:
// a shared machine's drift cancels. Never judges; always exits 0 unless the
// loop runtime itself fails.
//   bench_guard [--reps N]   (default 7)
#include <autosched/measure/clock.hpp>
#include <autosched/loops/loops.hpp>

#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

void spin_ns(std::int64_t ns) {
  const std::int64_t until = autosched::now_ns() + ns;
  while (autosched::now_ns() < until) {
  }
}

struct Instance {
  std::string technique;
  bool cut = false;
  double ms = 0;
};

Instance last(const std::string& loop) {
  const auto r = autosched::last_instance(loop);
  if (!r) {
    std::fprintf(stderr, "bench_guard: loop %s left no record\n", loop.c_str());
    std::exit(1);
  }
  return {std::string(r->technique), r->cut_short, r->metrics.loop_time_ns / 1e6};
}

void guard(int reps) {
  constexpr std::int64_t n = std::int64_t{1} << 25;
  auto empty = [](std::int64_t i) { asm volatile("" : : "r"(i)); };
  // The team exists before the first timed instance.
  autosched::parallel_for(std::int64_t{0}, std::int64_t{1000}, empty, {.name = "guard/warm-up", .schedule = "static", .threads = 2});
  std::vector<double> static_ms, trial_ms, ss_ms, trial_ratio, ss_ratio;
  int cut = 0;
  std::printf("guard: auto,portfolio=static,ss on 2^25 empty iterations, 2 threads\n");
  std::printf("%4s %12s %12s %6s %12s\n", "rep", "static ms", "ss trial ms", "cut", "whole ss ms");
  for (int r = 0; r < reps; ++r) {
    // A new loop name per repetition: a fresh selector, sweeping again.
    const std::string loop = "guard/" + std::to_string(r);
    std::vector<Instance> runs;
    for (int k = 0; k < 4; ++k) {  // warm-up, static trial, ss trial, static
      autosched::parallel_for(std::int64_t{0}, n, empty, {.name = loop, .schedule = "auto,portfolio=static,ss", .threads = 2});
      runs.push_back(last(loop));
    }
    const std::string whole = "guard/ss-" + std::to_string(r);
    autosched::parallel_for(std::int64_t{0}, n, empty, {.name = whole, .schedule = "ss", .threads = 2});
    const Instance ss = last(whole);
    const Instance& base = runs[1];
    const Instance& trial = runs[2];
    cut += trial.technique == "ss" && trial.cut;
    static_ms.push_back(base.ms);
    trial_ms.push_back(trial.ms);
    ss_ms.push_back(ss.ms);
    trial_ratio.push_back(trial.ms / base.ms);
    ss_ratio.push_back(ss.ms / base.ms);
    std::printf("%4d %12.3f %12.3f %6s %12.3f\n", r, base.ms, trial.ms,
                trial.technique != "ss" ? "no ss" : trial.cut ? "yes" : "no", ss.ms);
  }
  std::printf("medians: static %.3f ms, ss trial %.3f ms (x%.2f static), whole ss %.3f ms (x%.1f static); "
              "cut in %d of %d repetitions\n\n",
              median(static_ms), median(trial_ms), median(trial_ratio), median(ss_ms), median(ss_ratio), cut, reps);
}

void shares(int reps) {
  constexpr std::int64_t n = 6000;
  constexpr std::int64_t iteration_ns = 2000;
  const std::vector<std::string> techniques{"static", "awf-b", "awf-c", "awf-d", "awf-e", "af", "maf"};
  auto body = [](std::int64_t) { spin_ns(omp_get_thread_num() == 0 ? 3 * iteration_ns : iteration_ns); };
  std::vector<std::vector<double>> share(techniques.size()), ratio(techniques.size());
  for (int r = 0; r < reps; ++r) {
    double static_ms = 0;
    for (std::size_t t = 0; t < techniques.size(); ++t) {
      const std::string loop = "shares/" + techniques[t];
      autosched::parallel_for(std::int64_t{0}, n, body, {.name = loop, .schedule = techniques[t], .threads = 2});
      const auto rec = autosched::last_instance(loop);
      share[t].push_back(static_cast<double>(rec->threads[0].iterations) / static_cast<double>(n));
      const double ms = rec->metrics.loop_time_ns / 1e6;
      if (t == 0) static_ms = ms;
      ratio[t].push_back(ms / static_ms);
    }
  }
  std::printf("shares: %lld iterations, thread 0 spins %lld ns per iteration, thread 1 %lld ns; ideal share 0.25\n",
              static_cast<long long>(n), static_cast<long long>(3 * iteration_ns),
              static_cast<long long>(iteration_ns));
  std::printf("%-8s %14s %16s\n", "schedule", "median share", "median x static");
  for (std::size_t t = 0; t < techniques.size(); ++t) {
    std::printf("%-8s %14.3f %16.2f\n", techniques[t].c_str(), median(share[t]), median(ratio[t]));
  }
}

}  // namespace

int main(int argc, char** argv) {
  int reps = 7;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--reps" && i + 1 < argc) {
      reps = std::max(1, std::atoi(argv[++i]));
    } else {
      std::fprintf(stderr, "usage: bench_guard [--reps N]\n");
      return 2;
    }
  }
  std::printf("bench_guard: %d repetitions, %d hardware threads\n\n", reps, omp_get_num_procs());
  guard(reps);
  shares(reps);
  return 0;
}
