// bench_ranking: what one re-ranking costs `auto` — every arm simulated on a
// measured cost profile (select/selectors/auto/arm_ranking.hpp). It runs once per profile
// (the first instance of a loop in a process, and after a detected change),
// in observe() after the instance closed, never between chunks. Prints CSV:
//   workers, queued, robust, arms, iterations, median_us, p90_us
// (robust = 1: as `auto` ranks, two simulations per arm with one worker 5%
// slow, predict_arms_robust; 0: one simulation on perfect workers)
// for a 10^5-iteration profile of 256 blocks whose cost rises along the
// loop, auto's 24 arms plus six chunked ones (30), at P = 2, 20, 56, 128,
// and at P = 200 with process-level dispatch queues (12 µs at the counter,
// 6 µs at the coordinator, as measured under SMPI), where the simulator
// resolves single iterations (column `queued` = 1).
//
//   bench_ranking [--repeats K]
#include <autosched/core/text.hpp>
#include <autosched/select/grammar/arm.hpp>
#include <autosched/select/selectors/auto/arm_ranking.hpp>
#include <autosched/select/grammar/auto_config.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

int main(int argc, char** argv) {
  using namespace autosched;
  int repeats = 200;
  if (argc == 3 && std::string(argv[1]) == "--repeats") {
    const auto v = text::to_int(argv[2]);
    if (!v || *v < 1) {
      std::fprintf(stderr, "%s\n", text::bad_value("--repeats", argv[2], "an integer >= 1").c_str());
      return 2;
    }
    repeats = static_cast<int>(*v);
  } else if (argc != 1) {
    std::fprintf(stderr, "usage: bench_ranking [--repeats K]\n");
    return 2;
  }
  const std::int64_t n = 100000;
  std::vector<double> blocks(256);
  for (std::size_t b = 0; b < blocks.size(); ++b) blocks[b] = 1000.0 * static_cast<double>(1 + b % 37 + b / 8);
  const CostProfile profile = CostProfile::from_blocks(n, blocks, 60);
  Portfolio arms = auto_portfolio();
  for (const char* extra : {"ss:16", "ss:64", "ss:256", "static-steal:64", "gss:16", "tss:64"}) {
    arms.push_back(parse_technique_spec(extra, "bench_ranking"));
  }
  CostProfile queued = profile;
  queued.set_dispatch_queues(12000, 6000);
  std::printf("workers,queued,robust,arms,iterations,median_us,p90_us\n");
  const std::pair<int, const CostProfile*> cases[] = {{2, &profile},   {20, &profile}, {56, &profile},
                                                      {128, &profile}, {200, &queued}};
  for (const bool robust : {false, true}) {
    for (const auto& [p, measured] : cases) {
      std::vector<double> us;
      double sink = 0;
      for (int r = 0; r < repeats; ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        const std::vector<double> predicted =
            robust ? predict_arms_robust(arms, *measured, p, AutoConfig{}.jitter) : predict_arms(arms, *measured, p);
        us.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
        sink += predicted.front();
      }
      std::sort(us.begin(), us.end());
      std::printf("%d,%d,%d,%zu,%lld,%.1f,%.1f\n", p, measured->dispatches_queue() ? 1 : 0, robust ? 1 : 0,
                  arms.size(), static_cast<long long>(n), us[us.size() / 2], us[us.size() * 9 / 10]);
      if (sink < 0) std::puts("");  // keeps the predictions alive
    }
  }
  return 0;
}
