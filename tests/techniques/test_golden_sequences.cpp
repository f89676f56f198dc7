// Golden chunk sequences, derived by hand from the published formulas
// (LB4OMP's papers and published code, and our decisions in docs/techniques.md). Each
// case shows its arithmetic; the implementation must reproduce it exactly.
#include <autosched/techniques/techniques.hpp>

#include <gtest/gtest.h>

#include <vector>

namespace autosched {
namespace {

using Sizes = std::vector<std::int64_t>;

template <class Calculator>
Sizes sizes_of(Calculator calc, std::int64_t n) {
  SequencePlan plan;
  plan_sequence(std::move(calc), n, plan);
  return plan.sizes();
}

LoopShape shape(std::int64_t n, int p, std::int64_t c = 0) { return {n, p, c}; }

template <class D>
std::vector<IndexRange> chunks_of_worker(D& d, int id) {
  auto w = d.worker(id, 0);
  std::vector<IndexRange> out;
  for (IndexRange c; !(c = d.next(w)).empty();) out.push_back(c);
  return out;
}

// static, N = 10, P = 4: q = 2, r = 2 → blocks of 3, 3, 2, 2.
TEST(Golden, StaticBalancedBlocks) {
  BlockStatic d(shape(10, 4));
  EXPECT_EQ(chunks_of_worker(d, 0), (std::vector<IndexRange>{{0, 3}}));
  EXPECT_EQ(chunks_of_worker(d, 1), (std::vector<IndexRange>{{3, 6}}));
  EXPECT_EQ(chunks_of_worker(d, 2), (std::vector<IndexRange>{{6, 8}}));
  EXPECT_EQ(chunks_of_worker(d, 3), (std::vector<IndexRange>{{8, 10}}));
}

// static,c=3, N = 10, P = 2: chunk k = [3k, 3k+3) goes to worker k mod 2.
TEST(Golden, StaticCyclicChunks) {
  CyclicStatic d(shape(10, 2, 3));
  EXPECT_EQ(chunks_of_worker(d, 0), (std::vector<IndexRange>{{0, 3}, {6, 9}}));
  EXPECT_EQ(chunks_of_worker(d, 1), (std::vector<IndexRange>{{3, 6}, {9, 10}}));
}

// ss, N = 10, c = 4: 4, 4, 2.  c absent: chunks of 1.
TEST(Golden, SelfScheduling) {
  EXPECT_EQ(sizes_of(Ss(shape(10, 3, 4)), 10), (Sizes{4, 4, 2}));
  EXPECT_EQ(sizes_of(Ss(shape(3, 3)), 3), (Sizes{1, 1, 1}));
}

// gss, N = 100, P = 4: ⌈R/4⌉ with R = 100, 75, 56, 42, 31, 23, 17, 12, 9, 6, 4, 3, 2, 1.
// With c = 5 the chunks stop shrinking at 5 (R = 17 → ⌈17/4⌉ = 5): …, 5, 5, 5, 2.
TEST(Golden, GuidedSelfScheduling) {
  EXPECT_EQ(sizes_of(Gss(shape(100, 4)), 100), (Sizes{25, 19, 14, 11, 8, 6, 5, 3, 3, 2, 1, 1, 1, 1}));
  EXPECT_EQ(sizes_of(Gss(shape(100, 4, 5)), 100), (Sizes{25, 19, 14, 11, 8, 6, 5, 5, 5, 2}));
}

// guided-llvm, N = 100, P = 4, c = 1: ⌊R/8⌋ while R >= 2·4·2 = 16:
// R = 100, 88, 77, 68, 60, 53, 47, 42, 37, 33, 29, 26, 23, 21, 19, 17 → then 15 chunks of 1.
TEST(Golden, GuidedLlvm) {
  Sizes expected{12, 11, 9, 8, 7, 6, 5, 5, 4, 4, 3, 3, 2, 2, 2, 2};
  expected.insert(expected.end(), 15, 1);
  EXPECT_EQ(sizes_of(GuidedLlvm(shape(100, 4)), 100), expected);
  // (2c+1)P >= N: SS with c throughout (c = 5: 11·4 = 44 >= 40).
  EXPECT_EQ(sizes_of(GuidedLlvm(shape(40, 4, 5)), 40), (Sizes{5, 5, 5, 5, 5, 5, 5, 5}));
}

// auto-llvm, N = 100, P = 4, c = 1: x = 7/8, K = 16 (0.875^16 = 0.118 <= 12/100).
// Remaining ⌈100·0.875^k⌉, k = 0..16: 100 88 77 67 59 52 45 40 35 31 27 24 21 18 16 14 12,
// chunks are the differences, then 12 chunks of 1.
TEST(Golden, AutoLlvm) {
  Sizes expected{12, 11, 10, 8, 7, 7, 5, 5, 4, 4, 3, 3, 3, 2, 2, 2};
  expected.insert(expected.end(), 12, 1);
  EXPECT_EQ(sizes_of(AutoLlvm(shape(100, 4)), 100), expected);
  EXPECT_EQ(sizes_of(AutoLlvm(shape(100, 1)), 100), (Sizes{100}));
}

// tss, N = 100, P = 4, c = 1: F = ⌊100/8⌋ = 12, L = 1, A = ⌈200/13⌉ = 16, δ = 11/15.
// chunk i = 12 − round(11i/15): 12 11 11 10 9 8 8 7 6 5 5 4 3, and the last 1 iteration.
// N = 1000, c = 10: F = 125, L = 10, A = ⌈2000/135⌉ = 15, δ = 115/14:
// 125 117 109 100 92 84 76 67 59 51 43 35 26 and 16 left (chunk 13 would be 18).
TEST(Golden, TrapezoidSelfScheduling) {
  EXPECT_EQ(sizes_of(Tss(shape(100, 4)), 100), (Sizes{12, 11, 11, 10, 9, 8, 8, 7, 6, 5, 5, 4, 3, 1}));
  EXPECT_EQ(sizes_of(Tss(shape(1000, 4, 10)), 1000),
            (Sizes{125, 117, 109, 100, 92, 84, 76, 67, 59, 51, 43, 35, 26, 16}));
}

// fac2 and mfac2, N = 100, P = 4: batches ⌈100/8⌉ = 13, ⌈100/16⌉ = 7, ⌈100/32⌉ = 4, ⌈100/64⌉ = 2.
// N = 1000, P = 3, c = 8: 167 84 42 21 11, then the minimum 8, last 1 left.
TEST(Golden, Factoring2) {
  const Sizes expected{13, 13, 13, 13, 7, 7, 7, 7, 4, 4, 4, 4, 2, 2};
  EXPECT_EQ(sizes_of(Fac2(shape(100, 4)), 100), expected);
  EXPECT_EQ(sizes_of(Mfac2(shape(100, 4)), 100), expected);
  const Sizes with_min{167, 167, 167, 84, 84, 84, 42, 42, 42, 21, 21, 21, 11, 11, 11, 8, 8, 8, 1};
  EXPECT_EQ(sizes_of(Fac2(shape(1000, 3, 8)), 1000), with_min);
  EXPECT_EQ(sizes_of(Mfac2(shape(1000, 3, 8)), 1000), with_min);
}

// The two published FAC2 forms agree everywhere (⌈⌈a/m⌉/2⌉ = ⌈a/(2m)⌉).
TEST(Golden, Fac2AndMfac2AreTheSameSequence) {
  for (std::int64_t n : {1, 7, 100, 999, 4096, 1000003}) {
    for (int p : {1, 2, 3, 7, 16}) {
      for (std::int64_t c : {0, 1, 5, 64}) {
        EXPECT_EQ(sizes_of(Fac2(shape(n, p, c)), n), sizes_of(Mfac2(shape(n, p, c)), n)) << n << " " << p << " " << c;
      }
    }
  }
}

// fac, N = 1000, P = 4, mu = 10, sigma = 5 (sigma/mu = 0.5), b = P·0.5/(2·sqrt(R)):
//   R = 1000: b = 0.0316228, x0 = 1 + b² + b·sqrt(b²+2) = 1.045733, ⌈1000/4.18293⌉ = 240
//   R = 40:   b = 0.158114, x = 2 + b² + b·sqrt(b²+4) = 2.342215, ⌈40/9.36886⌉ = 5
//   R = 20:   b = 0.223607, x = 2.5,                             ⌈20/10⌉ = 2
//   R = 12:   b = 0.288675, x = 2.666667,                        ⌈12/10.667⌉ = 2
//   R = 4:    b = 0.5,      x = 3.280776,                        ⌈4/13.123⌉ = 1
TEST(Golden, Factoring) {
  const Sizes expected{240, 240, 240, 240, 5, 5, 5, 5, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1};
  EXPECT_EQ(sizes_of(Fac(shape(1000, 4), 10.0, 5.0), 1000), expected);
}

// fsc, N = 1000, P = 4, sigma = 10, h = 5:
//   (sqrt(2)·1000·5 / (10·4·sqrt(ln 4)))^(2/3) = 150.14^(2/3) = 28.24 → 28; 35 chunks + 20.
// mfsc, N = 1000, P = 4: m = 250, ⌊0.55 + 250·ln2/ln250⌋ = ⌊31.93⌋ = 31; 32 chunks + 8.
TEST(Golden, FixedSizeChunking) {
  Sizes fsc(35, 28);
  fsc.push_back(20);
  EXPECT_EQ(sizes_of(Fsc(shape(1000, 4), 10.0, 5.0), 1000), fsc);
  Sizes mfsc(32, 31);
  mfsc.push_back(8);
  EXPECT_EQ(sizes_of(Mfsc(shape(1000, 4)), 1000), mfsc);
}

// Guards of the division cases (a division by zero LB4OMP's published code does not guard).
TEST(Golden, FixedSizeChunkingGuards) {
  EXPECT_EQ(fsc_chunk(shape(1000, 1), 10, 5), 1000);  // P = 1: ln 1 = 0
  EXPECT_EQ(fsc_chunk(shape(1000, 4), 0, 5), 250);    // sigma = 0
  EXPECT_EQ(fsc_chunk(shape(1000, 4), 10, 0), 1);     // h = 0
  EXPECT_EQ(mfsc_chunk(shape(3, 4)), 1);              // N <= P: m = 1, ln 1 = 0
  EXPECT_EQ(mfsc_chunk(shape(0, 4)), 1);
}

// tap, N = 100, P = 4, mu = sigma = alpha = 1 (v = 1): ⌈T + 0.5 − sqrt(2T + 0.25)⌉, T = R/4:
//   R = 100: 25.5 − 7.0887 → 19;  81: 20.75 − 6.3836 → 15;  66: 17 − 5.7663 → 12;  54 → 9;
//   45 → 7;  38 → 6;  32 → 5;  27 → 4;  23 → 3;  20 → 3;  17 → 2;  15 → 2;  13 → 2;  then 1s.
TEST(Golden, Tapering) {
  Sizes expected{19, 15, 12, 9, 7, 6, 5, 4, 3, 3, 2, 2, 2};
  expected.insert(expected.end(), 11, 1);
  EXPECT_EQ(sizes_of(Tap(shape(100, 4), 1.0, 1.0, 1.0), 100), expected);
}

// pls, N = 100, P = 4, swr = 0.5: S = ⌈50/4⌉ = 13 for 4 chunks; rest (100 − 52)/4 = 12 per worker;
// chunk k >= 4: ⌈0.75^(k−4)·12⌉ = 12, 9, 7, 6, 4, 3, 3, 2, 2 (sum reaches 100 exactly).
TEST(Golden, PerformanceBasedLoopScheduling) {
  EXPECT_EQ(sizes_of(Pls(shape(100, 4), 0.5), 100), (Sizes{13, 13, 13, 13, 12, 9, 7, 6, 4, 3, 3, 2, 2}));
}

// fiss, N = 1000, P = 4, B = 3: X = 5, C0 = ⌊1000/20⌋ = 50, δ = ⌊4000/(5·4·3·2)⌋ = 33:
// batches of 50, 83, 116, then the 4 left.
TEST(Golden, FixedIncreaseSelfScheduling) {
  EXPECT_EQ(sizes_of(Fiss(shape(1000, 4), 0), 1000), (Sizes{50, 50, 50, 50, 83, 83, 83, 83, 116, 116, 116, 116, 4}));
  // B = 1 (P = 2 by default) would divide by zero: δ = 0, chunks of C0 = ⌊100/6⌋ = 16.
  EXPECT_EQ(sizes_of(Fiss(shape(100, 2), 0), 100), (Sizes{16, 16, 16, 16, 16, 16, 4}));
}

// viss, N = 1000, P = 4, V = 4: C0 = ⌊1000/16⌋ = 62; batches 62, 124 − 31 = 93, 124 − 16 = 108.
TEST(Golden, VariableIncreaseSelfScheduling) {
  EXPECT_EQ(sizes_of(Viss(shape(1000, 4), 0), 1000), (Sizes{62, 62, 62, 62, 93, 93, 93, 93, 108, 108, 108, 56}));
}

// tfss, N = 100, P = 4: TSS with F = 13, L = 1, A = ⌈200/14⌉ = 15, δ = 12/14:
// t = 13 12 11 10 | 10 9 8 7 | 6 5 4 4 | 3 2 1 1 → batch means ⌊46/4⌋ = 11, ⌊34/4⌋ = 8, ⌊19/4⌋ = 4, 1.
TEST(Golden, TrapezoidFactoringSelfScheduling) {
  Sizes expected{11, 11, 11, 11, 8, 8, 8, 8, 4, 4, 4, 4};
  expected.insert(expected.end(), 8, 1);
  EXPECT_EQ(sizes_of(Tfss(shape(100, 4)), 100), expected);
}

TEST(Golden, PlansAreRunsOfEqualChunks) {
  SequencePlan plan;
  const std::int64_t big = std::int64_t{1} << 40;
  plan_sequence(Ss(shape(big, 8)), big, plan);
  EXPECT_EQ(plan.runs.size(), 1u);
  EXPECT_EQ(plan.chunk_count(), big);
  plan_sequence(Gss(shape(1000000, 8)), 1000000, plan);
  EXPECT_LT(plan.runs.size(), 200u);  // ⌈R/8⌉ shrinks geometrically, then 1s
  // Batched techniques need one run per batch even at extreme sizes
  // (2^62 iterations, 65536 workers): a few dozen runs, not P per batch.
  const std::int64_t huge = std::int64_t{1} << 62;
  plan_sequence(Fac2(shape(huge, 65536)), huge, plan);
  EXPECT_LE(plan.runs.size(), 64u);
  EXPECT_EQ(plan.chunk(0), (IndexRange{0, huge / (2 * 65536)}));
  plan_sequence(Fac(shape(huge, 65536), 10.0, 5.0), huge, plan);
  EXPECT_LE(plan.runs.size(), 128u);
  plan_sequence(Fiss(shape(huge, 4096), 0), huge, plan);
  EXPECT_LE(plan.runs.size(), 4096u);
  std::int64_t covered = 0;
  for (const ChunkRun& r : plan.runs) covered += r.count * r.size;
  EXPECT_GE(covered, huge);  // the last chunk may be cut at N
}

}  // namespace
}  // namespace autosched
