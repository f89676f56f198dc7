// White-box tests of the ACO benchmark (apps/aco): the cost function and the
// brute force against hand-computed values, the generator's ranges, the
// static split of ants, and the colony's hook calls and determinism.
#include "aco/colony.hpp"
#include "aco/smtwtp.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <numeric>
#include <vector>

namespace aco = autosched::apps::aco;

namespace {

// p = {3, 2, 4}, w = {1, 2, 3}, d = {2, 3, 4}. Costs of all six orders by hand:
// 012: C = 3, 5, 9 -> 1*1 + 2*2 + 3*5 = 20;  021: 1 + 3*3 + 2*6 = 22;
// 102: 0 + 3 + 3*5 = 18;  120: 0 + 3*2 + 7 = 13;  201: 0 + 5 + 2*6 = 17;
// 210: 0 + 2*3 + 7 = 13. Optimum 13.
aco::Instance three_jobs() { return {{3, 2, 4}, {1, 2, 3}, {2, 3, 4}}; }

}  // namespace

TEST(AcoSmtwtp, TotalWeightedTardinessByHand) {
  const aco::Instance in = three_jobs();
  EXPECT_EQ(aco::total_weighted_tardiness(in, {0, 1, 2}), 20);
  EXPECT_EQ(aco::total_weighted_tardiness(in, {0, 2, 1}), 22);
  EXPECT_EQ(aco::total_weighted_tardiness(in, {1, 0, 2}), 18);
  EXPECT_EQ(aco::total_weighted_tardiness(in, {1, 2, 0}), 13);
  EXPECT_EQ(aco::total_weighted_tardiness(in, {2, 0, 1}), 17);
  EXPECT_EQ(aco::total_weighted_tardiness(in, {2, 1, 0}), 13);
  EXPECT_EQ(aco::brute_force_optimum(in), 13);
}

TEST(AcoSmtwtp, PermutationCheck) {
  const aco::Instance in = three_jobs();
  EXPECT_TRUE(aco::is_permutation_of_jobs(in, {2, 0, 1}));
  EXPECT_FALSE(aco::is_permutation_of_jobs(in, {2, 0}));
  EXPECT_FALSE(aco::is_permutation_of_jobs(in, {2, 0, 0}));
  EXPECT_FALSE(aco::is_permutation_of_jobs(in, {2, 0, 3}));
  EXPECT_FALSE(aco::is_permutation_of_jobs(in, {-1, 0, 1}));
}

TEST(AcoSmtwtp, GeneratorRangesAndSeeds) {
  const double tf = 0.6, rdd = 0.6;
  const aco::Instance in = aco::generate(200, tf, rdd, 5);
  ASSERT_EQ(in.size(), 200);
  const double total = static_cast<double>(std::accumulate(in.p.begin(), in.p.end(), 0L));
  for (int j = 0; j < in.size(); ++j) {
    const auto k = static_cast<std::size_t>(j);
    EXPECT_GE(in.p[k], 1);
    EXPECT_LE(in.p[k], 100);
    EXPECT_GE(in.w[k], 1);
    EXPECT_LE(in.w[k], 10);
    EXPECT_GE(in.d[k], std::lround(total * (1 - tf - rdd / 2)));
    EXPECT_LE(in.d[k], std::lround(total * (1 - tf + rdd / 2)));
  }
  const aco::Instance again = aco::generate(200, tf, rdd, 5);
  EXPECT_EQ(in.p, again.p);
  EXPECT_EQ(in.d, again.d);
  EXPECT_NE(in.p, aco::generate(200, tf, rdd, 6).p);
  // Due dates clamp at 0 when the window starts before time 0.
  const aco::Instance late = aco::generate(50, 1.0, 1.0, 1);
  EXPECT_TRUE(std::all_of(late.d.begin(), late.d.end(), [](long d) { return d >= 0; }));
}

TEST(AcoColony, StaticSplitIsCeilingPerThread) {
  for (int ants = 1; ants <= 70; ++ants) {
    for (int threads = 1; threads <= 12; ++threads) {
      aco::Params p;
      p.ants = ants;
      p.threads = threads;
      const int chunk = (ants + threads - 1) / threads;
      int sum = 0, previous = chunk;
      for (int t = 0; t < threads; ++t) {
        const int mine = aco::ants_of_thread(p, t);
        EXPECT_GE(mine, 0);
        EXPECT_LE(mine, previous) << ants << " ants, " << threads << " threads";
        previous = mine;
        sum += mine;
      }
      EXPECT_EQ(sum, ants) << ants << " ants, " << threads << " threads";
      EXPECT_EQ(aco::ants_of_thread(p, 0), chunk);
    }
  }
}

namespace {

// Counts the hook's calls per thread, checking they come in order.
class CountingProgress final : public aco::Progress {
 public:
  explicit CountingProgress(int threads) : started(threads), done(threads), finished(threads) {}
  void thread_started(int t) override { ++started[static_cast<std::size_t>(t)]; }
  void work_done(int t) override {
    const auto k = static_cast<std::size_t>(t);
    if (started[k] == 1 && finished[k] == 0) ++done[k];
  }
  void thread_finished(int t) override { ++finished[static_cast<std::size_t>(t)]; }
  std::vector<int> started;
  std::vector<long> done;
  std::vector<int> finished;
};

}  // namespace

TEST(AcoColony, HookSeesEveryConstructionOnItsThread) {
  const aco::Instance in = aco::generate(20, 0.6, 0.6, 3);
  aco::Params p;
  p.ants = 10;
  p.threads = 4;  // 3, 3, 3, 1 ants
  p.iterations = 6;
  p.work_scale = 2;
  CountingProgress progress(p.threads);
  const aco::Result r = aco::run_colony(in, p, &progress);
  for (int t = 0; t < p.threads; ++t) {
    const auto k = static_cast<std::size_t>(t);
    EXPECT_EQ(progress.started[k], 1);
    EXPECT_EQ(progress.finished[k], 1);
    const long expected = static_cast<long>(aco::ants_of_thread(p, t)) * p.work_scale * p.iterations;
    EXPECT_EQ(progress.done[k], expected);
    EXPECT_EQ(r.thread_constructions[k], expected);
  }
  EXPECT_EQ(r.iteration_wall_s.size(), 6u);
  EXPECT_TRUE(std::is_sorted(r.iteration_best_so_far.rbegin(), r.iteration_best_so_far.rend()));
  EXPECT_EQ(r.iteration_best_so_far.back(), r.best_cost);
  ASSERT_TRUE(aco::is_permutation_of_jobs(in, r.best_sequence));
  EXPECT_EQ(aco::total_weighted_tardiness(in, r.best_sequence), r.best_cost);
}

TEST(AcoColony, DeterministicForSeedAndThreads) {
  const aco::Instance in = aco::generate(25, 0.6, 0.6, 4);
  for (const aco::Deposit deposit : {aco::Deposit::best_so_far, aco::Deposit::iteration_best}) {
    aco::Params p;
    p.ants = 9;
    p.threads = 5;
    p.iterations = 8;
    p.work_scale = 1;
    p.seed = 11;
    p.deposit = deposit;
    const aco::Result a = aco::run_colony(in, p, nullptr);
    const aco::Result b = aco::run_colony(in, p, nullptr);
    EXPECT_EQ(a.best_cost, b.best_cost);
    EXPECT_EQ(a.best_sequence, b.best_sequence);
    EXPECT_EQ(a.iteration_best_so_far, b.iteration_best_so_far);
  }
}

TEST(AcoColony, NeverBelowTheOptimum) {
  const aco::Instance in = three_jobs();
  aco::Params p;
  p.ants = 4;
  p.threads = 2;
  p.iterations = 10;
  p.work_scale = 1;
  const aco::Result r = aco::run_colony(in, p, nullptr);
  EXPECT_GE(r.best_cost, 13);
  EXPECT_EQ(aco::total_weighted_tardiness(in, r.best_sequence), r.best_cost);
}
