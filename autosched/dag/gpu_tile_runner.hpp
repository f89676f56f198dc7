#pragma once
// A GPU worker's device side: the tile kernels of tiled Cholesky and LU on
// one GPU with cuBLAS and cuSOLVER. Each task copies its tiles to the
// device, runs its kernel on the worker's own stream and copies the tile it
// wrote back, so the host matrix stays the one truth and CPU and GPU
// workers can share a factorisation. (No caching of tiles on the device:
// simple and correct first; a transfer costs 3 tile copies per task.)
// QR's compact-WY kernels have no cuSOLVER counterpart: its tasks stay on
// CPUs (their GPU duration is "not available").
//
// Compiled only with the CUDA toolkit (AUTOSCHED_DAG_CUDA, cmake/
// AutoschedCuda.cmake); this header needs no CUDA header.
#include <autosched/dag/task_graph.hpp>

#include <memory>
#include <string_view>

namespace autosched::dag {

class TiledFactorization;

class GpuTileRunner {
 public:
  /// GPUs the CUDA runtime sees here (0 when it sees none or fails).
  static int devices() noexcept;
  /// Whether a kernel of this name runs on a GPU.
  static bool supports(std::string_view kernel) noexcept;

  /// Binds the calling thread to `device` and allocates what tiles of
  /// `tile_size` need. Throws naming the device and the CUDA error.
  GpuTileRunner(int device, int tile_size);
  ~GpuTileRunner();
  GpuTileRunner(const GpuTileRunner&) = delete;
  GpuTileRunner& operator=(const GpuTileRunner&) = delete;

  /// Runs task `t` of `f` on the GPU (from the thread that built this
  /// runner). Throws naming the task on a kernel failure (a tile that is
  /// not SPD, a zero pivot) or a CUDA error.
  void run(TiledFactorization& f, TaskId t);

 private:
  struct Device;
  std::unique_ptr<Device> d_;
};

}  // namespace autosched::dag
