#!/usr/bin/env bash
# The task-graph tables: mean makespan (± standard deviation over 100 noise
# samples) of every scheduler and the lower bound, for tiled Cholesky, LU
# and QR at T = 4..12, on 2cpu+2gpu, 4cpu, 4gpu and 3cpu+1gpu, at
# σ = 0, 0.1, 0.3, 0.5, with READYS's duration table. Simulated, so the
# numbers do not depend on the machine; it runs on two threads in well
# under a minute on a 2-core VM.
# Usage: bench/dag/tables.sh <out_dir>     (docs/results/dag holds the last run)
#   AUTOSCHED_BUILD_DIR=<dir>  build and run in that configured build
#                              directory instead of the release preset's
#   SAMPLES=<n>                noise samples per point (default 100)
set -euo pipefail
if [[ $# -ne 1 ]]; then
  echo "usage: $0 <out_dir>" >&2
  exit 2
fi
out=$1
cd "$(dirname "$0")/../.."
build=${AUTOSCHED_BUILD_DIR:-build/release}
if [[ -z ${AUTOSCHED_BUILD_DIR:-} ]]; then
  cmake --preset release >/dev/null
fi
cmake --build "$build" --target autosched_cli -j2 >/dev/null
start=$(date +%s)
AUTOSCHED_DB=off "$build/bin/autosched" dag bench \
  --graphs cholesky,lu,qr --tiles 4,6,8,10,12 --platforms 2cpu+2gpu,4cpu,4gpu,3cpu+1gpu \
  --sigmas 0,0.1,0.3,0.5 --samples "${SAMPLES:-100}" --schedulers all --durations readys --seed 1 \
  --jobs 2 --out "$out"
echo "tables.sh: $(($(date +%s) - start)) s" >&2
