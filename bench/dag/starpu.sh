#!/usr/bin/env bash
# Tiled Cholesky n=4096, tile 512 (T=8) on 2 StarPU CPU workers: StarPU's
# dm, dmdas, heteroprio, lws and eager against our mct-prio and heft run as a
# StarPU policy, 5 runs each, same kernels, same calibrated duration table
# (the cost models of StarPU's policies and our schedulers' plans). Prints the
# median makespan and GFlop/s per policy, each run's residual verified.
# The acceptance line of issue 14 compares our executor's mct-prio
# (bench/dag/executor.sh) with the best StarPU policy here; pass the same
# table to both (TABLE=<file>) for a fair comparison.
# Usage: bench/dag/starpu.sh <out_dir>
#   writes <out_dir>/starpu.csv (every run), starpu.txt (the summary),
#   starpu-table.txt (the duration table used)
#   TABLE=<file>               use that duration table instead of calibrating
#   RUNS=<n>, N=<n>, TILE=<b>, WORKERS=<p>   change the defaults (5, 4096, 512, 2)
#   POLICIES=<list>            other policies (starpu:<name>, <ours> as a StarPU
#                              policy, exec:<ours> on our executor; ours include
#                              readys:<model> when libtorch is built)
#   AUTOSCHED_BUILD_DIR=<dir>  build and run in that configured build directory
set -euo pipefail
[[ $# -eq 1 ]] || { echo "usage: $0 <out_dir>" >&2; exit 2; }
out=$(mkdir -p "$1" && cd "$1" && pwd)
cd "$(dirname "$0")/../.."
build=${AUTOSCHED_BUILD_DIR:-build/release}
if [[ -z ${AUTOSCHED_BUILD_DIR:-} ]]; then
  cmake --preset release >/dev/null
fi
cmake --build "$build" --target bench_dag_starpu >/dev/null ||
  { echo "starpu.sh: bench_dag_starpu needs StarPU and LAPACKE/CBLAS (scripts/install-deps.sh)" >&2; exit 1; }
# StarPU's own files (bus calibration, models) in a folder of this run, not in $HOME.
starpu_home=$(mktemp -d)
trap 'rm -rf "$starpu_home"' EXIT
table_args=(--save-table "$out/starpu-table.txt")
if [[ -n ${TABLE:-} ]]; then
  table_args=(--table "$TABLE")
  cp "$TABLE" "$out/starpu-table.txt"
fi
echo "# $(date -u +%FT%TZ), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at the start" | tee "$out/starpu.txt"
STARPU_HOME=$starpu_home STARPU_SILENT=1 "$build/bin/bench_dag_starpu" \
  --n "${N:-4096}" --tile "${TILE:-512}" --workers "${WORKERS:-2}" --runs "${RUNS:-5}" \
  --policies "${POLICIES:-starpu:dm,starpu:dmdas,starpu:heteroprio,starpu:lws,starpu:eager,mct-prio,heft,exec:mct-prio,exec:heft,exec:eager}" \
  "${table_args[@]}" --csv "$out/starpu.csv" | tee -a "$out/starpu.txt"
