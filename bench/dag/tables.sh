#!/usr/bin/env bash
# The task-graph tables: mean makespan (± standard deviation over 100 noise
# samples) of every scheduler and the lower bound, for tiled Cholesky, LU
# and QR at T = 4..12, on 2cpu+2gpu, 4cpu, 4gpu and 3cpu+1gpu, at
# σ = 0, 0.1, 0.3, 0.5, with READYS's duration table. Simulated, so the
# numbers do not depend on the machine; it runs on two threads in well
# under a minute on a 2-core VM.
# Usage: bench/dag/tables.sh <out_dir>     (docs/results/dag holds the last run)
#   AUTOSCHED_BUILD_DIR=<dir>  build and run in that configured build
#                              directory instead of the release preset's
#   SAMPLES=<n>                noise samples per point (default 100)
set -euo pipefail
if [[ $# -ne 1 ]]; then
  echo "usage: $0 <out_dir>" >&2
  exit 2
fi
out=$1
cd "$(dirname "$0")/../.."
build=${AUTOSCHED_BUILD_DIR:-build/release}
if [[ -z ${AUTOSCHED_BUILD_DIR:-} ]]; then
  cmake --preset release >/dev/null
fi
cmake --build "$build" --target autosched_cli -j2 >/dev/null
start=$(date +%s)
AUTOSCHED_DB=off "$build/bin/autosched" dag bench \
  --graphs cholesky,lu,qr --tiles 4,6,8,10,12 --platforms 2cpu+2gpu,4cpu,4gpu,3cpu+1gpu \
  --sigmas 0,0.1,0.3,0.5 --samples "${SAMPLES:-100}" --schedulers all --durations readys --seed 1 \
  --jobs 2 --out "$out"
echo "tables.sh: $(($(date +%s) - start)) s" >&2
# The same means without the spreads, compact enough for docs/RESULTS.md
# (one table per graph × platform; rows T × σ; the best mean of a row in bold).
awk -F, '
  NR == 1 { next }
  {
    key = $1 "|" $3; row = $2 "|" $4
    if (!(key in seen_key)) { seen_key[key] = 1; keys[++nk] = key }
    if (!((key, row) in seen_row)) { seen_row[key, row] = 1; rows[key, ++nr[key]] = row }
    if (!($5 in seen_s)) { seen_s[$5] = 1; scheds[++ns] = $5 }
    mean[key, row, $5] = $7; lb[key, row] = $11
  }
  END {
    print "# Simulated makespans: means over the noise samples (makespans.md has the spreads)\n"
    for (k = 1; k <= nk; k++) {
      split(keys[k], kp, "|")
      printf "\n**%s on %s**\n\n| T | σ |", kp[1], kp[2]
      for (s = 1; s <= ns; s++) printf " %s |", scheds[s]
      printf " LB |\n|--:|--:|"
      for (s = 1; s <= ns; s++) printf "--:|"
      printf "--:|\n"
      for (r = 1; r <= nr[keys[k]]; r++) {
        row = rows[keys[k], r]; split(row, rp, "|")
        best = ""
        for (s = 1; s <= ns; s++) { v = mean[keys[k], row, scheds[s]] + 0; if (best == "" || v < best) best = v }
        printf "| %s | %s |", rp[1], rp[2]
        for (s = 1; s <= ns; s++) {
          v = mean[keys[k], row, scheds[s]] + 0
          cell = sprintf("%.0f", v)
          if (v <= best * (1 + 1e-12)) cell = "**" cell "**"
          printf " %s |", cell
        }
        printf " %.0f |\n", lb[keys[k], row]
      }
    }
  }' "$out/makespans.csv" > "$out/makespans-means.md"
