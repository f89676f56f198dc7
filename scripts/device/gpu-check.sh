#!/usr/bin/env bash
# The checks that need a GPU, in one run on a lent GPU machine (the workplace's
# `device` tool; CI has no GPU). That machine has CUDA (nvcc, cuBLAS, cuSOLVER)
# but not autosched's Debian dependencies, and fetches nothing: they travel
# as a tarball made here by
#
#   scripts/device/pack-deps.sh          (writes .devdeps/deps.tar.xz, ignored by git)
#
# and the device command is
#
#   scripts/device/gpu-check.sh          (carry: .devdeps; results under $OUT)
#
# It builds the DAG executor with GPU workers, the CUDA region examples and
# the tool, then runs: the GPU executor test (CPU and GPU workers sharing a
# verified Cholesky, LU and QR under four schedulers), real Cholesky and LU
# factorisations (calibrated, verified) on 4 CPU workers without and with a
# GPU worker under each scheduler, and the three CUDA region examples. About
# 3 minutes after the machine's start (docs/dag.md, "GPU workers on a GPU"). Everything it prints also goes to $OUT/gpu-check.log.
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${OUT:-/tmp/gpu-check}
mkdir -p "$out"
exec > >(tee "$out/gpu-check.log") 2>&1
say() { printf '\n=== %s (%ds) ===\n' "$*" "$SECONDS"; }

say "machine"
nproc; nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader 2>&1 | head -2
ls /usr/local/cuda*/bin/nvcc 2>/dev/null; command -v nvcc && nvcc --version | tail -2; g++ --version | head -1; cmake --version | head -1

say "dependencies"
dd=/opt/autosched-deps
mkdir -p "$dd" && tar -C "$dd" -xJf .devdeps/deps.tar.xz || { echo "no .devdeps/deps.tar.xz (run scripts/device/pack-deps.sh here, carry .devdeps)"; exit 1; }
lib=$dd/usr/lib/x86_64-linux-gnu
export LD_LIBRARY_PATH=$lib:$lib/openblas-pthread${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export PKG_CONFIG_LIBDIR=$lib/pkgconfig:$lib/openblas-pthread/pkgconfig:$dd/usr/share/pkgconfig
export PKG_CONFIG_SYSROOT_DIR=$dd
export PKG_CONFIG=$dd/usr/bin/pkgconf
"$PKG_CONFIG" --cflags --libs lapacke openblas || exit 1

# cuBLAS / cuSOLVER: in the toolkit, else in the Python wheels beside PyTorch.
cuda_args=() cxx_flags="-I$dd/usr/include"
nvcc_bin=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
cuda_root=$(dirname "$(dirname "$nvcc_bin")")
export PATH=$cuda_root/bin:$PATH
if ! ls "$cuda_root"/lib*/libcublas.so* "$cuda_root"/targets/*/lib/libcublas.so* 2>/dev/null | grep -q . ||
   ! ls "$cuda_root"/lib*/libcusolver.so* "$cuda_root"/targets/*/lib/libcusolver.so* 2>/dev/null | grep -q .; then
  echo "no cuBLAS/cuSOLVER under $cuda_root/lib64; looking in the Python wheels"
  find / -xdev \( -name 'libcublas.so*' -o -name 'libcusolver.so*' -o -name cublas_v2.h -o -name cusolverDn.h \) 2>/dev/null | head -20
  blas_so=$(find / -xdev -name 'libcublas.so*' 2>/dev/null | sort | head -1)
  solver_so=$(find / -xdev -name 'libcusolver.so*' 2>/dev/null | sort | head -1)
  blas_h=$(find / -xdev -name cublas_v2.h 2>/dev/null | head -1)
  solver_h=$(find / -xdev -name cusolverDn.h 2>/dev/null | head -1)
  if [[ -n $blas_so && -n $solver_so && -n $blas_h && -n $solver_h ]]; then
    cuda_args=(-DCUDA_cublas_LIBRARY="$blas_so" -DCUDA_cusolver_LIBRARY="$solver_so")
    cxx_flags+=" -I$(dirname "$blas_h") -I$(dirname "$solver_h")"
    export LD_LIBRARY_PATH=$(dirname "$blas_so"):$(dirname "$solver_so"):$LD_LIBRARY_PATH
  fi
fi

say "configure"
b=build/gpu
cmake -S . -B $b -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$dd/usr" \
  -DSQLite3_INCLUDE_DIR="$dd/usr/include" -DSQLite3_LIBRARY="$lib/libsqlite3.so" \
  -DGTest_DIR="$lib/cmake/GTest" -DAUTOSCHED_BUILD_BENCH=OFF -DAUTOSCHED_BUILD_APPS=OFF \
  -DCMAKE_DISABLE_FIND_PACKAGE_MPI=ON -DCMAKE_CUDA_ARCHITECTURES=native -DCMAKE_CXX_FLAGS="$cxx_flags" "${cuda_args[@]}" > "$out/configure.log" 2>&1 ||
  { tail -40 "$out/configure.log"; exit 1; }
grep -E 'autosched:|CUDA' "$out/configure.log" | head -20

say "build"
targets=(autosched_cli test_dag_executor region_offload region_gpu_threads region_coschedule)
cmake --build $b --target "${targets[@]}" -j "$(nproc)" > "$out/build.log" 2>&1 || { grep -E 'error|Error' "$out/build.log" | head -30; tail -20 "$out/build.log"; exit 1; }
$b/bin/autosched info | grep -E 'CUDA|LAPACK|GPU'

status=0
say "test: the executor's tests, GPU included"
$b/tests/dag/test_dag_executor --gtest_brief=1 2>&1 | tail -15 || status=1
# Each `dag run` calibrates the kernels first and verifies every run (n³
# flops on the CPU): 12 × 12 tiles, 3 runs and 5 schedulers did not end in 7
# minutes there, so one run of 8 × 8 tiles per scheduler.
for g in cholesky lu; do
  say "real $g, 8 x 8 tiles of 512, 4 CPU workers, without and with 1 GPU worker"
  timeout 60 $b/bin/autosched dag run --graph $g --tiles 8 --tile-size 512 --workers 4 --gpus 0 --scheduler heft \
    2>&1 | tail -3 || status=1
  for s in heft mct mct-prio heteroprio eager; do
    timeout 60 $b/bin/autosched dag run --graph $g --tiles 8 --tile-size 512 --workers 4 --gpus 1 --scheduler $s \
      2>&1 | tail -1 || status=1
  done
done
say "CUDA region examples"
for e in region_offload region_gpu_threads region_coschedule; do
  timeout 60 $b/bin/$e 2>&1 | tail -12 || status=1
done
say "done, status $status"
exit $status
