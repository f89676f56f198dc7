# CUDA (optional): GPU workers for the real executor (cuBLAS + cuSOLVER
# tile kernels, autosched/dag/gpu_tile_runner.hpp). Only the CUDA runtime
# and the two libraries' host APIs are used, so no CUDA compiler is needed:
# FindCUDAToolkit locates them (e.g. /usr/local/cuda). Built only together
# with the CPU executor (LAPACKE + CBLAS). A build with them runs GPU workers
# only where a GPU is present; elsewhere a platform with GPUs is refused with
# a message. -DAUTOSCHED_WITH_CUDA=OFF leaves it out.
# Sets AUTOSCHED_CUDA_FOUND and AUTOSCHED_CUDA_DETAIL (for `autosched info`).
option(AUTOSCHED_WITH_CUDA "Build GPU workers for the DAG executor when the CUDA toolkit is found" ON)
set(AUTOSCHED_CUDA_FOUND OFF)
set(AUTOSCHED_CUDA_DETAIL "")
if(NOT AUTOSCHED_WITH_CUDA OR NOT AUTOSCHED_LAPACK_FOUND OR AUTOSCHED_SANITIZER)
  return()
endif()
find_package(CUDAToolkit QUIET)
if(NOT CUDAToolkit_FOUND OR NOT TARGET CUDA::cublas OR NOT TARGET CUDA::cusolver OR NOT TARGET CUDA::cudart)
  return()
endif()
set(AUTOSCHED_CUDA_FOUND ON)
set(AUTOSCHED_CUDA_DETAIL "CUDA ${CUDAToolkit_VERSION} (cuBLAS, cuSOLVER)")
