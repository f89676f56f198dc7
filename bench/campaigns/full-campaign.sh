#!/usr/bin/env bash
# The published campaign of docs/RESULTS.md: all six apps under the 24 Oracle
# arms, the OpenMP references and every method, 3 repetitions of 200 steps,
# plus a warm-start phase; then the report, and the files docs/RESULTS.md
# shows copied into docs/results/campaign/. About 95 minutes on the 2-core
# development machine; run it on an otherwise idle machine.
#   usage: bench/campaigns/full-campaign.sh [OUT]   (default build/campaign)
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-build/campaign}
bin=build/release/bin
[[ -x $bin/autosched ]] || { echo "full-campaign: $bin/autosched missing; run ./scripts/setup.sh first" >&2; exit 1; }
"$bin/autosched" bench --apps all --reps 3 --steps 200 --warm "auto;QLearn-LT;ExhaustiveSel" --out "$out"
"$bin/autosched" report "$out" --plot "Oracle;auto;ExhaustiveSel;QLearn-LT"
dest=docs/results/campaign
mkdir -p "$dest"
cp "$out/summary.md" "$out/metrics.csv" "$out/heatmap.png" "$dest/"
cp "$out/selection-mandelbrot-L1-auto.png" "$out/selection-triangle-count-count-auto.png" \
   "$out/selection-triangle-count-count-QLearn-LT.png" "$dest/"
echo "full-campaign: results in $out; docs/results/campaign updated"
