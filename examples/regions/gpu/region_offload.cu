// CPU or GPU: a tunable region whose variants are the host (an OpenMP
// parallel loop) and the device (copy in, kernel, copy out), the first use
// case of the adaptive-OpenMP paper. Small inputs stay on the CPU, where the
// transfers and the launch would cost more than the work; large inputs go to
// the GPU. The region learns the crossing per input size.
//   region_offload [--steps N] [--quiet]
#include "cuda_support.hpp"
#include "run_report.hpp"

#include <autosched/regions/region.hpp>

#include <array>
#include <cmath>
#include <cstdio>
#include <vector>

namespace {

/// The per-element work: a short damped iteration, a few dozen flops.
__host__ __device__ inline float work(float x) {
  float v = x;
  for (int k = 0; k < 32; ++k) v = 0.97f * v + 0.03f * x * x;
  return v;
}

__global__ void work_kernel(const float* x, float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = work(x[i]);
}

void run_on_cpu(const float* x, float* y, int n) {
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; ++i) y[i] = work(x[i]);
}

void run_on_gpu(const float* x, float* y, float* dx, float* dy, int n, cudaStream_t stream) {
  const auto bytes = static_cast<std::size_t>(n) * sizeof(float);
  EXAMPLE_CUDA_CHECK(cudaMemcpyAsync(dx, x, bytes, cudaMemcpyHostToDevice, stream));
  work_kernel<<<(n + 255) / 256, 256, 0, stream>>>(dx, dy, n);
  EXAMPLE_CUDA_CHECK(cudaGetLastError());
  EXAMPLE_CUDA_CHECK(cudaMemcpyAsync(y, dy, bytes, cudaMemcpyDeviceToHost, stream));
  EXAMPLE_CUDA_CHECK(cudaStreamSynchronize(stream));  // the measurement covers the kernel, not just its launch
}

}  // namespace

int main(int argc, char** argv) {
  const examples::RunOptions run = examples::parse_run_options(argc, argv, 200);
  if (!examples::cuda_device_present("region_offload")) return 0;

  const std::array<double, 4> sizes{1 << 10, 1 << 14, 1 << 18, 1 << 22};
  const int min_train = static_cast<int>(sizes.size()) * 2;
  // explore_after=0: once trained, the region sticks to its model.
  autosched::Region region("examples/region_offload", {.features = {autosched::Feature::log2("n")},
                                                       .variants = {"cpu", "gpu"},
                                                       .model = "dtree,depth=3,explore_after=0",
                                                       .min_train = min_train});

  const int largest = static_cast<int>(sizes.back());
  const auto bytes = static_cast<std::size_t>(largest) * sizeof(float);
  float *x = nullptr, *y = nullptr, *dx = nullptr, *dy = nullptr;
  EXAMPLE_CUDA_CHECK(cudaMallocHost(&x, bytes));  // pinned: asynchronous, full-speed copies
  EXAMPLE_CUDA_CHECK(cudaMallocHost(&y, bytes));
  EXAMPLE_CUDA_CHECK(cudaMalloc(&dx, bytes));
  EXAMPLE_CUDA_CHECK(cudaMalloc(&dy, bytes));
  cudaStream_t stream{};
  EXAMPLE_CUDA_CHECK(cudaStreamCreate(&stream));
  for (int i = 0; i < largest; ++i) x[i] = static_cast<float>(i % 1000) / 1000.0f;
  run_on_gpu(x, y, dx, dy, largest, stream);  // warm-up: the kernel's first launch loads it
  run_on_cpu(x, y, largest);                  // and the OpenMP team starts

  examples::RunLog log;
  for (int step = 0; step < run.steps; ++step) {
    const double size = sizes[static_cast<std::size_t>(step) % sizes.size()];
    const int n = static_cast<int>(size);
    bool explored = false;
    int device = 0;
    {
      auto scope = region.begin({size});
      explored = scope.exploring();
      device = scope.variant();
      if (device == 0) {
        run_on_cpu(x, y, n);
      } else {
        run_on_gpu(x, y, dx, dy, n, stream);
      }
    }
    log.executed(region, explored);
    if (!run.quiet && (explored || step < static_cast<int>(sizes.size())))
      std::printf("step %d: n=%d %s (%s)\n", step, n, device == 0 ? "cpu" : "gpu", explored ? "explore" : "exploit");
    for (int i = 0; i < n; i += 997) {
      if (std::fabs(y[i] - work(x[i])) > 1e-4f * (1.0f + std::fabs(y[i]))) {
        std::fprintf(stderr, "step %d: n=%d: y[%d] = %g, expected %g\n", step, n, i, y[i], work(x[i]));
        return 1;
      }
    }
  }
  log.report(region, "n", sizes, min_train);

  EXAMPLE_CUDA_CHECK(cudaStreamDestroy(stream));
  EXAMPLE_CUDA_CHECK(cudaFree(dy));
  EXAMPLE_CUDA_CHECK(cudaFree(dx));
  EXAMPLE_CUDA_CHECK(cudaFreeHost(y));
  EXAMPLE_CUDA_CHECK(cudaFreeHost(x));
  return 0;
}
