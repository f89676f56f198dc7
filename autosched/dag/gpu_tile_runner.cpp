#include <autosched/dag/gpu_tile_runner.hpp>

#include <autosched/dag/tiled_factorization.hpp>

#include <autosched/core/error.hpp>

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cusolverDn.h>

#include <string>

namespace autosched::dag {

namespace {

void check(cudaError_t e, const std::string& what) {
  if (e != cudaSuccess) autosched::detail::throw_error("GPU worker: " + what + ": " + cudaGetErrorString(e));
}
void check(cublasStatus_t s, const std::string& what) {
  if (s != CUBLAS_STATUS_SUCCESS)
    autosched::detail::throw_error("GPU worker: " + what + ": cuBLAS status " + std::to_string(static_cast<int>(s)));
}
void check(cusolverStatus_t s, const std::string& what) {
  if (s != CUSOLVER_STATUS_SUCCESS)
    autosched::detail::throw_error("GPU worker: " + what + ": cuSOLVER status " + std::to_string(static_cast<int>(s)));
}

}  // namespace

struct GpuTileRunner::Device {
  int device = 0;
  int b = 0;
  std::size_t tile_bytes = 0;
  cudaStream_t stream = nullptr;
  cublasHandle_t blas = nullptr;
  cusolverDnHandle_t solver = nullptr;
  double* tile[3] = {nullptr, nullptr, nullptr};  ///< up to three tiles per task
  double* work = nullptr;                         ///< cuSOLVER's workspace
  int* info = nullptr;                            ///< cuSOLVER's status on the device

  ~Device() {
    for (double* p : tile) cudaFree(p);
    cudaFree(work);
    cudaFree(info);
    if (solver != nullptr) cusolverDnDestroy(solver);
    if (blas != nullptr) cublasDestroy(blas);
    if (stream != nullptr) cudaStreamDestroy(stream);
  }

  void to_device(int slot, const double* host) {
    check(cudaMemcpyAsync(tile[slot], host, tile_bytes, cudaMemcpyHostToDevice, stream), "copying a tile in");
  }
  void to_host(double* host, int slot) {
    check(cudaMemcpyAsync(host, tile[slot], tile_bytes, cudaMemcpyDeviceToHost, stream), "copying a tile out");
    check(cudaStreamSynchronize(stream), "waiting for the stream");
  }
  /// cuSOLVER's devInfo after a factorisation: > 0 is the failing column.
  int factorisation_info() {
    int host = 0;
    check(cudaMemcpyAsync(&host, info, sizeof host, cudaMemcpyDeviceToHost, stream), "reading devInfo");
    check(cudaStreamSynchronize(stream), "waiting for the stream");
    return host;
  }
};

int GpuTileRunner::devices() noexcept {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) return 0;
  return n;
}

bool GpuTileRunner::supports(std::string_view k) noexcept {
  return k == "POTRF" || k == "SYRK" || k == "TRSM" || k == "GEMM" || k == "GETRF" || k == "TRSM_LL" ||
         k == "TRSM_RU";
}

GpuTileRunner::GpuTileRunner(int device, int tile_size) : d_(std::make_unique<Device>()) {
  Device& d = *d_;
  d.device = device;
  d.b = tile_size;
  d.tile_bytes = sizeof(double) * static_cast<std::size_t>(tile_size) * static_cast<std::size_t>(tile_size);
  const std::string where = "device " + std::to_string(device);
  check(cudaSetDevice(device), "selecting " + where);
  check(cudaStreamCreate(&d.stream), "creating a stream on " + where);
  check(cublasCreate(&d.blas), "cuBLAS on " + where);
  check(cublasSetStream(d.blas, d.stream), "cuBLAS stream on " + where);
  check(cusolverDnCreate(&d.solver), "cuSOLVER on " + where);
  check(cusolverDnSetStream(d.solver, d.stream), "cuSOLVER stream on " + where);
  for (double*& p : d.tile) check(cudaMalloc(reinterpret_cast<void**>(&p), d.tile_bytes), "tile memory on " + where);
  int potrf_work = 0, getrf_work = 0;
  check(cusolverDnDpotrf_bufferSize(d.solver, CUBLAS_FILL_MODE_LOWER, tile_size, d.tile[0], tile_size, &potrf_work),
        "POTRF workspace size");
  check(cusolverDnDgetrf_bufferSize(d.solver, tile_size, tile_size, d.tile[0], tile_size, &getrf_work),
        "GETRF workspace size");
  const int work = potrf_work > getrf_work ? potrf_work : getrf_work;
  check(cudaMalloc(reinterpret_cast<void**>(&d.work), sizeof(double) * static_cast<std::size_t>(work > 0 ? work : 1)),
        "workspace on " + where);
  check(cudaMalloc(reinterpret_cast<void**>(&d.info), sizeof(int)), "devInfo on " + where);
}

GpuTileRunner::~GpuTileRunner() = default;

void GpuTileRunner::run(TiledFactorization& f, TaskId t) {
  Device& d = *d_;
  const TaskGraph& g = f.graph();
  const Task& task = g.task(t);
  const std::string& kernel = g.kernel_name(t);
  const int x = task.tile[0], y = task.tile[1], z = task.tile[2];
  const int b = d.b;
  const double one = 1.0, minus_one = -1.0;
  const std::string what = kernel + " (task " + std::to_string(t) + ")";
  int work_size = 0;
  if (kernel == "POTRF") {  // A_xx = L L^T
    d.to_device(0, f.tile(x, x));
    check(cusolverDnDpotrf_bufferSize(d.solver, CUBLAS_FILL_MODE_LOWER, b, d.tile[0], b, &work_size), what);
    check(cusolverDnDpotrf(d.solver, CUBLAS_FILL_MODE_LOWER, b, d.tile[0], b, d.work, work_size, d.info), what);
    if (const int bad = d.factorisation_info(); bad != 0)
      autosched::detail::throw_error("GPU worker: " + what + ": tile (" + std::to_string(x) + "," + std::to_string(x) +
                                     ") is not positive definite (cuSOLVER info " + std::to_string(bad) + ")");
    d.to_host(f.tile(x, x), 0);
  } else if (kernel == "TRSM") {  // A_xy <- A_xy L_yy^-T
    d.to_device(0, f.tile(y, y));
    d.to_device(1, f.tile(x, y));
    check(cublasDtrsm(d.blas, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_T, CUBLAS_DIAG_NON_UNIT, b, b, &one,
                      d.tile[0], b, d.tile[1], b),
          what);
    d.to_host(f.tile(x, y), 1);
  } else if (kernel == "SYRK") {  // lower A_xx <- A_xx - A_xy A_xy^T
    d.to_device(0, f.tile(x, y));
    d.to_device(1, f.tile(x, x));
    check(cublasDsyrk(d.blas, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, b, b, &minus_one, d.tile[0], b, &one, d.tile[1], b),
          what);
    d.to_host(f.tile(x, x), 1);
  } else if (kernel == "GEMM") {
    // Cholesky: A_xy <- A_xy - A_xz A_yz^T; LU: A_xy <- A_xy - A_xz A_zy.
    const bool cholesky = f.family() == "cholesky";
    d.to_device(0, f.tile(x, z));
    d.to_device(1, cholesky ? f.tile(y, z) : f.tile(z, y));
    d.to_device(2, f.tile(x, y));
    check(cublasDgemm(d.blas, CUBLAS_OP_N, cholesky ? CUBLAS_OP_T : CUBLAS_OP_N, b, b, b, &minus_one, d.tile[0], b,
                      d.tile[1], b, &one, d.tile[2], b),
          what);
    d.to_host(f.tile(x, y), 2);
  } else if (kernel == "GETRF") {  // A_xx = L U, no pivoting (a null pivot array)
    d.to_device(0, f.tile(x, x));
    check(cusolverDnDgetrf(d.solver, b, b, d.tile[0], b, d.work, nullptr, d.info), what);
    if (const int bad = d.factorisation_info(); bad != 0)
      autosched::detail::throw_error("GPU worker: " + what + ": zero pivot in tile (" + std::to_string(x) + "," +
                                     std::to_string(x) + ") (cuSOLVER info " + std::to_string(bad) + ")");
    d.to_host(f.tile(x, x), 0);
  } else if (kernel == "TRSM_LL") {  // A_xy <- L_xx^-1 A_xy, L unit lower
    d.to_device(0, f.tile(x, x));
    d.to_device(1, f.tile(x, y));
    check(cublasDtrsm(d.blas, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_UNIT, b, b, &one,
                      d.tile[0], b, d.tile[1], b),
          what);
    d.to_host(f.tile(x, y), 1);
  } else if (kernel == "TRSM_RU") {  // A_xy <- A_xy U_yy^-1
    d.to_device(0, f.tile(y, y));
    d.to_device(1, f.tile(x, y));
    check(cublasDtrsm(d.blas, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, b, b, &one,
                      d.tile[0], b, d.tile[1], b),
          what);
    d.to_host(f.tile(x, y), 1);
  } else {
    autosched::detail::throw_error("GPU worker: kernel " + kernel + " (task " + std::to_string(t) +
                                   ") has no GPU implementation");
  }
}

}  // namespace autosched::dag
