#!/usr/bin/env bash
# Scheduling overhead per chunk request at simulated scale: the same
# bench_mpi_overhead as bench/mpi/run.sh, compiled with smpicxx and run under
# SimGrid SMPI (scripts/smpi/run.sh: one 1 Gf host per rank, 10 Gbps / 1 µs
# links, the library's own CPU time charged 1:1 as measured on this machine).
# Simulated time is deterministic up to that measured CPU time, so one run per
# cell. Writes docs/results/mpi-overhead-smpi.md and .csv.
#
#   bench/mpi/overhead-smpi.sh [n (default 20000)] [reps (default 3)] [P… (default 2 8 200)]
set -euo pipefail
cd "$(dirname "$0")/../.."
n=${1:-20000}
reps=${2:-3}
shift $(($# > 2 ? 2 : $#))
ranks=("$@")
((${#ranks[@]})) || ranks=(2 8 200)
bin=${SMPI_BUILD:-build/smpi}/bin/bench_mpi_overhead
[[ -x $bin ]] || { echo "overhead-smpi.sh: $bin not built (scripts/smpi/build.sh bench_mpi_overhead)" >&2; exit 1; }
csv=docs/results/mpi-overhead-smpi.csv
md=docs/results/mpi-overhead-smpi.md
mkdir -p docs/results
echo "np,protocol,chunk,n,chunks,ranges,reps,per_request_us,per_chunk_us,loop_ms,wall_s,peak_rss_mb" >"$csv"
for np in "${ranks[@]}"; do
  for chunk in 1 16; do
    echo "overhead-smpi.sh: P=$np ss,chunk=$chunk" >&2
    log=$(mktemp)
    scripts/smpi/run.sh -np "$np" -- "$bin" --n "$n" --reps "$reps" --chunk "$chunk" >"$log" 2>&1 ||
      { tail -5 "$log" >&2; rm -f "$log"; exit 1; }
    read -r wall rss < <(sed -n 's/.*wall_s=\([0-9.]*\) peak_rss_mb=\([0-9]*\).*/\1 \2/p' "$log")
    grep -E "^$np,(master-worker|rma)," "$log" | sed "s/\$/,$wall,$rss/" >>"$csv"
    rm -f "$log"
  done
done
{
  echo "### Scheduling overhead per chunk request at simulated scale (SimGrid SMPI)"
  echo
  echo "\`bench/mpi/overhead-smpi.sh $n $reps ${ranks[*]}\` — $(date -u +%F), commit $(git rev-parse --short HEAD),"
  echo "$(smpirun -version 2>/dev/null | head -1). **Simulated**: one 1 Gf host per rank, 10 Gbps / 1 µs links"
  echo "(scripts/smpi/platform.sh), MPI_Iprobe 0.1 µs, MPI_Test 0.05 µs; the library's own CPU time between MPI"
  echo "calls is measured on this machine and charged 1:1. Same loop and columns as"
  echo "[mpi-overhead.md](mpi-overhead.md): n = $n empty iterations under \`ss,chunk=C\`, per_chunk = loop time × P /"
  echo "chunks, each the median over $reps instances after a warm-up. Wall and memory: the whole smpirun on this machine."
  echo
  echo "| P | schedule | chunks | master-worker µs/request | RMA µs/request | master-worker µs/chunk | RMA µs/chunk | MW / RMA (per chunk) | wall s | peak MB |"
  echo "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|"
  for np in "${ranks[@]}"; do
    for chunk in 1 16; do
      sel() { awk -F, -v np="$np" -v c="$chunk" -v p="$1" -v f="$2" '$1==np && $2==p && $3==c {print $f}' "$csv"; }
      ratio=$(awk -v a="$(sel master-worker 9)" -v b="$(sel rma 9)" 'BEGIN {printf (b > 0 ? "%.1f" : "-"), a / b}')
      echo "| $np | \`ss,chunk=$chunk\` | $(sel rma 5) | $(sel master-worker 8) | $(sel rma 8) | $(sel master-worker 9) | $(sel rma 9) | $ratio | $(sel rma 11) | $(sel rma 12) |"
    done
  done
} >"$md"
cat "$md"
