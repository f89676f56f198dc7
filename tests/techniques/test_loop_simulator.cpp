// The loop simulator against schedules worked out by hand on tiny profiles
// (8 iterations, 2 workers, every iteration simulated), then its
// granularity: a coarse simulation of a large loop keeps the overhead of
// tiny chunks and the end-of-loop imbalance.
#include <autosched/core/error.hpp>
#include <autosched/techniques/loop_simulator.hpp>

#include <gtest/gtest.h>

#include <limits>
#include <vector>

namespace autosched {
namespace {

TechniqueSpec arm(std::string_view text) { return parse_technique_spec(text, "test"); }

/// One block per iteration, times in µs → ns.
CostProfile per_iteration(std::vector<double> micros, double h_ns = 0) {
  for (double& t : micros) t *= 1000;
  const auto n = static_cast<std::int64_t>(micros.size());
  return CostProfile::from_blocks(n, std::move(micros), h_ns);
}

LoopSimulationOptions exact(int p) { return {.workers = p, .max_units = 0}; }

TEST(CostProfile, RangeCostInterpolatesInsideBlocks) {
  const CostProfile p = CostProfile::from_blocks(10, {40, 20, 10}, 5);  // blocks of 4, 4, 2
  EXPECT_EQ(p.block_size(), 4);
  EXPECT_DOUBLE_EQ(p.total_ns(), 70);
  EXPECT_DOUBLE_EQ(p.cost({0, 4}), 40);
  EXPECT_DOUBLE_EQ(p.cost({2, 6}), 20 + 10);  // half of block 0, half of block 1
  EXPECT_DOUBLE_EQ(p.cost({9, 10}), 5);       // the short last block: 2 iterations
  EXPECT_DOUBLE_EQ(p.cost({0, 100}), 70);     // clamped
  EXPECT_DOUBLE_EQ(p.cost({3, 3}), 0);
}

TEST(CostProfile, RejectsWhatNoMeasurementGives) {
  EXPECT_THROW(CostProfile::from_blocks(0, {1}, 0), Error);
  EXPECT_THROW(CostProfile::from_blocks(4, {}, 0), Error);
  EXPECT_THROW(CostProfile::from_blocks(4, {1, -1}, 0), Error);
  EXPECT_THROW(CostProfile::from_blocks(4, {1, 2, 3, 4, 5}, 0), Error);  // a block without iterations
  EXPECT_THROW(CostProfile::from_blocks(4, {1}, -3), Error);
  EXPECT_THROW(CostProfile::parse("12 abc", "profile.txt"), Error);
  EXPECT_THROW(CostProfile::parse("8 0 1 x", "profile.txt"), Error);
}

TEST(CostProfile, TextRoundTrip) {
  const CostProfile p = CostProfile::from_blocks(10, {40, 20, 10}, 5);
  const CostProfile q = CostProfile::parse(p.text(), "text");
  EXPECT_EQ(q.n(), 10);
  EXPECT_EQ(q.block_ns(), p.block_ns());
  EXPECT_DOUBLE_EQ(q.overhead_ns(), 5);
}

TEST(CostProfile, LowerEnvelopeTakesTheSmallerTimeOfEachBlock) {
  CostProfile cold = CostProfile::from_blocks(10, {90, 20, 30}, 60);
  const CostProfile warm = CostProfile::from_blocks(10, {40, 25, 10}, 45);
  const CostProfile low = cold.lower_envelope(warm);
  EXPECT_EQ(low.block_ns(), (std::vector<double>{40, 20, 10}));
  EXPECT_DOUBLE_EQ(low.total_ns(), 70);
  EXPECT_DOUBLE_EQ(low.cost({0, 6}), 40 + 10);  // block 0 and half of block 1
  EXPECT_DOUBLE_EQ(low.overhead_ns(), 45);
  // Another iteration space is another loop: the other profile as it is.
  const CostProfile other = CostProfile::from_blocks(12, {1, 2, 3}, 7);
  EXPECT_EQ(cold.lower_envelope(other).block_ns(), other.block_ns());
  EXPECT_EQ(cold.lower_envelope(CostProfile::from_blocks(10, {1, 2}, 7)).block_ns(), (std::vector<double>{1, 2}));
  // Queues and the owner's price come from the later profile.
  CostProfile later = warm;
  later.set_owner_dispatch(3);
  later.set_dispatch_queues(100, 200);
  const CostProfile q = cold.lower_envelope(later);
  EXPECT_DOUBLE_EQ(q.owner_dispatch_ns(), 3);
  EXPECT_DOUBLE_EQ(q.counter_queue_ns(), 100);
  EXPECT_DOUBLE_EQ(q.coordinator_queue_ns(), 200);
}

TEST(CostProfile, ShapeDistanceIgnoresLevelAndSeesWhereTimeGoes) {
  const CostProfile rising = CostProfile::from_blocks(4, {1, 2, 3, 4}, 0);
  EXPECT_NEAR(rising.shape_distance(rising.scaled(7)), 0.0, 1e-12);
  const CostProfile falling = CostProfile::from_blocks(4, {4, 3, 2, 1}, 0);
  // shares .1 .2 .3 .4 against .4 .3 .2 .1: L1 = .3+.1+.1+.3 = .8, half = .4
  EXPECT_NEAR(rising.shape_distance(falling), 0.4, 1e-12);
  EXPECT_NEAR(CostProfile::from_blocks(2, {1, 0}, 0).shape_distance(CostProfile::from_blocks(2, {0, 1}, 0)), 1.0,
              1e-12);
}

TEST(LoopSimulator, StaticBlocksByHand) {
  // static: worker 0 runs [0,4), worker 1 runs [4,8), one dispatch each (h = 10 ns).
  const CostProfile p = per_iteration({1, 1, 1, 1, 2, 2, 2, 2}, 10);
  const SimulatedInstance s = simulate_loop(p, arm("static"), exact(2));
  EXPECT_DOUBLE_EQ(s.finish_ns[0], 4010);
  EXPECT_DOUBLE_EQ(s.finish_ns[1], 8010);
  EXPECT_DOUBLE_EQ(s.time_ns, 8010);
  EXPECT_EQ(s.chunks, 2);
}

TEST(LoopSimulator, SelfSchedulingByHand) {
  // ss: the earliest free worker takes the next iteration (ties: lower id).
  //   t=0 w0 takes 0 (4) → 4;  w1 takes 1 → 1, 2 → 2, 3 → 3, 4 → 4;
  //   t=4 w0 takes 5 → 5, w1 takes 6 → 5;  t=5 w0 takes 7 (2) → 7, w1 ends at 5.
  const CostProfile p = per_iteration({4, 1, 1, 1, 1, 1, 1, 2});
  const SimulatedInstance s = simulate_loop(p, arm("ss"), exact(2));
  EXPECT_DOUBLE_EQ(s.finish_ns[0], 7000);
  EXPECT_DOUBLE_EQ(s.finish_ns[1], 5000);
  EXPECT_DOUBLE_EQ(s.time_ns, 7000);
  EXPECT_EQ(s.chunks, 8);
}

TEST(LoopSimulator, DispatchQueuesAtOneServer) {
  // 4 workers, 8 iterations of 1 µs, ss (a ChunkSequence: the counter's
  // queue), each dispatch holds the server 10 µs (h = 0): everybody asks at
  // 0 and is served in id order, the body runs after the service.
  //   w0 served 0-10, runs 10-11;  w1 10-20 → 21;  w2 20-30 → 31;  w3 30-40 → 41;
  //   w0 asks at 11, served 40-50 → 51;  w1 at 21: 50-60 → 61;  w2: 60-70 → 71;  w3: 70-80 → 81;
  //   then the empty answers come at once (the end costs no dispatch).
  CostProfile p = per_iteration({1, 1, 1, 1, 1, 1, 1, 1});
  p.set_dispatch_queues(10000, 0);
  const SimulatedInstance s = simulate_loop(p, arm("ss"), exact(4));
  EXPECT_DOUBLE_EQ(s.finish_ns[0], 51000);
  EXPECT_DOUBLE_EQ(s.finish_ns[3], 81000);
  EXPECT_DOUBLE_EQ(s.time_ns, 81000);
  // Nothing to queue behind on one worker: each chunk just costs the service.
  EXPECT_DOUBLE_EQ(simulate_loop(p, arm("ss"), exact(1)).time_ns, 8 * 11000.0);
  // Block static asks nobody: no queue.
  EXPECT_DOUBLE_EQ(simulate_loop(p, arm("static"), exact(4)).time_ns, 2000);
  // static-steal goes through the coordinator, here free: 2 iterations each.
  EXPECT_DOUBLE_EQ(simulate_loop(p, arm("static-steal"), exact(4)).time_ns, 2000);
  // The coordinator's queue, 5 µs: ss does not use it, static-steal does.
  p.set_dispatch_queues(0, 5000);
  EXPECT_DOUBLE_EQ(simulate_loop(p, arm("ss"), exact(4)).time_ns, 2000);
  EXPECT_GE(simulate_loop(p, arm("static-steal"), exact(4)).time_ns, 4 * 5000.0 + 2000);
  // Bad values count as no queue.
  p.set_dispatch_queues(-5, std::numeric_limits<double>::quiet_NaN());
  EXPECT_DOUBLE_EQ(p.counter_queue_ns(), 0);
  EXPECT_DOUBLE_EQ(p.coordinator_queue_ns(), 0);
  EXPECT_DOUBLE_EQ(simulate_loop(p, arm("ss"), exact(4)).time_ns, 2000);
}

TEST(LoopSimulator, StaticStealOwnersPayTheOwnersPriceAndThievesPayH) {
  // static-steal, chunk 1, 2 workers: w0 owns [0,4), w1 owns [4,8); h = 1 µs,
  // a chunk from the owner's own range 0.1 µs. Iterations: 1 µs, then 3 µs.
  //   w0: 0 at 0.1-1.1, 1 at 1.2-2.2, 2 at 2.3-3.3, 3 at 3.4-4.4;
  //   w1: 4 at 0.1-3.1, 5 at 3.2-6.2;
  //   w0 at 4.4 steals 7 (a quarter of [6,8), at least one) for h: 5.4-8.4;
  //   w1 at 6.2 runs 6 at 6.3-9.3; nothing is left to steal.
  CostProfile p = per_iteration({1, 1, 1, 1, 3, 3, 3, 3}, 1000);
  EXPECT_DOUBLE_EQ(p.owner_dispatch_ns(), 1000);  // unset: h
  p.set_owner_dispatch(100);
  EXPECT_DOUBLE_EQ(p.owner_dispatch_ns(), 100);
  const SimulatedInstance s = simulate_loop(p, arm("static-steal"), exact(2));
  EXPECT_DOUBLE_EQ(s.finish_ns[0], 8400);
  EXPECT_DOUBLE_EQ(s.finish_ns[1], 9300);
  EXPECT_EQ(s.chunks, 8);
  // Every chunk at h (the owner's price unset): w0 1-2, 3-4, 5-6, 7-8, w1 1-4, 5-8;
  // at 8 w0 steals 7 and w1 runs 6, both 9-12.
  p.set_owner_dispatch(-1);
  EXPECT_DOUBLE_EQ(p.owner_dispatch_ns(), 1000);
  EXPECT_DOUBLE_EQ(simulate_loop(p, arm("static-steal"), exact(2)).time_ns, 12000);
  // Only static-steal has owner ranges: ss pays h for every chunk either way.
  p.set_owner_dispatch(100);
  const double ss = simulate_loop(p, arm("ss"), exact(2)).time_ns;
  p.set_owner_dispatch(-1);
  EXPECT_DOUBLE_EQ(simulate_loop(p, arm("ss"), exact(2)).time_ns, ss);
  // At the process level every chunk is a request: the queues price it, not the owner.
  p.set_owner_dispatch(100);
  p.set_dispatch_queues(0, 5000);
  const double queued = simulate_loop(p, arm("static-steal"), exact(2)).time_ns;
  p.set_owner_dispatch(-1);
  EXPECT_DOUBLE_EQ(simulate_loop(p, arm("static-steal"), exact(2)).time_ns, queued);
}

TEST(LoopSimulator, MasterWorkerByHand) {
  // The coordinator's queue (1 µs per request, h = 0), 2 ranks, 8 iterations
  // of 10 µs in fixed chunks of 2 (the profiling technique: not a
  // ChunkSequence, so it goes through the coordinator). Rank 0 is the
  // coordinator: it takes its own chunks without asking, and every request
  // it serves holds its own chunk up for 1 µs. Rank 1 asks for its next chunk
  // with 15% of the current one left (at least one iteration: here after 1).
  //   t=0  r0 takes [0,2) → 20;  r1 served 0-1 (r0 → 21), runs [2,4) 1-21, asks at 11;
  //   t=11 r1 served 11-12 (r0 → 22), [4,6) waits for [2,4): runs 21-41, asks at 31;
  //   t=22 r0 (held up 2 µs) takes [6,8) → 42;  t=31 r1 gets the end, done at 41.
  CostProfile p = per_iteration({10, 10, 10, 10, 10, 10, 10, 10});
  p.set_dispatch_queues(0, 1000);
  const SimulatedInstance s = simulate_loop(p, arm("profiling:2"), exact(2));
  EXPECT_DOUBLE_EQ(s.finish_ns[0], 42000);
  EXPECT_DOUBLE_EQ(s.finish_ns[1], 41000);
  EXPECT_EQ(s.chunks, 4);
  // Without queues (a thread team) nobody asks early or serves: 40 µs.
  EXPECT_DOUBLE_EQ(simulate_loop(per_iteration({10, 10, 10, 10, 10, 10, 10, 10}), arm("profiling:2"), exact(2)).time_ns,
                   40000);
}

TEST(LoopSimulator, CyclicStaticIsPricedAtTheProfilesResolution) {
  // Blocks of 4 iterations, 10 µs and 2 µs. Dealt one iteration at a time
  // the profile would call the loop balanced (each worker half of each
  // block, 6 µs), but it cannot see how a block's time falls among its
  // iterations: cyclic static is priced with chunks of a block (10 µs).
  const CostProfile p = CostProfile::from_blocks(8, {10000, 2000}, 0);
  EXPECT_DOUBLE_EQ(simulate_loop(p, arm("static:1"), exact(2)).time_ns, 10000);
  EXPECT_DOUBLE_EQ(simulate_loop(p, arm("static:4"), exact(2)).time_ns, 10000);
  // Chunks of whole blocks and more are dealt as asked: 2 blocks each.
  const CostProfile four = CostProfile::from_blocks(16, {10000, 2000, 2000, 10000}, 0);
  EXPECT_DOUBLE_EQ(simulate_loop(four, arm("static:4"), exact(2)).time_ns, 12000);
}

TEST(LoopSimulator, GuidedByHand) {
  // gss: ⌈R/P⌉ → [0,4) [4,6) [6,7) [7,8).  w0 takes [0,4) → 4; w1 [4,6) → 2,
  // [6,7) → 3, [7,8) → 4.
  const CostProfile p = per_iteration({1, 1, 1, 1, 1, 1, 1, 1});
  const SimulatedInstance s = simulate_loop(p, arm("gss"), exact(2));
  EXPECT_DOUBLE_EQ(s.finish_ns[0], 4000);
  EXPECT_DOUBLE_EQ(s.finish_ns[1], 4000);
  EXPECT_EQ(s.chunks, 4);
}

TEST(LoopSimulator, Fac2ByHand) {
  // fac2: batches of P chunks of ⌈N/(P·2^(j+1))⌉ → 2 2 | 1 1 | 1 1.
  //   w0 takes [0,2) (3+3) → 6;  w1 takes [2,4) → 2, then [4,5) → 3, [5,6) → 4,
  //   [6,7) → 5, [7,8) → 6.
  const CostProfile p = per_iteration({3, 3, 1, 1, 1, 1, 1, 1});
  const SimulatedInstance s = simulate_loop(p, arm("fac2"), exact(2));
  EXPECT_DOUBLE_EQ(s.finish_ns[0], 6000);
  EXPECT_DOUBLE_EQ(s.finish_ns[1], 6000);
  EXPECT_EQ(s.chunks, 6);
}

TEST(LoopSimulator, WorkerSpeedsDivideBodyTime) {
  const CostProfile p = per_iteration({1, 1, 1, 1, 1, 1, 1, 1});
  const std::vector<double> speeds{1.0, 2.0};
  const SimulatedInstance s = simulate_loop(p, arm("static"), {.workers = 2, .speeds = speeds, .max_units = 0});
  EXPECT_DOUBLE_EQ(s.finish_ns[0], 4000);
  EXPECT_DOUBLE_EQ(s.finish_ns[1], 2000);
  // Self-scheduling gives the fast worker more: w1 runs 5 or 6 iterations.
  const SimulatedInstance d = simulate_loop(p, arm("ss"), {.workers = 2, .speeds = speeds, .max_units = 0});
  EXPECT_LT(d.time_ns, s.time_ns);
}

TEST(LoopSimulator, CoarseUnitsKeepTheOverheadOfTinyChunks) {
  // 10^6 iterations of 1 ns with h = 10 ns: ss,chunk=1 costs ≈ (1 + 10)·n/P;
  // simulated in ≤ 1024 units, each unit is charged its ~977 dispatches.
  const std::int64_t n = 1'000'000;
  const CostProfile p = CostProfile::uniform(n, 1.0, 10.0);
  const double expected = 11.0 * static_cast<double>(n) / 2;
  const SimulatedInstance s = simulate_loop(p, arm("ss"), {.workers = 2});
  EXPECT_NEAR(s.time_ns / expected, 1.0, 0.02);
  EXPECT_NEAR(static_cast<double>(s.chunks), static_cast<double>(n), n * 0.01);
  // A chunk of 4096 iterations is a few units: overhead is negligible.
  const SimulatedInstance c = simulate_loop(p, arm("ss:4096"), {.workers = 2});
  EXPECT_NEAR(c.time_ns / (static_cast<double>(n) / 2), 1.0, 0.01);
}

TEST(LoopSimulator, CoarseMatchesExactOnAnImbalancedLoop) {
  // Costs rising along the loop: coarse and exact simulations agree within 3%
  // (tss and af, whose chunk sizes change at every chunk, differ most).
  const std::int64_t n = 20'000;
  std::vector<double> blocks(200);
  for (std::size_t b = 0; b < blocks.size(); ++b) blocks[b] = 100.0 * static_cast<double>(b + 1);
  const CostProfile p = CostProfile::from_blocks(n, blocks, 50);
  for (const char* name : {"static", "gss", "fac2", "tss", "ss:16", "awf-b", "af", "static-steal", "mfsc"}) {
    const double coarse = simulate_loop(p, arm(name), {.workers = 4, .max_units = 1024}).time_ns;
    const double fine = simulate_loop(p, arm(name), {.workers = 4, .max_units = 0}).time_ns;
    EXPECT_NEAR(coarse / fine, 1.0, 0.03) << name;
  }
}

TEST(LoopSimulator, EveryTechniqueRunsAndNoneBeatsPerfectBalance) {
  const CostProfile p = CostProfile::from_blocks(4096, std::vector<double>(64, 1000.0), 20);
  for (const TechniqueInfo& t : technique_catalogue()) {
    const SimulatedInstance s = simulate_loop(p, TechniqueSpec{.technique = t.id, .chunk = 0, .expert_chunk = false, .params = {}}, {.workers = 4, .instances = 2});
    EXPECT_GE(s.time_ns, p.total_ns() / 4) << t.name;
    EXPECT_GE(s.chunks, 1) << t.name;
  }
}

TEST(LoopSimulator, RejectsBadOptions) {
  const CostProfile p = per_iteration({1, 1});
  EXPECT_THROW(simulate_loop(CostProfile{}, arm("ss"), exact(2)), Error);
  EXPECT_THROW(simulate_loop(p, arm("ss"), exact(0)), Error);
  const std::vector<double> one{1.0}, negative{1.0, -1.0};
  EXPECT_THROW(simulate_loop(p, arm("ss"), {.workers = 2, .speeds = one}), Error);
  EXPECT_THROW(simulate_loop(p, arm("ss"), {.workers = 2, .speeds = negative}), Error);
}

}  // namespace
}  // namespace autosched
