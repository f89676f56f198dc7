#!/usr/bin/env bash
# Regenerates docs/results/mpi-overhead.md and mpi-overhead.csv: the
# scheduling overhead per chunk request of autosched::mpi, master-worker
# against RMA, at np = 2, 4, 8 (Open MPI, --oversubscribe beyond the cores).
# A loop of N empty iterations under `ss,chunk=1` and `ss,chunk=16`; each
# mpirun reports the medians of its R instances (bench_mpi_overhead), and the
# table gives the median over RUNS independent mpirun runs.
# Usage: [BUILD=build/release] bench/mpi/run.sh [runs (default 5)] [n (default 20000)] [reps (default 7)]
set -euo pipefail
cd "$(dirname "$0")/../.."
runs=${1:-5}
n=${2:-20000}
reps=${3:-7}
build=${BUILD:-build/release}
if [[ ! -f "$build/CMakeCache.txt" ]]; then cmake --preset release >/dev/null; fi
cmake --build "$build" --target bench_mpi_overhead >/dev/null
bin="$build/bin/bench_mpi_overhead"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 AUTOSCHED_DB=off OMPI_MCA_btl=self,vader \
  OMPI_MCA_btl_vader_single_copy_mechanism=none
csv=docs/results/mpi-overhead.csv
md=docs/results/mpi-overhead.md
mkdir -p docs/results
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
echo "run,np,protocol,chunk,n,chunks,ranges,reps,per_request_us,per_chunk_us,loop_ms" >"$csv"
for np in 2 4 8; do
  for chunk in 1 16; do
    for ((r = 1; r <= runs; ++r)); do
      mpirun --oversubscribe -np "$np" "$bin" --n "$n" --reps "$reps" --chunk "$chunk" | sed "s/^/$r,/" >>"$csv"
    done
  done
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

median() { sort -g | awk '{v[NR]=$1} END {print (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2)}'; }
cores=$(nproc)
{
  echo "### Scheduling overhead per chunk request: master-worker vs RMA (Open MPI, this machine)"
  echo
  echo "\`bench/mpi/run.sh $runs $n $reps\` — $(date -u +%F), commit $(git rev-parse --short HEAD)"
  echo
  echo "Machine: $(lscpu | sed -n 's/^Model name: *//p' | head -1), $cores cores (a shared VM), $(mpirun --version | head -1)."
  echo "np > $cores is **oversubscribed** (\`mpirun --oversubscribe\`): ranks time-share the cores, and a"
  echo "master-worker request waits until the coordinator is scheduled. Load average (1/5/15 min)"
  echo "before: $load_before, after: $load_after (other engineers were compiling on the same cores)."
  echo
  echo "A loop of n = $n empty iterations under \`ss,chunk=C\` (exactly ⌈n/C⌉ chunks under either protocol);"
  echo "per_request = mean over ranks of the time inside next() per call (the master-worker coordinator's"
  echo "own chunks come in pieces, each a cheap local call, which lowers its mean); per_chunk = loop time ×"
  echo "np / chunks: the loop's wall time spread over the chunks, the number to compare. Each cell: median over $runs mpirun runs of each run's"
  echo "median over $reps instances (after one warm-up instance). All rows: \`$csv\`."
  echo
  echo "| np | schedule | chunks | master-worker µs/request | RMA µs/request | master-worker µs/chunk | RMA µs/chunk | MW / RMA (per chunk) |"
  echo "|---:|---|---:|---:|---:|---:|---:|---:|"
  for np in 2 4 8; do
    for chunk in 1 16; do
      sel() { awk -F, -v np="$np" -v c="$chunk" -v p="$1" -v f="$2" '$2==np && $3==p && $4==c {print $f}' "$csv"; }
      chunks=$(sel rma 6 | head -1)
      mw_req=$(sel master-worker 9 | median); rma_req=$(sel rma 9 | median)
      mw_chunk=$(sel master-worker 10 | median); rma_chunk=$(sel rma 10 | median)
      ratio=$(awk -v a="$mw_chunk" -v b="$rma_chunk" 'BEGIN {printf (b > 0 ? "%.1f" : "-"), a / b}')
      echo "| $np | \`ss,chunk=$chunk\` | $chunks | $mw_req | $rma_req | $mw_chunk | $rma_chunk | $ratio |"
    done
  done
} >"$md"
cat "$md"
