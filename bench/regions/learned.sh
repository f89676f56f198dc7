#!/usr/bin/env bash
# What region_algorithm learns from real timings on this machine: the sort
# each array size ends with after a run, over several runs on fresh stores.
# The tests check the example's learning cycle on planted costs
# (tests/examples); whether insertion sort really wins at n = 8 and radix sort
# at n = 32768 (2x and 6x ahead of merge sort on the 2-core reference VM) is a
# property of the machine, reported here and judged by nobody but the reader.
# Usage: bench/regions/learned.sh [runs]   (default 5; run on an idle machine)
#   AUTOSCHED_BUILD_DIR=<dir>  build and run in that configured build
#                              directory instead of the release preset's
set -euo pipefail
cd "$(dirname "$0")/../.."
runs=${1:-5}
build=${AUTOSCHED_BUILD_DIR:-build/release}
if [[ -z ${AUTOSCHED_BUILD_DIR:-} ]]; then
  cmake --preset release >/dev/null
fi
cmake --build "$build" --target region_algorithm >/dev/null
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

echo "region_algorithm on real timings: $runs runs, $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at the start"
for ((r = 1; r <= runs; ++r)); do
  AUTOSCHED_DB="$scratch/store-$r.db" "$build/bin/region_algorithm" --quiet >"$scratch/run-$r.txt"
  grep -h '^learned ' "$scratch/run-$r.txt" | cut -d' ' -f2-4
done | sort -t= -k2n | uniq -c | awk '
  BEGIN { expected["n=8"] = "insertion"; expected["n=32768"] = "radix" }
  { note = ($2 in expected) ? ($4 == expected[$2] ? "  (as on the reference VM)" : "  (the reference VM learns " expected[$2] ")") : ""
    printf "  %-8s -> %-10s in %d of '"$runs"' runs%s\n", $2, $4, $1, note }'
