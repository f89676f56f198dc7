#pragma once
// What the GPU region examples share: a device check that lets them exit
// cleanly where there is no GPU, an error check for CUDA calls, and a warm-up
// so that context creation and PTX compilation never land in a measurement.
#include <cuda_runtime.h>

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

}  // namespace examples
