#!/usr/bin/env bash
# Does a level reference measure the process's speed, or also how unevenly the
# host feeds the threads? (docs/campaigns.md, "Why balanced"). Runs
# stream-triad under `static` and `mfac2` with --level-reference, once on an
# idle machine and once with a busy loop pinned to the last CPU (one thread of
# the team then runs slower), for every binary directory given, interleaved,
# ROUNDS rounds. Prints, per binary, load and arm, the median over rounds of
# each process's median loop time, reference time and loop ÷ reference (steps
# 2+). A reference that waits for the slower thread (static) makes a balancing
# arm's loop ÷ reference drop well below 1 under the load; a balanced one keeps
# it near 1 and leaves static's above 1. Run on an otherwise idle machine.
#   usage: bench/campaigns/reference-asymmetry.sh ROUNDS BIN_DIR [BIN_DIR ...]
#   e.g.   bench/campaigns/reference-asymmetry.sh 3 build/release/bin
set -euo pipefail
rounds=${1:?usage: reference-asymmetry.sh ROUNDS BIN_DIR [BIN_DIR ...]}
shift
(($# > 0)) || { echo "reference-asymmetry: name at least one directory holding autosched-stream-triad" >&2; exit 2; }
for dir in "$@"; do
  [[ -x $dir/autosched-stream-triad ]] || { echo "reference-asymmetry: $dir/autosched-stream-triad missing" >&2; exit 1; }
done
command -v taskset >/dev/null || { echo "reference-asymmetry: taskset (util-linux) is needed" >&2; exit 1; }
tmp=$(mktemp -d)
busy=""
cleanup() { [[ -n $busy ]] && kill "$busy" 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT
last_cpu=$(($(nproc) - 1))
# one_process DIR ARM: "loop_ms ref_ms" medians over steps 2+ of one process.
one_process() {
  "$1/autosched-stream-triad" --threads 2 --steps 40 --schedule "$2" --level-reference --quiet --record "$tmp/r.csv" >/dev/null
  awk -F, 'NR > 1 && $1 >= 2 { if ($2 ~ /@reference$/) print "r", $3; else print "l", $3 }' "$tmp/r.csv" | sort -k1,1 -k2,2n |
    awk '{v[$1] = v[$1] " " $2; n[$1]++} END {split(substr(v["l"], 2), l, " "); split(substr(v["r"], 2), r, " ");
         printf "%.3f %.3f\n", l[int((n["l"] + 1) / 2)] / 1e6, r[int((n["r"] + 1) / 2)] / 1e6}'
}
: >"$tmp/rows"
for load in idle busy; do
  if [[ $load == busy ]]; then
    taskset -c "$last_cpu" sh -c 'while :; do :; done' &
    busy=$!
  fi
  for ((round = 1; round <= rounds; ++round)); do
    for arm in static mfac2; do
      for dir in "$@"; do
        echo "$dir $load $arm $(one_process "$dir" "$arm")" >>"$tmp/rows"
      done
    done
  done
  if [[ -n $busy ]]; then kill "$busy"; wait "$busy" 2>/dev/null || true; busy=""; fi
done
printf '| binaries | load | arm | loop (ms) | reference (ms) | loop ÷ reference |\n|---|---|---|---:|---:|---:|\n'
python3 - "$tmp/rows" <<'PY'
import collections, statistics, sys
rows = collections.defaultdict(list)
for line in open(sys.argv[1]):
    d, load, arm, loop, ref = line.split()
    rows[(d, load, arm)].append((float(loop), float(ref)))
for (d, load, arm), v in rows.items():
    med = lambda xs: statistics.median(xs)
    print(f"| {d} | {load} | {arm} | {med([l for l, _ in v]):.2f} | {med([r for _, r in v]):.2f} | {med([l / r for l, r in v]):.3f} |")
PY
