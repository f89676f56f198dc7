// GPU threads per block: a tunable region whose variant is the block size of
// a kernel launch, from Knob::range("threads_per_block", 64, 1024, 64), the
// second use case of the adaptive-OpenMP paper (there, `thread_limit` of a
// `target teams` construct). Each execution advances a 1-D heat equation by
// a few explicit steps on the device. Few, large blocks leave SMs idle on
// small grids; small blocks cost more scheduling on large ones; where the
// balance lies depends on the GPU, which is why it is learned.
//   region_gpu_threads [--steps N] [--quiet]
#include "cuda_support.hpp"
#include "run_report.hpp"

#include <autosched/regions/region.hpp>

#include <array>
#include <cmath>
#include <cstdio>
#include <utility>
#include <vector>

namespace {

__global__ void heat_step(const float* u, float* v, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i == 0 || i == n - 1) {
    v[i] = u[i];
  } else if (i < n) {
    v[i] = u[i] + 0.25f * (u[i - 1] - 2.0f * u[i] + u[i + 1]);
  }
}

}  // namespace

int main(int argc, char** argv) {
  const examples::RunOptions run = examples::parse_run_options(argc, argv, 300);
  if (!examples::cuda_device_present("region_gpu_threads")) return 0;

  const std::array<double, 3> sizes{1 << 14, 1 << 18, 1 << 24};
  const auto block_sizes =
      autosched::Knob::range("threads_per_block", std::int64_t{64}, std::int64_t{1024}, std::int64_t{64});
  const int min_train = static_cast<int>(sizes.size()) * block_sizes.size();
  const int time_steps = 20;  // kernel launches per execution
  // explore_after=0: once trained, the region sticks to its model.
  autosched::Region region("examples/region_gpu_threads", {.features = {autosched::Feature::log2("n")},
                                                           .knobs = {block_sizes},
                                                           .model = "dtree,depth=3,explore_after=0",
                                                           .min_train = min_train});

  const int largest = static_cast<int>(sizes.back());
  const auto bytes = static_cast<std::size_t>(largest) * sizeof(float);
  std::vector<float> host(static_cast<std::size_t>(largest));
  for (std::size_t i = 0; i < host.size(); ++i) host[i] = (i % 128 < 64) ? 1.0f : 0.0f;
  float *u = nullptr, *v = nullptr;
  EXAMPLE_CUDA_CHECK(cudaMalloc(&u, bytes));
  EXAMPLE_CUDA_CHECK(cudaMalloc(&v, bytes));
  EXAMPLE_CUDA_CHECK(cudaMemcpy(u, host.data(), bytes, cudaMemcpyHostToDevice));
  heat_step<<<(largest + 255) / 256, 256>>>(u, v, largest);  // warm-up: loads the kernel
  EXAMPLE_CUDA_CHECK(cudaGetLastError());
  EXAMPLE_CUDA_CHECK(cudaDeviceSynchronize());

  examples::RunLog log;
  for (int step = 0; step < run.steps; ++step) {
    const double size = sizes[static_cast<std::size_t>(step) % sizes.size()];
    const int n = static_cast<int>(size);
    bool explored = false;
    int threads = 0;
    {
      auto scope = region.begin({size});
      explored = scope.exploring();
      threads = scope.value<int>("threads_per_block");
      for (int t = 0; t < time_steps; ++t) {
        heat_step<<<(n + threads - 1) / threads, threads>>>(u, v, n);
        std::swap(u, v);
      }
      EXAMPLE_CUDA_CHECK(cudaGetLastError());
      EXAMPLE_CUDA_CHECK(cudaDeviceSynchronize());  // measure the kernels, not their launches
    }
    log.executed(region, explored);
    if (!run.quiet && (explored || step < static_cast<int>(sizes.size())))
      std::printf("step %d: n=%d threads_per_block=%d (%s)\n", step, n, threads, explored ? "explore" : "exploit");
  }
  log.report(region, "n", sizes, min_train);

  EXAMPLE_CUDA_CHECK(cudaMemcpy(host.data(), u, bytes, cudaMemcpyDeviceToHost));
  EXAMPLE_CUDA_CHECK(cudaFree(v));
  EXAMPLE_CUDA_CHECK(cudaFree(u));
  for (const float h : host)
    if (!std::isfinite(h) || h < -1e-6f || h > 1.0f + 1e-6f) return 1;  // diffusion keeps a 0/1 field in [0, 1]
  return 0;
}
