#!/usr/bin/env bash
# What a selector costs per loop instance inside the six apps, where each
# step's loop empties the caches between two decisions (bench_selectors'
# tiny loops keep them warm unless told otherwise). Each app runs 200 steps
# per selector, store off, in alternation, `reps` processes each; per loop
# the table gives, over the processes, the median of each process's median
# selection_ns and of each process's mean (steps 20+, from --record). The
# mean is the number to compare: a settled auto learns in batches of
# 8 to 32 (AutoConfig::settled_batch), so most of its instances cost the selector
# nothing and the batch's last a batch's worth. Prints a Markdown table;
# about a minute per selector and repetition.
# Usage: bench/selectors/in-apps.sh [reps] [selectors]
#   (default 3 and "auto auto,batch=1 auto:exhaustive,chunk=expert"; run on an idle machine)
set -euo pipefail
cd "$(dirname "$0")/../.."
reps=${1:-3}
selectors=${2:-"auto auto,batch=1 auto:exhaustive,chunk=expert"}
cmake --preset release >/dev/null
cmake --build --preset release --target autosched-mandelbrot autosched-nbody-gravity autosched-short-range-force \
  autosched-triangle-count autosched-pisolver autosched-stream-triad >/dev/null
bin=build/release/bin
apps="mandelbrot nbody-gravity short-range-force triangle-count pisolver stream-triad"
# An instance whose selection took this long or more re-ranked the arms
# (simulating all of them, about 150 us at P = 2; a batch's learning with
# cold caches is a few us): the "without rankings" mean leaves them out,
# which is what issue 12's cost goal ("when not re-ranking") measures.
ranking_ns=50000
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
        awk -F'\t' -v ranking="$ranking_ns" '
          { key = $1 "\t" $2; v[key, ++n[key]] = $3; s[key] += $3
            if ($3 < ranking) { s2[key] += $3; n2[key]++ } }
          END { for (k in n) print k "\t" v[k, int((n[k] + 1) / 2)] "\t" s[k] / n[k] "\t" (n2[k] ? s2[k] / n2[k] : 0) }' \
          >>"$scratch/medians.tsv"
    done
  done
done
echo "### Selector cost per instance inside the apps"
echo
echo "\`bench/selectors/in-apps.sh $reps\` — $(date -u +%F), $(nproc) cores, store off, 200 steps (steps 20+ counted),"
echo "$reps processes per app and selector; per loop, over the processes, the median of the per-process"
echo "medians and of the per-process means, ns (range of the means); \"without rankings\" leaves out instances"
echo "whose selection took ≥ $((ranking_ns / 1000)) µs (a re-ranking of all arms)."
echo
header="| loop |"
rule="|---|"
for selector in $selectors; do
  header="$header $selector median | $selector mean | $selector mean without rankings |"
  rule="$rule---:|---:|---:|"
done
echo "$header"
echo "$rule"
awk -F'\t' -v list="$selectors" '
  function middle(xs,   a, m, i, j, t) {
    m = split(xs, a, " ");
    for (i = 1; i <= m; ++i) for (j = i + 1; j <= m; ++j) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
    lo = a[1]; hi = a[m];
    return a[int((m + 1) / 2)]
  }
  { k = $2 SUBSEP $1; med[k] = med[k] " " $3; avg[k] = avg[k] " " $4; calm[k] = calm[k] " " $5; loops[$2] = 1 }
  END {
    n = split(list, sel, " ");
    for (l in loops) {
      line = "| " l " |";
      for (i = 1; i <= n; ++i) {
        k = l SUBSEP sel[i];
        line = line sprintf(" %d |", middle(med[k]));
        mean = middle(avg[k]);
        line = line sprintf(" %d (%d–%d) |", mean, lo, hi);
        mean = middle(calm[k]);
        line = line sprintf(" %d (%d–%d) |", mean, lo, hi);
      }
      print line
    }
  }' "$scratch/medians.tsv" | sort
