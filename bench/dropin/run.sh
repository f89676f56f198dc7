#!/usr/bin/env bash
# Regenerates docs/results/dropin-dispatch.md: the per-chunk dispatch cost of
# an unmodified OpenMP program's schedule(runtime) loop (bench_dropin: almost
# empty body, 2 threads, chunk 1), four ways:
#   (a) g++ build, libgomp natively,          OMP_SCHEDULE=dynamic,1
#   (b) the same binary under the drop-in,    AUTOSCHED_SCHEDULE=ss,chunk=1
#   (c) clang build, LLVM libomp natively,    OMP_SCHEDULE=dynamic,1
#   (d) the same binary under the drop-in,    AUTOSCHED_SCHEDULE=ss,chunk=1
# and the goals of issue 11: (b)/(a) <= 1.1, (d)/(c) <= 0.1. One process per
# measurement; the four alternate within a round (forwards, then backwards in
# the next round) so drift of this shared machine hits all of them alike; each
# cell is the median over the rounds of each process's median.
# Usage: bench/dropin/run.sh [rounds]   (default 9; run on an idle machine)
# AUTOSCHED_OMP_LIBRARY picks the drop-in (default: the release build's, for
# both binaries: it finds the program's runtime with dlsym(RTLD_NEXT)).
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${1:-9}
for preset in release clang-release; do cmake --preset "$preset" >/dev/null; done
cmake --build --preset release --target bench_dropin autosched_omp >/dev/null
cmake --build --preset clang-release --target bench_dropin >/dev/null
dropin=$(realpath "${AUTOSCHED_OMP_LIBRARY:-build/release/autosched/omp/libautosched-omp.so}")
declare -A binary=([a]=build/release/bin/bench_dropin [b]=build/release/bin/bench_dropin
                   [c]=build/clang-release/bin/bench_dropin [d]=build/clang-release/bin/bench_dropin)
args=(--threads 2 --n 262144 --instances 4 --reps 9)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
load_before=$(cut -d' ' -f1-3 /proc/loadavg)

# One measurement: prints the process's median ns/chunk, or nothing when the
# run failed (its message is kept in $scratch/<label>.err).
measure() {
  local label=$1 out
  case $label in
    a | c) out=$(env -u AUTOSCHED_SCHEDULE -u LD_PRELOAD OMP_SCHEDULE=dynamic,1 "${binary[$label]}" "${args[@]}" 2>>"$scratch/$label.err") ;;
    b | d) out=$(env -u OMP_SCHEDULE LD_PRELOAD="$dropin" AUTOSCHED_SCHEDULE=ss,chunk=1 AUTOSCHED_DB=off \
                 "${binary[$label]}" "${args[@]}" 2>>"$scratch/$label.err") ;;
  esac || return 0
  echo "$out" | awk '$3 == "ns/chunk" {print $4}'
}
declare -A runs=([a]="" [b]="" [c]="" [d]="")
for ((r = 0; r < rounds; ++r)); do
  order=(a b c d)
  if ((r % 2)); then order=(d c b a); fi
  for label in "${order[@]}"; do
    v=$(measure "$label")
    [[ -n "$v" ]] && runs[$label]+=" $v"
  done
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

median() { tr ' ' '\n' | { grep -v '^$' || true; } | sort -g | awk '{v[NR]=$1} END {if (NR) print (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2)}'; }
declare -A med
for label in a b c d; do med[$label]=$(echo "${runs[$label]}" | median); done
ratio() {  # ratio NUM DEN GOAL: the ratio of the medians, and the median of the per-round ratios
  local num=${med[$1]} den=${med[$2]} paired
  if [[ -z "$num" || -z "$den" ]]; then
    echo "| ($1)/($2) | not measured | | ≤ $3 | — |"
    return
  fi
  paired=$(paste <(echo "${runs[$1]}" | tr ' ' '\n' | grep -v '^$') <(echo "${runs[$2]}" | tr ' ' '\n' | grep -v '^$') |
    awk 'NF == 2 {printf " %.3f", $1 / $2}')
  awk -v n="$num" -v d="$den" -v g="$3" -v a="$1" -v b="$2" -v p="$(echo "$paired" | median)" -v all="$paired" \
    'BEGIN {r = n / d; printf "| (%s)/(%s) | %.3f | %s (%s) | ≤ %s | %s |\n", a, b, r, p, substr(all, 2), g, (r <= g ? "met" : "not met")}'
}
cell() { [[ -n "${med[$1]}" ]] && echo "${med[$1]}" || echo "not measured"; }
why() {  # the first line of a failed configuration's message
  [[ -n "${med[$1]}" ]] && return 0
  local line
  line=$(grep -m1 . "$scratch/$1.err" 2>/dev/null || true)
  echo "(${line:-no output})"
}

mkdir -p docs/results
out=docs/results/dropin-dispatch.md
{
  echo "### Drop-in dispatch: an unmodified schedule(runtime) loop, chunk 1, 2 threads"
  echo
  echo "\`bench/dropin/run.sh $rounds\` — $(date -u '+%F %H:%M UTC'), this machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'),"
  echo "$(nproc) cores (a shared VM; load average $load_before before, $load_after after); 2 real threads."
  echo "bench_dropin ${args[*]}: each process times 9 repetitions of 4 loop instances of 262144"
  echo "iterations (after one warm-up) and prints its median ns/chunk; $rounds rounds of the four processes,"
  echo "alternating order. Under the drop-in the chunk count is the drop-in's own (a run in which it did not take"
  echo "every instance fails instead of giving a number). Drop-in: \`$(realpath --relative-to=. "$dropin")\`."
  echo
  echo "| | build | how | ns/chunk per round | median ns/chunk |"
  echo "|---|---|---|---|---:|"
  echo "| (a) | $(g++ -dumpfullversion | sed "s/^/g++ /"), libgomp | OMP_SCHEDULE=dynamic,1 |${runs[a]} | $(cell a) |"
  echo "| (b) | same binary | LD_PRELOAD=libautosched-omp.so AUTOSCHED_SCHEDULE=ss,chunk=1 |${runs[b]} $(why b) | $(cell b) |"
  echo "| (c) | $(clang++ --version | head -1 | sed "s/ (.*//; s/Debian //"), LLVM libomp | OMP_SCHEDULE=dynamic,1 |${runs[c]} | $(cell c) |"
  echo "| (d) | same binary | LD_PRELOAD=libautosched-omp.so AUTOSCHED_SCHEDULE=ss,chunk=1 |${runs[d]} $(why d) | $(cell d) |"
  echo
  echo "| | ratio of the medians | median of the per-round ratios (each round) | goal | by the ratio of the medians |"
  echo "|---|---:|---|---|---|"
  ratio b a 1.1
  ratio d c 0.1
} >"$out"
cat "$out"
echo "wrote $out"
