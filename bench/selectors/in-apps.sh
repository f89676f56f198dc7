#!/usr/bin/env bash
# What a selector costs per loop instance inside the six apps, where each
# step's loop empties the caches between two decisions (bench_selectors'
# tiny loops keep them warm unless told otherwise). Each app runs 200 steps
# with `auto` and with ExhaustiveSel+exp (the cheapest published selector,
# for the floor: two clock reads and two virtual calls, cold), store off, in
# alternation, `reps` processes each; the table gives per loop the median over
# the processes of each process's median selection_ns (steps 20+, from
# --record). Prints a Markdown table; takes about 4 minutes per repetition.
# Usage: bench/selectors/in-apps.sh [reps]   (default 3; run on an idle machine)
set -euo pipefail
cd "$(dirname "$0")/../.."
reps=${1:-3}
cmake --preset release >/dev/null
cmake --build --preset release --target autosched-mandelbrot autosched-nbody-gravity autosched-short-range-force \
  autosched-triangle-count autosched-pisolver autosched-stream-triad >/dev/null
bin=build/release/bin
apps="mandelbrot nbody-gravity short-range-force triangle-count pisolver stream-triad"
selectors="auto auto:exhaustive,chunk=expert"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
for ((r = 1; r <= reps; ++r)); do
  for app in $apps; do
    for selector in $selectors; do
      AUTOSCHED_DB=off "$bin/autosched-$app" --steps 200 --schedule "$selector" --record "$scratch/record.csv" --quiet \
        >/dev/null
      # record.csv: step,loop,time_ns,arm,explored,selection_ns,cut_short
      awk -F, -v sel="$selector" 'NR > 1 && $1 >= 20 { print sel "\t" $2 "\t" $6 }' "$scratch/record.csv" |
        sort -t$'\t' -k2,2 -k3,3n |
        awk -F'\t' '{ key = $1 "\t" $2; v[key, ++n[key]] = $3 }
                    END { for (k in n) print k "\t" v[k, int((n[k] + 1) / 2)] }' >>"$scratch/medians.tsv"
    done
  done
done
echo "### Selector cost per instance inside the apps"
echo
echo "\`bench/selectors/in-apps.sh $reps\` — $(date -u +%F), $(nproc) cores, store off, 200 steps (steps 20+ counted),"
echo "$reps processes per app and selector; median over the processes of each process's median, ns (range)."
echo
echo "| loop | auto | ExhaustiveSel+exp |"
echo "|---|---:|---:|"
sort -t$'\t' -k2,2 -k1,1 "$scratch/medians.tsv" |
  awk -F'\t' '{ k = $2 SUBSEP $1; x[k] = x[k] " " $3; loops[$2] = 1 }
       function summary(list,   a, m, i, j, t) {
         m = split(list, a, " ");
         for (i = 1; i <= m; ++i) for (j = i + 1; j <= m; ++j) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
         return sprintf("%d (%d–%d)", a[int((m + 1) / 2)], a[1], a[m])
       }
       END { for (l in loops) printf "| %s | %s | %s |\n", l, summary(x[l SUBSEP "auto"]),
                                      summary(x[l SUBSEP "auto:exhaustive,chunk=expert"]) }' | sort
