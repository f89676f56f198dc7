#!/usr/bin/env bash
# The mean over apps of each selector's distance to the per-step Oracle, from
# the CSV files quality.sh writes (one per app in the same out-dir): the
# issue's "auto ≤ 5 % and the lowest on the mean" is read off this table.
#
#   bench/mpi/quality-mean.sh <out-dir>      (reads <out-dir>/*.csv, writes <out-dir>/mean.md)
set -euo pipefail
out=$1
shopt -s nullglob
files=("$out"/*.csv)
((${#files[@]})) || { echo "quality-mean.sh: no <app>.csv in $out (run bench/mpi/quality.sh first)" >&2; exit 1; }
awk -F, '
  FNR == 1 { app = FILENAME; sub(/.*\//, "", app); sub(/\.csv$/, "", app); apps[++napps] = app; next }
  $2 == "selector" { if (!($1 in seen)) { seen[$1] = 1; names[++nn] = $1 } pct[$1, app] = $4; sum[$1] += $4; cnt[$1]++ }
  END {
    printf "| selector"; for (a = 1; a <= napps; a++) printf " | %s", apps[a]; printf " | mean |\n|---"
    for (a = 0; a <= napps; a++) printf "|---:"; printf "|\n"
    best = ""
    for (j = 1; j <= nn; j++) { n = names[j]; if (cnt[n] == napps && (best == "" || sum[n] < sum[best])) best = n }
    for (j = 1; j <= nn; j++) {
      n = names[j]; printf "| %s", (n == best ? "**" n "**" : n)
      for (a = 1; a <= napps; a++) printf " | %s", ((n, apps[a]) in pct) ? sprintf("%.1f%%", pct[n, apps[a]]) : "–"
      printf " | %s |\n", cnt[n] == napps ? sprintf("%.1f%%", sum[n] / napps) : "–"
    }
    printf "\nLowest mean: %s (over %d apps).\n", best, napps
  }' "${files[@]}" | tee "$out/mean.md"
