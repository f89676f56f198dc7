// autosched-pattern-particle-filter: a video-tracking particle filter, as a
// plain OpenMP program (schedule(runtime) loops, no autosched header or
// library).
//
// What it models: the sampling-importance-resampling filter of tracking
// codes, following a bright disk through noisy synthetic frames. Each frame
// runs 10 parallel loops of very different shapes: rendering the frame,
// moving the particles, their likelihood (a gather of template pixels around
// each particle), a max reduction, the weights, a blocked prefix sum (two
// parallel passes around a serial scan of the block sums), normalisation,
// the estimate's reductions and systematic resampling.
// Resampling finds each particle's ancestor by a linear search of the
// cumulative weights from the start, as the simple codes do, so iteration i
// costs about i: a static schedule gives one thread three quarters of the
// work, and the loop dominates the frame.
//
// Defaults: --particles 16384, --frames 10, 512 x 512 frames: 0.55 s of CPU
// time on one thread of the 2-core AMD EPYC VM this was written on, so about
// 0.4 s at 2 threads under static (whose second thread gets three quarters of
// the resampling), most of it in the resampling loop.
//
// Check: every random number is a hash of (frame, particle), the prefix sum
// is blocked by a fixed block size and the only reductions that feed the
// state are max reductions (exact), so the particle cloud is the same under
// every schedule. After each frame the program verifies, serially, that the
// cumulative weights rise to 1, that every resampled particle took the
// ancestor the systematic rule names, and, from the third frame on, that the
// estimate lies within 3 pixels of the disk's true centre.
//
// Output: `pattern particle-filter loop_ms <ms inside the timed loops>
// wall_ms <ms of the compute phase: setup and all frames, without the serial
// checks> check ok`.
//
// Note: no loop here both stores into an array and accumulates a
// reduction; where the algorithm wants both, it is two loops, the stores and
// then a pure reduction. clang 14 miscompiles the fused form of a
// schedule(runtime), dynamic or guided loop: the per-chunk loop is marked
// free of loop-carried memory dependences, the reduction's private copy
// stays in memory (the stores might alias it), and the vectorised loop
// keeps one lane's partial sum of two, so the sum comes out about halved
// (OMP_SCHEDULE=dynamic,1 hides it: its chunks are too short for the vector
// path). This suite's checks caught it; g++ is not affected.
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "pattern_common.hpp"

namespace {

using pattern::mix;
using pattern::Timed;

struct Options {
  int particles = 16384;
  int frames = 10;
  int image = 512;
};

Options parse(int argc, char** argv) {
  Options o;
  const auto option = [&](const std::string& a, auto number) {
    if (a == "--particles" || a == "--size")
      o.particles = number(64, 1 << 24);
    else if (a == "--frames" || a == "--steps")
      o.frames = number(1, 100000);
    else if (a == "--image")
      o.image = number(128, 16384);
    else
      return false;
    return true;
  };
  pattern::parse_arguments(argc, argv, "[--particles N] [--frames F] [--image W]",
                           "  --particles N  particles (default 16384; resampling costs ~N^2/2)\n"
                           "  --frames F     frames (default 10)\n"
                           "  --image W      W x W pixels a frame (default 512)\n",
                           option);
  return o;
}

// Counter-based random numbers: a value depends only on its key, never on
// which thread draws it or in what order.
double uniform(std::uint64_t stream, std::uint64_t frame, std::uint64_t i) {
  return (static_cast<double>(mix(mix(stream * 0x100000001b3ULL ^ frame) ^ i) >> 11) + 0.5) * 0x1.0p-53;
}
double normal(std::uint64_t stream, std::uint64_t frame, std::uint64_t i) {
  const double a = uniform(stream, frame, 2 * i), b = uniform(stream, frame, 2 * i + 1);
  return std::sqrt(-2.0 * std::log(a)) * std::cos(6.283185307179586 * b);
}

constexpr double kRadius = 8.0;   // the disk, in pixels
constexpr double kNoise = 0.6;    // pixel noise (standard deviation)
constexpr double kMotion = 3.0;   // the motion model's spread, pixels per frame
constexpr int kScanBlock = 1024;  // the prefix sum's block (fixed: the result must not depend on threads)

struct Truth {
  double x, y;
};
Truth truth(int frame, int width) {
  const double t = frame;
  return {0.25 * width + 3.0 * t + 10.0 * std::sin(0.3 * t), 0.3 * width + 2.0 * t + 10.0 * std::cos(0.3 * t)};
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse(argc, argv);
  const int N = o.particles, W = o.image;
  const double wall_start = omp_get_wtime();
  double loop_s = 0.0, check_s = 0.0;

  // The template: the disk's pixel offsets.
  std::vector<int> tdx, tdy;
  const int r = static_cast<int>(kRadius);
  for (int dy = -r; dy <= r; ++dy) {
    for (int dx = -r; dx <= r; ++dx) {
      if (dx * dx + dy * dy <= kRadius * kRadius) {
        tdx.push_back(dx);
        tdy.push_back(dy);
      }
    }
  }
  const int K = static_cast<int>(tdx.size());
  std::vector<float> image(static_cast<std::size_t>(W) * W);
  std::vector<double> px(N), py(N), nx(N), ny(N), ll(N), w(N), cdf(N);
  std::vector<int> ancestor(N);
  const int blocks = (N + kScanBlock - 1) / kScanBlock;
  std::vector<double> block_sum(blocks), block_offset(blocks);
  const Truth start = truth(0, W);
  for (int i = 0; i < N; ++i) {
    px[i] = start.x + 5.0 * normal(1, 0, i);
    py[i] = start.y + 5.0 * normal(2, 0, i);
  }
  float* img = image.data();
  const int* ox = tdx.data();
  const int* oy = tdy.data();
  double* X = px.data();
  double* Y = py.data();
  double* NXp = nx.data();
  double* NYp = ny.data();
  double* L = ll.data();
  double* Wt = w.data();
  double* C = cdf.data();
  int* A = ancestor.data();
  double* BS = block_sum.data();
  double* BO = block_offset.data();

  double worst_error = 0.0;
  const char* failure = nullptr;
  for (int f = 1; f <= o.frames && failure == nullptr; ++f) {
    const Truth at = truth(f, W);
    {
      Timed t(loop_s);  // 1. the observed frame: the disk plus noise
#pragma omp parallel for schedule(runtime)
      for (int row = 0; row < W; ++row) {
        for (int col = 0; col < W; ++col) {
          const double dx = col - at.x, dy = row - at.y;
          const double signal = dx * dx + dy * dy <= kRadius * kRadius ? 1.0 : 0.0;
          const std::uint64_t pixel = static_cast<std::uint64_t>(row) * W + col;
          img[pixel] = static_cast<float>(signal + kNoise * (uniform(3, f, pixel) - 0.5) * 3.4641016);
        }
      }
    }
    {
      Timed t(loop_s);  // 2. motion model: drift plus noise
#pragma omp parallel for schedule(runtime)
      for (int i = 0; i < N; ++i) {
        X[i] += 3.0 + kMotion * normal(4, f, i);
        Y[i] += 2.0 + kMotion * normal(5, f, i);
      }
    }
    {
      Timed t(loop_s);  // 3. log-likelihood: the template's pixels around each particle
      const double scale = 1.0 / (2.0 * kNoise * kNoise);
#pragma omp parallel for schedule(runtime)
      for (int i = 0; i < N; ++i) {
        const int cx = static_cast<int>(std::lround(X[i])), cy = static_cast<int>(std::lround(Y[i]));
        double sum = 0.0;
        for (int k = 0; k < K; ++k) {
          const int col = std::clamp(cx + ox[k], 0, W - 1), row = std::clamp(cy + oy[k], 0, W - 1);
          const double v = img[static_cast<std::size_t>(row) * W + col];
          sum += (2.0 * v - 1.0) * scale;  // log N(v; 1, s) - log N(v; 0, s)
        }
        L[i] = sum;
      }
    }
    double best = -1e300;
    {
      Timed t(loop_s);  // 4. the largest log-likelihood (exact: max does not round)
#pragma omp parallel for schedule(runtime) reduction(max : best)
      for (int i = 0; i < N; ++i) best = std::max(best, L[i]);
    }
    {
      Timed t(loop_s);  // 5. weights, relative to the best particle
#pragma omp parallel for schedule(runtime)
      for (int i = 0; i < N; ++i) Wt[i] = std::exp(L[i] - best);  // resampling left them all equal
    }
    {
      Timed t(loop_s);  // 6. prefix sum, first pass: each block's own prefix and total
#pragma omp parallel for schedule(runtime)
      for (int b = 0; b < blocks; ++b) {
        double s = 0.0;
        for (int i = b * kScanBlock; i < std::min(N, (b + 1) * kScanBlock); ++i) {
          s += Wt[i];
          C[i] = s;
        }
        BS[b] = s;
      }
    }
    double total = 0.0;
    for (int b = 0; b < blocks; ++b) {  // the block totals, serially
      BO[b] = total;
      total += BS[b];
    }
    {
      Timed t(loop_s);  // 7. prefix sum, second pass: add the blocks before
#pragma omp parallel for schedule(runtime)
      for (int b = 0; b < blocks; ++b) {
        for (int i = b * kScanBlock; i < std::min(N, (b + 1) * kScanBlock); ++i) C[i] += BO[b];
      }
    }
    {
      Timed t(loop_s);  // 8. normalise
      const double inv = 1.0 / total;
#pragma omp parallel for schedule(runtime)
      for (int i = 0; i < N; ++i) {
        Wt[i] *= inv;
        C[i] *= inv;
      }
    }
    double ex = 0.0, ey = 0.0, sum_w2 = 0.0;
    {
      Timed t(loop_s);  // 9. the estimate and the effective sample size (a separate loop: see the note at the top)
#pragma omp parallel for schedule(runtime) reduction(+ : ex, ey, sum_w2)
      for (int i = 0; i < N; ++i) {
        ex += Wt[i] * X[i];
        ey += Wt[i] * Y[i];
        sum_w2 += Wt[i] * Wt[i];
      }
    }
    const double u0 = uniform(6, f, 0) / N;
    {
      Timed t(loop_s);  // 10. systematic resampling: a linear search from the start, so cost grows with i
#pragma omp parallel for schedule(runtime)
      for (int i = 0; i < N; ++i) {
        const double u = u0 + static_cast<double>(i) / N;
        int j = 0;
        while (j < N - 1 && C[j] < u) ++j;
        A[i] = j;
        NXp[i] = X[j];
        NYp[i] = Y[j];
      }
    }
    std::swap(X, NXp);  // the new generation; the old one's arrays take the next
    std::swap(Y, NYp);

    const double check_start = omp_get_wtime();
    if (!(std::fabs(C[N - 1] - 1.0) < 1e-12)) failure = "the cumulative weights do not end at 1";
    for (int i = 1; i < N && failure == nullptr; ++i) {
      if (C[i] < C[i - 1]) failure = "the cumulative weights decrease";
    }
    for (int i = 0; i < N && failure == nullptr; ++i) {
      const double u = u0 + static_cast<double>(i) / N;
      const int j = A[i];
      const bool named = j >= 0 && j < N && (j == 0 || C[j - 1] < u) && (C[j] >= u || j == N - 1);
      if (!named) failure = "a particle was resampled from the wrong ancestor";
    }
    const double error = std::hypot(ex - at.x, ey - at.y);
    if (f >= 3) worst_error = std::max(worst_error, error);
    if (failure == nullptr && f >= 3 && !(error < 3.0)) failure = "the estimate lost the disk (more than 3 pixels off)";
    if (failure == nullptr && !(sum_w2 > 0.0 && sum_w2 <= 1.0 + 1e-12)) failure = "the weights do not sum to 1";
    check_s += omp_get_wtime() - check_start;
  }
  const double wall_ms = 1e3 * (omp_get_wtime() - wall_start - check_s);
  if (failure != nullptr) pattern::check_failed("particle-filter", "%s", failure);
  return pattern::report("particle-filter", 1e3 * loop_s, wall_ms, failure == nullptr);
}
