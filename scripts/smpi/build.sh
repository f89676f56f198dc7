#!/usr/bin/env bash
# Builds autosched for SimGrid SMPI in build/smpi: the same library code,
# compiled with smpicxx, so MPI programs run under smpirun (scripts/smpi/run.sh)
# on hundreds to thousands of simulated ranks. docs/smpi.md explains why.
#
#   scripts/smpi/build.sh                      # the probes (and what they need)
#   scripts/smpi/build.sh autosched-pisolver-mpi  # plus any other target
#
# The build dir is separate from the native builds and configured with:
#   CMAKE_CXX_COMPILER=smpicxx, CMAKE_C_COMPILER=smpicc
#   static autosched libraries (BUILD_SHARED_LIBS=OFF): SMPI privatizes the
#     globals of the program it loads, once per rank; globals of shared
#     libraries would be shared by all ranks. SimGrid itself stays shared
#     (smpicxx links libsimgrid.so; never link it statically).
#   no tests, tools or examples; only the named targets are built.
# smpicxx produces shared objects that smpirun loads; they cannot run alone.
# OpenMP is found (CMake needs it for the thread-level targets) but the SMPI
# targets built here do not use it: threads inside a simulated rank are not
# simulated (their CPU time is not charged) and may not call MPI.
# Environment: JOBS (default 2), SMPI_BUILD_TYPE (default Release), BUILD_DIR.
set -euo pipefail
cd "$(dirname "$0")/../.."

command -v smpicxx >/dev/null && command -v smpirun >/dev/null || {
  echo "smpi/build.sh: smpicxx/smpirun not found: install libsimgrid-dev (scripts/install-deps.sh)" >&2
  exit 1
}
build=${BUILD_DIR:-build/smpi}
jobs=${JOBS:-2}
targets=(autosched-mpi-probe autosched-mpi-library-probe "$@")

generator=()
[[ -f $build/CMakeCache.txt ]] || { command -v ninja >/dev/null && generator=(-G Ninja); }
nice -n 10 cmake -S . -B "$build" "${generator[@]}" \
  -DCMAKE_BUILD_TYPE="${SMPI_BUILD_TYPE:-Release}" \
  -DCMAKE_CXX_COMPILER=smpicxx -DCMAKE_C_COMPILER=smpicc \
  -DBUILD_SHARED_LIBS=OFF -DAUTOSCHED_SMPI=ON \
  -DAUTOSCHED_BUILD_TESTS=OFF -DAUTOSCHED_BUILD_BENCH=OFF -DAUTOSCHED_BUILD_EXAMPLES=OFF \
  -DAUTOSCHED_BUILD_TOOLS=OFF -DAUTOSCHED_BUILD_APPS="${SMPI_BUILD_APPS:-ON}" >/dev/null
nice -n 10 cmake --build "$build" -j "$jobs" --target "${targets[@]}"
echo "smpi/build.sh: built ${targets[*]} in $build/bin (run them with scripts/smpi/run.sh)"
