#!/usr/bin/env bash
# stream-triad alone at 10 repetitions (docs/RESULTS.md, "auto v2", "stream-triad at
# ten repetitions"): the one loop the 3-repetition campaign left above 5%. Its arms
# differ by less than the process-to-process spread of this memory-bound loop
# (10-20%), so three repetitions cannot tell choice from luck, and the per-step
# Oracle (a minimum over many noisy arms) is biased low. 22 arms: the campaign's 24
# without ss and static-steal, never the per-step Oracle arm of any step in the
# 3-repetition campaign (40x and 5.7x a step). About 20 minutes on the 2-core
# development machine; run it on an otherwise idle machine.
#   usage: bench/campaigns/stream-triad-campaign.sh [OUT]   (default build/campaign-v2-stream)
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-build/campaign-v2-stream}
source bench/campaigns/copy_build.sh
copy_release_build stream-triad-campaign
arms='static,tss,auto-llvm,guided-llvm,mfac2,awf-b,awf-c,awf-d,awf-e,maf'
arms+=',static+exp,ss+exp,tss+exp,auto-llvm+exp,guided-llvm+exp,mfac2+exp,static-steal+exp'
arms+=',awf-b+exp,awf-c+exp,awf-d+exp,awf-e+exp,maf+exp'
"$bin/autosched" bench --apps stream-triad --arms "$arms" --references none \
  --methods 'auto;ExhaustiveSel+exp' --warm auto --reps 10 --steps 200 --threads 2 --out "$out"
"$bin/autosched" report "$out" --plot "Oracle;auto"
dest=docs/results/campaign-v2-stream
mkdir -p "$dest"
cp "$out/summary.md" "$out/metrics.csv" "$out/selection-stream-triad-triad-auto.png" "$dest/"
echo "stream-triad-campaign: results in $out; $dest updated"
