// The adaptive formulas against values worked out by hand from the papers'
// formulas (LB4OMP's papers and published code), independently of the dispensers.
#include <autosched/techniques/adaptive_formulas.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace autosched {
namespace {

TEST(AdaptiveFormulas, AfWithoutSpreadSplitsTheRestByThroughput) {
  // μ = 1 on two workers, σ = 0: D = 0, T = 1/2, R = 100:
  // chunk = (0 + 2·½·100 − 0) / (2·1) = 50.
  AfTerms terms;
  terms.add(1.0, 0.0);
  terms.add(1.0, 0.0);
  EXPECT_DOUBLE_EQ(terms.d, 0.0);
  EXPECT_DOUBLE_EQ(terms.inverse_mu_sum, 2.0);
  EXPECT_EQ(af_chunk(terms, 1.0, 100), 50);
}

TEST(AdaptiveFormulas, AfWithSpread) {
  // μ = (2, 4), σ = (1, 2): D = 1/2 + 4/4 = 1.5, T = 1/(1/2 + 1/4) = 4/3,
  // R = 1000: D + 2TR = 2668.1667, sqrt(D² + 4DTR) = sqrt(8002.25) = 89.4553;
  // the slow worker (μ 4) gets ⌈2578.7114/8⌉ = ⌈322.34⌉, the fast one ⌈644.68⌉.
  AfTerms terms;
  terms.add(2.0, 1.0);
  terms.add(4.0, 2.0);
  EXPECT_DOUBLE_EQ(terms.d, 1.5);
  EXPECT_EQ(af_chunk(terms, 2.0, 1000), 645);
  EXPECT_EQ(af_chunk(terms, 4.0, 1000), 323);
  // At least one iteration, whatever is left.
  EXPECT_EQ(af_chunk(terms, 4.0, 1), 1);
}

TEST(AdaptiveFormulas, AfSubChunks) {
  EXPECT_EQ(af_sub_chunk(100, 10, 1), 10);  // the first chunk: 100 / divider 10
  EXPECT_EQ(af_sub_chunk(105, 10, 1), 10);
  EXPECT_EQ(af_sub_chunk(7, 10, 1), 7);      // below the divider: one sub-chunk
  EXPECT_EQ(af_sub_chunk(100, 10, 16), 16);  // the minimum chunk c wins
}

TEST(AdaptiveFormulas, AwfChunkHistoryWeighsRecentChunksMore) {
  // Chunks (t, s) = (100 ns, 10), (300 ns, 10): π = (1·100 + 2·300)/(1·10 + 2·10) = 700/30.
  AwfChunkHistory h;
  EXPECT_DOUBLE_EQ(h.add(100, 10), 10.0);
  EXPECT_DOUBLE_EQ(h.add(300, 10), 700.0 / 30.0);
  EXPECT_DOUBLE_EQ(h.chunks, 2.0);
  AwfChunkHistory zero;
  EXPECT_DOUBLE_EQ(zero.add(0, 4), 0.25);  // a 0 ns chunk counts as 1 ns
}

TEST(AdaptiveFormulas, AwfWeightsAreRelativeThroughput) {
  // π = 70/3 and 10: Σ 1/π = 3/70 + 1/10 = 1/7; w = 2/(70/3 · 1/7) = 0.6 and
  // 2/(10 · 1/7) = 1.4; they sum to |S| = 2.
  const double inverse_sum = 3.0 / 70.0 + 0.1;
  EXPECT_NEAR(awf_weight(70.0 / 3.0, inverse_sum, 2), 0.6, 1e-12);
  EXPECT_NEAR(awf_weight(10.0, inverse_sum, 2), 1.4, 1e-12);
  // Only the caller published: weight 1.
  EXPECT_DOUBLE_EQ(awf_weight(5.0, 0.2, 1), 1.0);
}

TEST(AdaptiveFormulas, AwfChunks) {
  EXPECT_EQ(awf_per_request_base(101, 4), 13);  // ⌈101/8⌉
  EXPECT_EQ(awf_per_request_base(8, 4), 1);
  EXPECT_EQ(weighted_chunk(0.6, 13, 1), 8);  // ⌈7.8⌉
  EXPECT_EQ(weighted_chunk(0.1, 13, 4), 4);  // ⌈1.3⌉ = 2, then c = 4
  EXPECT_EQ(weighted_chunk(2.0, 13, 1), 26);
}

TEST(AdaptiveFormulas, TimeSteppingAwfReweights) {
  // Throughputs SW/SE = 0.1 and 0.3: w = 2 · (0.1, 0.3)/0.4 = (0.5, 1.5).
  std::vector<double> work = {100, 300}, time = {1000, 1000}, weights = {1, 1};
  awf_reweight(work, time, weights);
  EXPECT_DOUBLE_EQ(weights[0], 0.5);
  EXPECT_DOUBLE_EQ(weights[1], 1.5);
  // A third worker that never ran keeps its weight 1; the two share 3 − 1.
  work = {100, 300, 0};
  time = {1000, 1000, 0};
  weights = {1, 1, 1};
  awf_reweight(work, time, weights);
  EXPECT_DOUBLE_EQ(weights[0], 0.5);
  EXPECT_DOUBLE_EQ(weights[1], 1.5);
  EXPECT_DOUBLE_EQ(weights[2], 1.0);
  // Nobody ran: nothing changes.
  work = {0, 0};
  time = {0, 0};
  weights = {0.7, 1.3};
  awf_reweight(work, time, weights);
  EXPECT_DOUBLE_EQ(weights[0], 0.7);
}

TEST(AdaptiveFormulas, BoldConstants) {
  // μ = 100, σ = 50, h = 10: a = 2·0.25 = 0.5, b = 4 ln 4 = 5.545177,
  // c1 = 10/(100 ln 2) = 0.144270, c2 = sqrt(2π)·c1 = 0.361630, c3 = ln c2 = −1.017134.
  const BoldConstants k = bold_constants(100, 50, 10);
  EXPECT_DOUBLE_EQ(k.a, 0.5);
  EXPECT_NEAR(k.b, 5.545177, 1e-6);
  EXPECT_NEAR(k.ln_b, 1.712929, 1e-6);
  EXPECT_NEAR(k.c1, 0.144270, 1e-6);
  EXPECT_NEAR(k.c2, 0.361630, 1e-6);
  EXPECT_NEAR(k.c3, -1.017134, 1e-6);
  // σ = 0: a = b = 0; h = 0 is kept above 0 so c3 stays finite.
  const BoldConstants flat = bold_constants(100, 0, 0);
  EXPECT_DOUBLE_EQ(flat.a, 0.0);
  EXPECT_DOUBLE_EQ(flat.b, 0.0);
  EXPECT_GT(flat.h, 0.0);
  EXPECT_TRUE(std::isfinite(flat.c3));
}

TEST(AdaptiveFormulas, BoldChunk) {
  const BoldConstants k = bold_constants(100, 50, 10);
  // R = 1000, P = 4, Nn = M = 1000: q = t̂ = 250, v = 250/255.545 = 0.97830,
  // d = 1000/(1 + 1/ln 250 − v) = 4930.70 > c2, s = ½(ln d − c3)(1 + ¼) = 5.95023,
  // w = ln(v ln q) + ln b = 3.39963; t̂ + s/2 − sqrt(s(t̂ + s/4)) + c1·w = 214.78.
  EXPECT_EQ(bold_chunk(k, 1000, 4, 1000, 1000), 214);
  // More work estimated than unclaimed (Nn = 2000), M = 600: t̂ = 500,
  // s = ½(ln d − c3)(1 + 600/8000) = 5.11720, chunk 452.40.
  EXPECT_EQ(bold_chunk(k, 1000, 4, 2000, 600), 452);
  // Negative estimates count as 0: r = R.
  EXPECT_EQ(bold_chunk(k, 1000, 4, -5, -5), bold_chunk(k, 1000, 4, 0, 0));
  // q = R/P <= 1: one iteration.
  EXPECT_EQ(bold_chunk(k, 3, 4, 3, 3), 1);
  // σ = 0: s = 0 and the chunk is t̂ = R/P.
  EXPECT_EQ(bold_chunk(bold_constants(100, 0, 10), 1000, 4, 1000, 1000), 250);
}

TEST(AdaptiveFormulas, BoldWorkAndSpeed) {
  const BoldConstants k = bold_constants(100, 50, 10);
  EXPECT_DOUBLE_EQ(bold_speed(k, 10), 10.0 / 1010.0);
  // 100 ns · 0.02 + 10 − 500 ns · 10/(10·100 + 10) = 12 − 4.950495.
  EXPECT_NEAR(bold_work_done(k, 100, 0.02, 10, 500), 12.0 - 5000.0 / 1010.0, 1e-12);
}

}  // namespace
}  // namespace autosched
