#!/usr/bin/env bash
# Simulator throughput: scheduler decisions per second over whole episodes
# of tiled Cholesky T = 12 (bench_dag_simulator, Google Benchmark), the
# median of 5 repetitions, printed as a markdown table for
# docs/results/dag/throughput.md. Run it on an idle machine.
# Usage: bench/dag/throughput.sh
#   AUTOSCHED_BUILD_DIR=<dir>  build and run in that configured build
#                              directory instead of the release preset's
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${AUTOSCHED_BUILD_DIR:-build/release}
if [[ -z ${AUTOSCHED_BUILD_DIR:-} ]]; then
  cmake --preset release >/dev/null
fi
cmake --build "$build" --target bench_dag_simulator -j2 >/dev/null
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores; $(uname -sr)"
echo
echo "| case | µs per episode | decisions per episode | decisions/s | tasks/s |"
echo "|---|--:|--:|--:|--:|"
# CSV columns: name, iterations, real_time, cpu_time, time_unit, …, then the
# counters in name order (decisions/episode, decisions/s, tasks/s).
"$build/bin/bench_dag_simulator" --benchmark_repetitions=5 --benchmark_report_aggregates_only=true \
  --benchmark_format=csv 2>/dev/null |
  awk -F, '$1 ~ /_median"$/ {
    name = $1; gsub(/"/, "", name); sub(/_median$/, "", name)
    printf "| %s | %.1f | %.0f | %.2f M | %.2f M |\n", name, $3, $(NF-2), $(NF-1) / 1e6, $NF / 1e6 }'
