// The driver's clock seam: with a virtual clock every measurement is the
// planted cost, so timing behaviour is tested without judging wall-clock
// time. Workers are simulated by pull cursors on one thread, always stepping
// the worker whose virtual time is earliest (a discrete-event simulation
// over the real driver and techniques).
#include <autosched/measure/clock.hpp>
#include <autosched/drive/cursor.hpp>
#include <autosched/drive/loop.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <memory>
#include <vector>

namespace autosched::drive {
namespace {

std::int64_t current_time = 1'000'000;  // the virtual time of the worker being stepped
std::int64_t virtual_now() noexcept { return current_time; }

/// One instance of `name` on `p` simulated workers; an iteration costs
/// cost(worker) virtual ns. Returns the record.
InstanceRecord simulate(const char* name, int p, std::int64_t n, const char* schedule,
                        const std::function<std::int64_t(int)>& cost, bool time_chunks = false) {
  measure::ScopedClock clock(&virtual_now);
  static std::uint64_t sequence = 0;
  const std::int64_t start = current_time + 1'000'000'000;
  std::vector<std::int64_t> t(static_cast<std::size_t>(p), start);
  std::vector<std::unique_ptr<Cursor>> cursors;
  Loop& l = loop(name);
  const int team = 0;
  ++sequence;
  for (int w = 0; w < p; ++w) {
    current_time = start;
    Instance* inst = l.open_or_attach({&team, sequence}, {.n = n, .p = p, .schedule = schedule, .time_chunks = time_chunks});
    cursors.push_back(std::make_unique<Cursor>(*inst, w));
  }
  std::vector<bool> active(static_cast<std::size_t>(p), true);
  for (int left = p; left > 0;) {
    int w = -1;
    for (int i = 0; i < p; ++i) {
      if (active[i] && (w < 0 || t[i] < t[w])) w = i;
    }
    current_time = t[w];
    const IndexRange c = cursors[w]->next();
    if (c.empty()) {
      (void)cursors[w]->leave();
      active[w] = false;
      --left;
    } else {
      t[w] += c.size() * cost(w);
    }
  }
  current_time = *std::max_element(t.begin(), t.end());
  return *l.last();
}

TEST(Clock, LoopTimeAndBusyTimeAreThePlantedCosts) {
  const auto r = simulate("clock/static", 1, 100, "static", [](int) { return 10; }, true);
  EXPECT_EQ(r.metrics.loop_time_ns, 1000.0);
  EXPECT_EQ(r.threads[0].busy_ns, 1000);
}

TEST(Clock, StaticOnUnequalWorkersTakesTheSlowOnesTime) {
  // Each worker gets half; the slow one needs 3 × 500 × 10 ns.
  const auto r = simulate("clock/static2", 2, 1000, "static", [](int w) { return w == 0 ? 30 : 10; });
  EXPECT_EQ(r.metrics.loop_time_ns, 15000.0);
  EXPECT_EQ(r.threads[0].iterations, 500);
}

TEST(Clock, AwfWeightsFollowPlantedSpeeds) {
  // Worker 0 is three times slower. Time-stepping AWF starts with equal
  // weights; after one instance worker 0's weight is below 1 and the weights
  // still sum to P; after a few its share of the iterations approaches the
  // ideal 1/4 (speeds 1/3 : 1).
  const auto slow = [](int w) -> std::int64_t { return w == 0 ? 30 : 10; };
  simulate("clock/awf", 2, 20000, "awf", slow);
  const auto first = find_loop("clock/awf")->memory().awf;
  ASSERT_EQ(first.weights.size(), 2u);
  EXPECT_EQ(first.steps, 1u);
  EXPECT_LT(first.weights[0], 0.9);
  EXPECT_NEAR(first.weights[0] + first.weights[1], 2.0, 1e-9);
  InstanceRecord r;
  for (int k = 0; k < 4; ++k) r = simulate("clock/awf", 2, 20000, "awf", slow);
  EXPECT_LT(static_cast<double>(r.threads[0].iterations) / 20000, 0.35);
  EXPECT_EQ(find_loop("clock/awf")->memory().awf.steps, 5u);
}

TEST(Clock, AdaptiveTechniquesGiveTheSlowWorkerLess) {
  for (const char* technique : {"awf-b", "awf-c", "awf-d", "awf-e", "af", "maf"}) {
    const auto r = simulate(technique, 2, 20000, technique, [](int w) -> std::int64_t { return w == 0 ? 30 : 10; });
    EXPECT_LT(static_cast<double>(r.threads[0].iterations) / 20000, 0.42) << technique;
  }
}

}  // namespace
}  // namespace autosched::drive
