#pragma once
// What the GPU region examples share: a device check that lets them exit
// cleanly where there is no GPU, an error check for CUDA calls, a warm-up
// so that context creation and PTX compilation never land in a measurement,
// and the element-wise workload (with its buffers and result check) that the
// offload and co-scheduling examples split between CPU and GPU.
#include <cuda_runtime.h>

#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdlib>

/// Exits 1 naming the call when a CUDA call fails.
#define EXAMPLE_CUDA_CHECK(call)                                                                                   \
  do {                                                                                                             \
    const cudaError_t example_cuda_error_ = (call);                                                                \
    if (example_cuda_error_ != cudaSuccess) {                                                                      \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(example_cuda_error_)); \
      std::exit(1);                                                                                                \
    }                                                                                                              \
  } while (false)

namespace examples {

/// True when a CUDA device can be used; otherwise says why on stdout.
inline bool cuda_device_present(const char* program) {
  int devices = 0;
  const cudaError_t error = cudaGetDeviceCount(&devices);
  if (error != cudaSuccess || devices == 0) {
    std::printf("%s: no CUDA device; skipping (%s)\n", program,
                error != cudaSuccess ? cudaGetErrorString(error) : "cudaGetDeviceCount found 0 devices");
    return false;
  }
  cudaDeviceProp properties{};
  EXAMPLE_CUDA_CHECK(cudaGetDeviceProperties(&properties, 0));
  std::printf("%s: device 0 is %s (%d SMs)\n", program, properties.name, properties.multiProcessorCount);
  EXAMPLE_CUDA_CHECK(cudaFree(nullptr));  // creates the context now, not in the first measured execution
  return true;
}

/// The per-element work: a short damped iteration, a few dozen flops.
__host__ __device__ inline float work(float x) {
  float v = x;
  for (int k = 0; k < 32; ++k) v = 0.97f * v + 0.03f * x * x;
  return v;
}

__global__ inline void work_kernel(const float* x, float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = work(x[i]);
}

/// x and y pinned on the host (asynchronous, full-speed copies that overlap
/// the CPU's work), dx and dy on the device, one stream; x holds the inputs.
struct Buffers {
  explicit Buffers(int n) : bytes(static_cast<std::size_t>(n) * sizeof(float)) {
    EXAMPLE_CUDA_CHECK(cudaMallocHost(&x, bytes));
    EXAMPLE_CUDA_CHECK(cudaMallocHost(&y, bytes));
    EXAMPLE_CUDA_CHECK(cudaMalloc(&dx, bytes));
    EXAMPLE_CUDA_CHECK(cudaMalloc(&dy, bytes));
    EXAMPLE_CUDA_CHECK(cudaStreamCreate(&stream));
    for (int i = 0; i < n; ++i) x[i] = static_cast<float>(i % 1000) / 1000.0f;
  }
  ~Buffers() {
    cudaStreamDestroy(stream);
    cudaFree(dy);
    cudaFree(dx);
    cudaFreeHost(y);
    cudaFreeHost(x);
  }
  Buffers(const Buffers&) = delete;
  Buffers& operator=(const Buffers&) = delete;

  std::size_t bytes;
  float *x = nullptr, *y = nullptr, *dx = nullptr, *dy = nullptr;
  cudaStream_t stream{};
};

/// True when y = work(x) on a sample of [0, n); otherwise says where it is not.
inline bool results_correct(const Buffers& b, int n, int step) {
  for (int i = 0; i < n; i += 997) {
    if (std::fabs(b.y[i] - work(b.x[i])) > 1e-4f * (1.0f + std::fabs(b.y[i]))) {
      std::fprintf(stderr, "step %d: n=%d: y[%d] = %g, expected %g\n", step, n, i, b.y[i], work(b.x[i]));
      return false;
    }
  }
  return true;
}

}  // namespace examples
