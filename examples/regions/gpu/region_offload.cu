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

void run_on_cpu(examples::Buffers& b, int n) {
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; ++i) b.y[i] = examples::work(b.x[i]);
}

void run_on_gpu(examples::Buffers& b, int n) {
  const auto bytes = static_cast<std::size_t>(n) * sizeof(float);
  EXAMPLE_CUDA_CHECK(cudaMemcpyAsync(b.dx, b.x, bytes, cudaMemcpyHostToDevice, b.stream));
  examples::work_kernel<<<(n + 255) / 256, 256, 0, b.stream>>>(b.dx, b.dy, n);
  EXAMPLE_CUDA_CHECK(cudaGetLastError());
  EXAMPLE_CUDA_CHECK(cudaMemcpyAsync(b.y, b.dy, bytes, cudaMemcpyDeviceToHost, b.stream));
  EXAMPLE_CUDA_CHECK(cudaStreamSynchronize(b.stream));  // the measurement covers the kernel, not just its launch
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

  examples::Buffers buffers(static_cast<int>(sizes.back()));
  run_on_gpu(buffers, static_cast<int>(sizes.back()));  // warm-up: the kernel's first launch loads it
  run_on_cpu(buffers, static_cast<int>(sizes.back()));  // and the OpenMP team starts

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
        run_on_cpu(buffers, n);
      } else {
        run_on_gpu(buffers, n);
      }
    }
    log.executed(region, explored);
    if (!run.quiet && (explored || step < static_cast<int>(sizes.size())))
      std::printf("step %d: n=%d %s (%s)\n", step, n, device == 0 ? "cpu" : "gpu", explored ? "explore" : "exploit");
    if (!examples::results_correct(buffers, n, step)) return 1;
  }
  log.report(region, "n", sizes, min_train);

  return 0;
}
