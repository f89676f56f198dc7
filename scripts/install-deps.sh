#!/usr/bin/env bash
# Installs every package autosched needs from Debian's archive (apt-get only).
# Idempotent: packages already present are not downloaded again, and apt-get
# is not even started when nothing is missing. Must run as root (or via sudo).
set -euo pipefail

packages=(
  # toolchains: g++ with libgomp, clang with LLVM libomp (+ libarcher for TSan)
  build-essential cmake ninja-build git pkg-config
  g++ clang libomp-14-dev libclang-rt-14-dev
  # the drop-in's Fortran test (gfortran 12 emits the same GOMP_* entry points)
  gfortran
  # the drop-in's static loops in Fortran: flang 16 calls LLVM's OpenMP ABI
  flang-16
  # tests and benchmarks
  libgtest-dev libgmock-dev libbenchmark-dev
  # command-line tool, persistence
  libcli11-dev libsqlite3-dev sqlite3
  # benchmark campaign reports (PNG pictures)
  gnuplot-nox
  # MPI collective training of regions and, later, process-level loops
  libopenmpi-dev openmpi-bin
  # SimGrid SMPI 3.32 (optional component): smpicxx/smpirun run autosched::mpi on
  # 200-4000 simulated ranks (scripts/smpi/, docs/smpi.md)
  libsimgrid-dev
  # LAPACKE + OpenBLAS (optional component): the tile kernels of the DAG executor
  liblapacke-dev libopenblas-dev
  # StarPU 1.3 (optional component): the task-graph schedulers as a StarPU policy and
  # StarPU's own policies beside them (autosched/dag/starpu/, docs/dag.md)
  libstarpu-dev
  # PAPI (optional component): hardware counters (instructions/s) as the pinning
  # manager's speed source, where the machine has a PMU (autosched/pinning/)
  libpapi-dev
  # libtorch 1.13 (optional component): training and model files of the learned
  # task-graph policy, readys:<model> (autosched/dag/learned/)
  libtorch-dev
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if ((${#missing[@]} == 0)); then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

SUDO=""
if [[ $(id -u) -ne 0 ]]; then
  command -v sudo >/dev/null || { echo "install-deps: need root (or sudo) to install: ${missing[*]}" >&2; exit 1; }
  SUDO=sudo
fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
