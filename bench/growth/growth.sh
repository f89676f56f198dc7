#!/usr/bin/env bash
# How a process's costs grow: memory per distinct loop name (10^4 names, a
# few instances each, 1 and 2 threads, without and with a store), and the
# DAG list schedulers' decisions per second when 10^3 … 10^6 tasks are ready
# at once (independent tasks on 2cpu+2gpu, simulated). Writes
# docs/results/growth.md. Run it on an idle machine; a scheduler that does
# not finish a point within the time limit is shown as "> limit".
# Usage: bench/growth/growth.sh [--limit SECONDS] [--sizes "1000 10000 …"]
set -euo pipefail
cd "$(dirname "$0")/../.."
limit=60
sizes="1000 10000 100000 1000000"
while (($#)); do
  case $1 in
    --limit) limit=${2:?--limit wants seconds}; shift 2 ;;
    --sizes) sizes=${2:?--sizes wants a list}; shift 2 ;;
    *) echo "growth.sh: unknown argument '$1' (--limit S, --sizes \"N …\")" >&2; exit 2 ;;
  esac
done
cmake --preset release >/dev/null
cmake --build --preset release --target bench_loop_names autosched >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
out=docs/results/growth.md
mkdir -p docs/results
schedulers="eager mct mct-prio heft heteroprio heft-online random"
{
  echo "# How costs grow"
  echo
  echo "\`bench/growth/growth.sh --limit $limit\` — $(date -u +%F), $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')), load average $(cut -d' ' -f1-3 /proc/loadavg) at the start. Real runs; the DAG part is the event simulator (no task runs)."
  echo
  echo "## Memory per distinct loop name"
  echo
  echo "10^4 loops of 256 iterations under 10^4 names, 4 instances each, the default schedule (\`auto\`); heap (mallinfo) and resident bytes each new name added."
  echo
  echo '| threads | store | result |'
  echo '|--:|---|---|'
  for threads in 1 2; do
    for store in off on; do
      db=off
      [ "$store" = on ] && db=$work/store.db
      rm -f "$work"/store.db*
      line=$(OMP_NUM_THREADS=$threads AUTOSCHED_DB=$db build/release/bin/bench_loop_names 10000 4)
      echo "| $threads | $store | ${line#*: } |"
    done
  done
  echo
  echo "## DAG decisions with many ready tasks"
  echo
  echo "N independent tasks (kernels POTRF, SYRK, TRSM, GEMM in turn, the \`readys\` durations), all ready at time 0, simulated on 2cpu+2gpu. Wall seconds of the whole command (reading the graph included) and decisions per second."
  echo
  printf '| scheduler |'; for n in $sizes; do printf ' N = %s |' "$n"; done; echo
  printf '|---|'; for n in $sizes; do printf -- '--:|'; done; echo
  for n in $sizes; do
    awk -v n="$n" 'BEGIN { print "# autosched task graph v1"; print "graph independent-" n;
      print "kernels POTRF SYRK TRSM GEMM"; split("POTRF SYRK TRSM GEMM", k, " ");
      for (t = 0; t < n; ++t) print "task " t " " k[t % 4 + 1] }' >"$work/independent-$n.dag"
  done
  for s in $schedulers; do
    printf '| %s |' "$s"
    for n in $sizes; do
      start=$(date +%s.%N)
      if timeout "$limit" build/release/bin/autosched dag simulate --graph "$work/independent-$n.dag" \
           --platform 2cpu+2gpu --scheduler "$s" >"$work/out.txt" 2>&1; then
        awk -v s="$s" -v a="$start" -v b="$(date +%s.%N)" '$1 == s {
          printf " %.2f s, %.3g/s |", b - a, $4 / (b - a) }' "$work/out.txt"
      else
        printf ' > %s s |' "$limit"
      fi
    done
    echo
  done
} | tee "$out"
