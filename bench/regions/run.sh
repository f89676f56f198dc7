#!/usr/bin/env bash
# Regenerates docs/results/regions.md: what a tunable region's execution,
# tree inference and tree training cost (bench_regions, Google Benchmark, one
# process, store off), next to the goals of docs/regions.md and Apollo's
# numbers measured on this machine class (Apollo's published overheads). Each
# case runs $repetitions times; the table gives the median.
# Usage: bench/regions/run.sh   (run on an idle machine)
#   AUTOSCHED_BUILD_DIR=<dir>  build and run in that configured build
#                              directory instead of the release preset's
set -euo pipefail
cd "$(dirname "$0")/../.."
repetitions=5
build=${AUTOSCHED_BUILD_DIR:-build/release}
if [[ -z ${AUTOSCHED_BUILD_DIR:-} ]]; then
  cmake --preset release >/dev/null
fi
cmake --build "$build" --target bench_regions autosched_cli >/dev/null
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
load=$(cut -d' ' -f1-3 /proc/loadavg)
AUTOSCHED_DB=off "$build/bin/bench_regions" --benchmark_repetitions=$repetitions \
  --benchmark_report_aggregates_only=true --benchmark_out="$scratch/out.json" --benchmark_out_format=json \
  >"$scratch/console.txt" 2>&1 || { cat "$scratch/console.txt" >&2; exit 1; }

# Google Benchmark's JSON has one "key": value per line; keep each median as
# "case ns explored depth" ("-" for a counter a case does not report).
awk '/^ *\{ *$/ { name = ""; aggregate = ""; t = ""; unit = ""; explored = "-"; depth = "-" }
     /"run_name":/       { name = $2 }
     /"aggregate_name":/ { aggregate = $2 }
     /"real_time":/      { t = $2 }
     /"time_unit":/      { unit = $2 }
     /"explored":/       { explored = $2 }
     /"depth":/          { depth = $2 }
     /^ *\},? *$/ {
       gsub(/[",]/, "", name); gsub(/[",]/, "", aggregate); gsub(/[",]/, "", unit)
       gsub(/,/, "", t); gsub(/,/, "", explored); gsub(/,/, "", depth)
       if (aggregate != "median") next
       scale = unit == "us" ? 1e3 : unit == "ms" ? 1e6 : unit == "s" ? 1e9 : 1
       if (explored != "-") explored = sprintf("%d", explored)
       if (depth != "-") depth = sprintf("%d", depth)
       printf "%s %.6g %s %s\n", name, t * scale, explored, depth
     }' "$scratch/out.json" >"$scratch/medians.txt"

mkdir -p docs/results
out=docs/results/regions.md
{
  echo "### Tunable regions: execution, inference and training cost"
  echo
  echo "\`bench/regions/run.sh\` — $(date -u +%F), $("$build/bin/autosched" info | awk '/fingerprint/ {print "system " $2}'),"
  echo "$(nproc) cores, load average $load at the start; \`bench_regions\` (Google Benchmark), one process,"
  echo "\`AUTOSCHED_DB=off\`; each case repeated $repetitions times, the table gives the median. Shape of the"
  echo "reference's Apollo runs: F = 8 features, P = 8 variants, depth-2 trees; labels are the argmin of 8 random"
  echo "linear functions of the features, so the trees are real ones. The region and inference cases cycle over"
  echo "128 feature vectors (one fixed vector would let the branch predictor learn the path). *÷ empty*: the"
  echo "median over that of two clock reads around nothing (the floor of any timed execution), which cancels"
  echo "much of the machine's noise."
  echo "Apollo: its published overheads (upstream develop, Release, measured on this machine class)."
  echo
  echo "| case | what is timed | median | ÷ empty | goal | met | Apollo |"
  echo "|---|---|---:|---:|---:|:-:|---:|"
  awk 'NR == FNR { ns[$1] = $2; explored[$1] = $3; depth[$1] = $4; next }
       function show(v) { return v >= 1e5 ? sprintf("%.2f ms", v / 1e6) : v >= 1e3 ? sprintf("%.1f µs", v / 1e3) : sprintf("%.1f ns", v) }
       {
         split($0, f, "|")  # case | what | goal in ns (0: none) | goal text | Apollo
         c = f[1]
         if (!(c in ns)) { printf "| `%s` | %s | missing | | %s | | %s |\n", c, f[2], f[4], f[5]; next }
         ratio = ns["empty_scope"] > 0 && ns[c] < 1e3 ? sprintf("%.1f", ns[c] / ns["empty_scope"]) : ""
         met = f[3] > 0 ? (ns[c] <= f[3] ? "yes" : "**no**") : ""
         printf "| `%s` | %s | %s | %s | %s | %s | %s |\n", c, f[2], show(ns[c]), ratio, f[4], met, f[5]
       }' "$scratch/medians.txt" - <<'EOF'
empty_scope|two `now_ns()` reads|0||
exploit_iteration|`begin(8 features)` + `variant()` + `end()`, trained dtree|150|≤ 150 ns|69–87 ns
exploit_iteration_rforest|the same, trained rforest (10 trees, depth 4; its answer is kept per vector)|150|≤ 150 ns|105–118 ns
exploit_set_feature|`begin()` + 8 `set_feature()` + `variant()` + `end()`, trained dtree|150|≤ 150 ns|69–87 ns
explore_iteration|the same on a `round-robin` region (records every sample)|0||97–180 ns
dtree_inference|`DecisionTree::predict`, depth 2, trained on N = 128|5|≤ 5 ns|3.6–8 ns
rforest_inference|`RandomForest::predict`, 10 trees of depth 4|30|≤ 30 ns|31–39 ns
dtree_training/16|`DecisionTree::train`, depth 2, N = 16 rows|0||
dtree_training/128|the same, N = 128 rows|100000|≤ 100 µs|1.55 ms
dtree_training/1000|the same, N = 1000 rows|0||
EOF
  echo
  awk '$1 == "exploit_iteration" { printf "While timed, the exploit case explored %s times", $3 }
       $1 == "dtree_inference"   { printf "; the inference tree has depth %s", $4 }
       $1 == "dtree_training/128" { printf " and the N = 128 training tree depth %s.\n", $4 }' "$scratch/medians.txt"
  echo "Apollo's other training points have other shapes: 28 µs at N = 16 (F = 1, P = 4), 21.9 ms at N = 1000 (F = 4)."
  if grep -q 'Library was built as DEBUG' "$scratch/console.txt"; then
    echo "The installed Google Benchmark library says it was built as debug; that affects its own loop, not the"
    echo "code measured (autosched, Release)."
  fi
} >"$out"
cat "$out"
