#!/usr/bin/env bash
# The pinning manager's own cost (issue 16: < 1% of one core at a 0.1 s
# period with 64 threads): bench_pinning_overhead in both ways (registered
# threads in the process; another process's threads through /proc) and with
# busy and sleeping workers, RUNS times each, interleaved.
#
# Usage: bench/pinning/overhead.sh <out_dir>
# Writes <out_dir>/runs.csv (one row per run, the program's JSON fields) and
# summary.md (median and range of the manager's share of one core).
#   RUNS=<n>        repetitions per cell (default 3)
#   THREADS=<n>     managed threads (default 64)
#   PERIOD=<s>      the manager's period (default 0.1)
#   SECONDS_PER_RUN=<s>  measured time per run (default 10)
#   POLICY=<p>      learn (default), o2, round-robin, autopin or off
#   AUTOSCHED_BUILD_DIR=<dir>  configured build directory (default: the
#                   release preset's, configured here if absent)
set -euo pipefail
if [[ $# -ne 1 ]]; then
  echo "usage: $0 <out_dir>" >&2
  exit 2
fi
out=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
runs=${RUNS:-3}
threads=${THREADS:-64}
period=${PERIOD:-0.1}
seconds=${SECONDS_PER_RUN:-10}
policy=${POLICY:-learn}
build=${AUTOSCHED_BUILD_DIR:-$root/build/release}
if [[ -z ${AUTOSCHED_BUILD_DIR:-} ]]; then
  (cd "$root" && cmake --preset release >/dev/null)
fi
cmake --build "$build" --target bench_pinning_overhead -j2 >/dev/null
program=$build/bin/bench_pinning_overhead

mkdir -p "$out"
echo "way,work,run,threads,managed,period_s,wall_s,periods,cpu_s,share_of_core_pct,per_period_us" >"$out/runs.csv"
for ((run = 1; run <= runs; run++)); do
  for way in inside outside; do
    for work in busy idle; do
      line=$("$program" --threads "$threads" --period "$period" --seconds "$seconds" --policy "$policy" \
        --work "$work" --way "$way")
      echo "$line" >&2
      # key=value pairs → the CSV's columns, in its order
      get() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<" $line"; }
      echo "$way,$work,$run,$(get threads),$(get managed),$(get period),$(get wall_s),$(get periods),$(get cpu_s),$(get share_of_core_pct),$(get per_period_us)" >>"$out/runs.csv"
    done
  done
done

{
  echo "# The pinning manager's cost: $threads threads, period $period s, policy $policy, $runs runs of $seconds s"
  echo
  echo "Share of one core used by the manager thread (its schedstat CPU time / wall time), median [min, max];"
  echo "CPU time per period, median. Machine: $(nproc) CPUs, $(uname -r)."
  echo
  echo "| way | workers | managed threads | periods per run | share of one core (%) | CPU per period (µs) |"
  echo "|---|---|--:|--:|--:|--:|"
  for way in inside outside; do
    for work in busy idle; do
      awk -F, -v way="$way" -v work="$work" '
        NR > 1 && $1 == way && $2 == work { n++; s[n] = $10; c[n] = $11; m = $5; p += $8 }
        function median(a, k,   i, j, t) {
          for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
          return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
        }
        END {
          if (n == 0) exit
          lo = s[1]; hi = s[1]; for (i = 2; i <= n; i++) { if (s[i] < lo) lo = s[i]; if (s[i] > hi) hi = s[i] }
          printf "| %s | %s | %d | %.0f | %.3f [%.3f, %.3f] |", way, work, m, p / n, median(s, n), lo, hi
          printf " %.0f |\n", median(c, n)
        }' "$out/runs.csv"
    done
  done
  echo
  echo "Command: \`RUNS=$runs THREADS=$threads PERIOD=$period SECONDS_PER_RUN=$seconds POLICY=$policy bench/pinning/overhead.sh <dir>\`"
} >"$out/summary.md"
cat "$out/summary.md"
