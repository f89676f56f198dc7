// CPU-GPU co-scheduling: a tunable region whose variant is the fraction f of
// a loop's iterations given to the GPU, from Knob::range("gpu_fraction", 0.0,
// 1.0, 0.1), the third use case of the adaptive-OpenMP paper. The first f·n
// iterations go to the GPU asynchronously (copy in, kernel, copy out on a
// stream) while the CPU's OpenMP threads run the rest; then both join. The
// best f balances the two and moves with n, as the GPU's fixed costs fade.
//   region_coschedule [--steps N] [--quiet]
#include "cuda_support.hpp"
#include "run_report.hpp"

#include <autosched/regions/region.hpp>

#include <array>
#include <cmath>
#include <cstdio>

int main(int argc, char** argv) {
  const examples::RunOptions run = examples::parse_run_options(argc, argv, 200);
  if (!examples::cuda_device_present("region_coschedule")) return 0;

  const std::array<double, 3> sizes{1 << 12, 1 << 18, 1 << 23};
  const auto fractions = autosched::Knob::range("gpu_fraction", 0.0, 1.0, 0.1);
  const int min_train = static_cast<int>(sizes.size()) * fractions.size();
  // explore_after=0: once trained, the region sticks to its model.
  autosched::Region region("examples/region_coschedule", {.features = {autosched::Feature::log2("n")},
                                                          .knobs = {fractions},
                                                          .model = "dtree,depth=3,explore_after=0",
                                                          .min_train = min_train});

  const int largest = static_cast<int>(sizes.back());
  examples::Buffers b(largest);
  EXAMPLE_CUDA_CHECK(cudaMemcpy(b.dx, b.x, b.bytes, cudaMemcpyHostToDevice));
  examples::work_kernel<<<(largest + 255) / 256, 256, 0, b.stream>>>(b.dx, b.dy, largest);  // warm-up: loads the kernel
  EXAMPLE_CUDA_CHECK(cudaStreamSynchronize(b.stream));
#pragma omp parallel for schedule(static)
  for (int i = 0; i < largest; ++i) b.y[i] = examples::work(b.x[i]);  // and starts the OpenMP team

  examples::RunLog log;
  for (int step = 0; step < run.steps; ++step) {
    const double size = sizes[static_cast<std::size_t>(step) % sizes.size()];
    const int n = static_cast<int>(size);
    bool explored = false;
    double fraction = 0;
    {
      auto scope = region.begin({size});
      explored = scope.exploring();
      fraction = scope.value<double>("gpu_fraction");
      const int on_gpu = static_cast<int>(std::lround(fraction * n));
      if (on_gpu > 0) {  // the GPU's share, asynchronously
        const auto share = static_cast<std::size_t>(on_gpu) * sizeof(float);
        EXAMPLE_CUDA_CHECK(cudaMemcpyAsync(b.dx, b.x, share, cudaMemcpyHostToDevice, b.stream));
        examples::work_kernel<<<(on_gpu + 255) / 256, 256, 0, b.stream>>>(b.dx, b.dy, on_gpu);
        EXAMPLE_CUDA_CHECK(cudaGetLastError());
        EXAMPLE_CUDA_CHECK(cudaMemcpyAsync(b.y, b.dy, share, cudaMemcpyDeviceToHost, b.stream));
      }
#pragma omp parallel for schedule(static)
      for (int i = on_gpu; i < n; ++i) b.y[i] = examples::work(b.x[i]);  // the CPU's share meanwhile
      EXAMPLE_CUDA_CHECK(cudaStreamSynchronize(b.stream));               // join
    }
    log.executed(region, explored);
    if (!run.quiet && (explored || step < static_cast<int>(sizes.size())))
      std::printf("step %d: n=%d gpu_fraction=%.1f (%s)\n", step, n, fraction, explored ? "explore" : "exploit");
    if (!examples::results_correct(b, n, step)) return 1;
  }
  log.report(region, "n", sizes, min_train);

  return 0;
}
