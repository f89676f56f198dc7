// With one core made busy, the learning automata move the workers to the
// free one: real threads, a busy-loop load, a fixed seed, generous bounds.
// Behaviour, not timing: the test judges where threads were placed. Its own
// executable, run alone by CTest (RUN_SERIAL), because another test's load on
// the "free" core would change the answer it expects.
#include <autosched/pinning/pinning.hpp>

#include "heartbeat_workers.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <thread>
#include <vector>

namespace {

namespace p = autosched::pinning;

TEST(PinningManager, LearnsToLeaveTheBusyCore) {
  const auto all = p::allowed_cores();
  if (all.size() < 2) GTEST_SKIP() << "needs 2 allowed cores, this process has " << all.size();
  const int free_core = all[0];
  const int busy_core = all[1];
  std::atomic<bool> stop{false};
  // Three busy threads on one core: a worker there gets about a quarter of
  // it, while the two workers together on the other core get half each. So
  // each worker does better on the free core whatever the other one does.
  std::vector<std::thread> load;
  for (int i = 0; i < 3; ++i) {
    load.emplace_back([&] {
      (void)p::pin_thread(p::current_tid(), busy_core);
      volatile double x = 1;
      while (!stop.load(std::memory_order_relaxed)) x = x * 1.0000001 + 1e-9;
    });
  }
  p::ManagerOptions o;
  o.policy = p::Policy::learn_o1;
  o.cores = {free_core, busy_core};
  o.seed = 42;
  o.parameters.eps = 0.2;  // the authors' code default: converges within the test's few seconds
  o.parameters.period = 0.05;
  o.parameters.uniform_start = true;  // no head start for either core
  p::Manager pm(o);
  p::testing::HeartbeatWorkers workers(pm, 2);
  pm.start();
  std::this_thread::sleep_for(std::chrono::seconds(4));  // about 80 periods; not a timing check
  pm.stop();
  workers.stop();
  stop = true;
  for (auto& t : load) t.join();

  const auto rows = pm.trace();
  ASSERT_FALSE(rows.empty());
  const double end = rows.back().time;
  int on_free = 0, total = 0;
  for (const auto& r : rows) {
    if (r.time < end / 2) continue;
    ++total;
    on_free += r.core == free_core ? 1 : 0;
  }
  ASSERT_GT(total, 10) << "the manager ran too few periods to judge";
  const double share = static_cast<double>(on_free) / total;
  EXPECT_GT(share, 0.6) << on_free << " of " << total << " thread-periods in the second half on the free core";
  std::printf("[ info ] second half on the free core: %d of %d thread-periods (%.2f), %llu periods\n", on_free, total,
              share, static_cast<unsigned long long>(pm.periods()));
}

}  // namespace
