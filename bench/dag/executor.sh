#!/usr/bin/env bash
# The real executor on tiled Cholesky n=4096, tile 512 (T=8, 120 tasks), 2
# workers, 5 runs each of mct-prio, heft and eager: median makespan,
# GFlop/s, worst residual (every run is verified) and the scheduling
# overhead measured per task. Kernel durations are calibrated first on this
# machine. Extra key=value arguments go to the program (family=lu, n=2048,
# workers=1, runs=3, schedulers=heteroprio,random, ...).
# Usage: bench/dag/executor.sh [out-dir] [key=value ...]   (default out-dir: build/release/results/dag-executor)
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-build/release/results/dag-executor}
shift || true
cmake --preset release >/dev/null
cmake --build --preset release --target bench_dag_executor -j2 >/dev/null
build/release/bin/bench_dag_executor family=cholesky n=4096 tile=512 workers=2 runs=5 \
  schedulers=mct-prio,heft,eager out="$out" "$@"
