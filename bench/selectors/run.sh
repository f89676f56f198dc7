#!/usr/bin/env bash
# Regenerates docs/results/selectors.md: each selector's cost per loop
# instance on real loops (64 iterations: enough for `auto` to profile and rank
# its arms, as it does on real loops; small enough that the loop costs the same
# whatever arm runs), with the store off and on. The store is a per-process
# setting, so bench_selectors runs in 3 processes per setting, alternating;
# the table gives the median over those runs of each run's median.
# A third setting, "cold" (store off), empties the caches as an application's
# step does: 16 MiB written before each call and 16 MiB by the loop's body
# (--pollute-kib, --body-kib), so choose() and observe() both start cold. Its
# instances are slower (milliseconds): it runs a tenth as many (at least 600).
# Usage: bench/selectors/run.sh [instances]   (default 20000; run on an idle machine)
set -euo pipefail
cd "$(dirname "$0")/../.."
instances=${1:-20000}
cold_instances=$((instances / 10 > 600 ? instances / 10 : 600))
runs=3
cmake --preset release >/dev/null
cmake --build --preset release --target bench_selectors autosched_cli >/dev/null
bin=build/release/bin/bench_selectors
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
for ((r = 0; r < runs; ++r)); do
  AUTOSCHED_DB=off "$bin" --instances "$instances" --n 64 | tail -n +2 | sed 's/^/off,/' >>"$scratch/all.csv"
  AUTOSCHED_DB="$scratch/store$r.db" "$bin" --instances "$instances" --n 64 | tail -n +2 | sed 's/^/on,/' >>"$scratch/all.csv"
  AUTOSCHED_DB=off "$bin" --instances "$cold_instances" --n 64 --pollute-kib 16384 --body-kib 16384 | tail -n +2 |
    sed 's/^/cold,/' >>"$scratch/all.csv"
done
rows=$(sqlite3 "$scratch/store0.db" "SELECT count(*) FROM history")
mkdir -p docs/results
out=docs/results/selectors.md
{
  echo "### Selector cost per loop instance"
  echo
  echo "\`bench/selectors/run.sh $instances\` — $(date -u +%F), $(build/release/bin/autosched info | awk '/fingerprint/ {print "system " $2}'),"
  echo "$(nproc) cores; loops of 64 iterations, $instances instances per selector (the first tenth not counted),"
  echo "$runs processes per store setting; each cell is the median over the processes of each process's median."
  echo "*choose + observe*: the selector's own work as the decision point times it (median, and 90th percentile)."
  echo "*overhead*: \`parallel_for\` call time minus that of the fixed \`static\` schedule in the same process"
  echo "(selection, bookkeeping and, with the store on, posting the instance to the background writer)."
  echo "With the store on, each process's background writer kept all $rows instances in the store's history."
  echo "*caches emptied*: store off, $cold_instances instances, 16 MiB written before each call and 16 MiB by the"
  echo "loop's body, so that the selector starts cold in choose() and in observe(), as in an application's step."
  echo
  echo "| selector | choose + observe, store off (ns) | store on (ns) | caches emptied (ns) | overhead, store off (ns) | store on (ns) |"
  echo "|---|---:|---:|---:|---:|---:|"
  # all.csv: setting,"schedule",selection median,selection p90,call median,overhead
  awk -F'",' '{split($1, a, ",\""); split($2, v, ",");
               key = a[2]; order[key] = order[key] ? order[key] : ++n; names[order[key]] = key;
               for (c = 1; c <= 4; ++c) vals[key, a[1], c] = vals[key, a[1], c] " " v[c]}
       function median(list,   x, k, i, j, t) {
         k = split(list, x, " ");
         for (i = 1; i <= k; ++i) for (j = i + 1; j <= k; ++j) if (x[j] + 0 < x[i] + 0) { t = x[i]; x[i] = x[j]; x[j] = t }
         return x[int((k + 1) / 2)]
       }
       END {
         for (i = 1; i <= n; ++i) {
           s = names[i]; if (s == "static") continue;
           printf "| `%s` | %d (%d) | %d (%d) | %d (%d) | %d | %d |\n", s,
             median(vals[s, "off", 1]), median(vals[s, "off", 2]), median(vals[s, "on", 1]), median(vals[s, "on", 2]),
             median(vals[s, "cold", 1]), median(vals[s, "cold", 2]), median(vals[s, "off", 4]), median(vals[s, "on", 4])
         }
       }' "$scratch/all.csv"
} >"$out"
cat "$out"
