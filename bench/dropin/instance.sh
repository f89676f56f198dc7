#!/usr/bin/env bash
# The per-instance cost of an unmodified OpenMP program's tiny
# schedule(runtime) loop (bench_dropin --per-instance: 2 iterations a thread,
# an empty body): what starting and ending one loop instance costs, natively
# and under the drop-in, in ns per instance.
#   shapes:  region  `#pragma omp parallel for schedule(runtime)`, a region per instance
#            inner   K `#pragma omp for schedule(runtime)` inside one `#pragma omp parallel`
#   configs: native-static   OMP_SCHEDULE=static
#            native-dynamic  OMP_SCHEDULE=dynamic,1 (libgomp's default for schedule(runtime))
#            dropin-static   the drop-in, AUTOSCHED_SCHEDULE=static, AUTOSCHED_DB=off
#            dropin-auto     the drop-in, its default `auto`, AUTOSCHED_DB=off
#            dropin-auto-db  the drop-in, `auto` with a store (one scratch store, warm after round 1)
# for the g++ build (libgomp) and the clang build (LLVM libomp). One process
# per measurement, the configurations alternating within a round (forwards,
# then backwards), each cell the median over the rounds of each process's
# median; then the ratios of the drop-in's medians to the native ones (goal:
# <= 1.0). With INSTRUCTIONS=1 (valgrind needed) it also counts the
# instructions per instance with callgrind, 1 thread (no waiting in it), as
# the difference of two runs (1000 and 3000 instances a repetition): a
# measure a shared machine does not disturb.
#
# Usage: bench/dropin/instance.sh [rounds] [threads]   (default 5 rounds, 2 threads)
# BENCH_DROPIN_GNU, BENCH_DROPIN_CLANG: the two bench_dropin binaries (default
# build/release/bin and build/clang-release/bin, built here when not given);
# AUTOSCHED_OMP_LIBRARY: the drop-in (default the release build's, for both);
# AUTOSCHED_OMP_BASELINE: another drop-in (an earlier build) to compare with:
# its static, auto and auto with a store run in the same rounds, as "before ...".
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${1:-5}
threads=${2:-2}
if [[ -z "${BENCH_DROPIN_GNU:-}" || -z "${BENCH_DROPIN_CLANG:-}" ]]; then
  for preset in release clang-release; do cmake --preset "$preset" >/dev/null; done
  cmake --build --preset release --target bench_dropin autosched_omp >/dev/null
  cmake --build --preset clang-release --target bench_dropin >/dev/null
fi
declare -A binary=([gnu]=${BENCH_DROPIN_GNU:-build/release/bin/bench_dropin}
                   [clang]=${BENCH_DROPIN_CLANG:-build/clang-release/bin/bench_dropin})
dropin=$(realpath "${AUTOSCHED_OMP_LIBRARY:-build/release/autosched/omp/libautosched-omp.so}")
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
configs=(native-static native-dynamic dropin-static dropin-auto dropin-auto-db)
baseline=""
if [[ -n "${AUTOSCHED_OMP_BASELINE:-}" ]]; then
  baseline=$(realpath "$AUTOSCHED_OMP_BASELINE")
  configs+=(before-static before-auto before-auto-db)
fi
builds=(gnu clang)
shapes=(region inner)
clean=(-u OMP_SCHEDULE -u AUTOSCHED_SCHEDULE -u AUTOSCHED_SCHEDULE_FOR -u AUTOSCHED_OMP_REPORT -u LD_PRELOAD
       -u AUTOSCHED_OMP_LOOPS -u AUTOSCHED_TRACE)

# The environment of one configuration, as `env` arguments.
config_env() {
  case $1 in
    native-static) echo "OMP_SCHEDULE=static" ;;
    native-dynamic) echo "OMP_SCHEDULE=dynamic,1" ;;
    dropin-static) echo "LD_PRELOAD=$dropin AUTOSCHED_SCHEDULE=static AUTOSCHED_DB=off" ;;
    dropin-auto) echo "LD_PRELOAD=$dropin AUTOSCHED_DB=off" ;;
    dropin-auto-db) echo "LD_PRELOAD=$dropin AUTOSCHED_DB=$scratch/store-$2-$3.db" ;;
    before-static) echo "LD_PRELOAD=$baseline AUTOSCHED_SCHEDULE=static AUTOSCHED_DB=off" ;;
    before-auto) echo "LD_PRELOAD=$baseline AUTOSCHED_DB=off" ;;
    before-auto-db) echo "LD_PRELOAD=$baseline AUTOSCHED_DB=$scratch/before-store-$2-$3.db" ;;
  esac
}

# One measurement: the process's median ns/instance, or nothing when it failed.
measure() {  # build shape config
  local out
  # shellcheck disable=SC2046
  out=$(env "${clean[@]}" $(config_env "$3" "$1" "$2") "${binary[$1]}" --per-instance "$2" --threads "$threads" \
        2>>"$scratch/$1-$2-$3.err") || return 0
  echo "$out" | awk '$3 == "ns/instance" {print $4}'
}

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
declare -A runs
for ((r = 0; r < rounds; ++r)); do
  order=("${configs[@]}")
  if ((r % 2)); then
    order=()
    for ((i = ${#configs[@]} - 1; i >= 0; --i)); do order+=("${configs[i]}"); done
  fi
  for b in "${builds[@]}"; do
    for s in "${shapes[@]}"; do
      for c in "${order[@]}"; do
        v=$(measure "$b" "$s" "$c")
        [[ -n "$v" ]] && runs[$b,$s,$c]+=" $v"
      done
    done
  done
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

median() { tr ' ' '\n' | { grep -v '^$' || true; } | sort -g | awk '{v[NR]=$1} END {if (NR) print (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2)}'; }
cell() { local m; m=$(echo "${runs[$1]:-}" | median); echo "${m:-failed}"; }
ratio() { awk -v n="$1" -v d="$2" 'BEGIN {if (n + 0 > 0 && d + 0 > 0) printf "%.2f", n / d; else printf "-"}'; }

echo "### Drop-in per-instance cost: a tiny schedule(runtime) loop ($((2 * threads)) iterations, $threads threads)"
echo
echo "\`bench/dropin/instance.sh $rounds $threads\` — $(date -u '+%F %H:%M UTC'), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'),"
echo "$(nproc) cores (load average $load_before before, $load_after after). Each process: 9 repetitions of 2000"
echo "instances after a warm-up, its median ns/instance; each cell: the median over $rounds rounds. Drop-in: \`$dropin\`."
if [[ -n "$baseline" ]]; then echo "Before: \`$baseline\`."; fi
echo
header="| build | shape | native static | native dynamic,1 | drop-in static | drop-in auto | drop-in auto, store |"
rule="|---|---|---:|---:|---:|---:|---:|"
if [[ -n "$baseline" ]]; then header+=" before: static | before: auto | before: auto, store |"; rule+="---:|---:|---:|"; fi
echo "$header"
echo "$rule"
declare -A med
for b in "${builds[@]}"; do
  for s in "${shapes[@]}"; do
    row="| $b | $s |"
    for c in "${configs[@]}"; do
      med[$b,$s,$c]=$(cell "$b,$s,$c")
      row+=" ${med[$b,$s,$c]} |"
    done
    echo "$row"
  done
done
echo
echo "Ratios of the medians (goal: <= 1.0 against the runtime's own start/end):"
echo
header="| build | shape | static / native static | static / native dynamic | auto / native static | auto / native dynamic | auto+store / native dynamic |"
rule="|---|---|---:|---:|---:|---:|---:|"
if [[ -n "$baseline" ]]; then
  header+=" before static / native static | before auto / native static | before auto+store / native dynamic |"
  rule+="---:|---:|---:|"
fi
echo "$header"
echo "$rule"
for b in "${builds[@]}"; do
  for s in "${shapes[@]}"; do
    ns=${med[$b,$s,native-static]} nd=${med[$b,$s,native-dynamic]}
    row="| $b | $s | $(ratio "${med[$b,$s,dropin-static]}" "$ns") | $(ratio "${med[$b,$s,dropin-static]}" "$nd") |"
    row+=" $(ratio "${med[$b,$s,dropin-auto]}" "$ns") | $(ratio "${med[$b,$s,dropin-auto]}" "$nd") |"
    row+=" $(ratio "${med[$b,$s,dropin-auto-db]}" "$nd") |"
    if [[ -n "$baseline" ]]; then
      row+=" $(ratio "${med[$b,$s,before-static]}" "$ns") | $(ratio "${med[$b,$s,before-auto]}" "$ns") |"
      row+=" $(ratio "${med[$b,$s,before-auto-db]}" "$nd") |"
    fi
    echo "$row"
  done
done
for f in "$scratch"/*.err; do
  [[ -s "$f" ]] && echo "($(basename "$f" .err): $(grep -m1 . "$f"))"
done

if [[ "${INSTRUCTIONS:-0}" == 1 ]] && command -v valgrind >/dev/null; then
  echo
  echo "Instructions per instance (callgrind, 1 thread, the difference of 3000 and 1000 instances a repetition):"
  echo
  counted=(native-static native-dynamic dropin-static dropin-auto)
  header="| build | shape | native static | native dynamic,1 | drop-in static | drop-in auto |"
  rule="|---|---|---:|---:|---:|---:|"
  if [[ -n "$baseline" ]]; then
    counted+=(before-static before-auto)
    header+=" before: static | before: auto |"
    rule+="---:|---:|"
  fi
  echo "$header"
  echo "$rule"
  irs() {  # build shape config instances
    # shellcheck disable=SC2046
    env "${clean[@]}" $(config_env "$3" "$1" "$2") valgrind --tool=callgrind \
      --callgrind-out-file="$scratch/cg.%p.out" "${binary[$1]}" --per-instance "$2" --threads 1 --instances "$4" \
      --reps 1 2>&1 >/dev/null | awk '/Collected :/ {print $4}'
  }
  for b in "${builds[@]}"; do
    for s in "${shapes[@]}"; do
      row="| $b | $s |"
      for c in "${counted[@]}"; do
        lo=$(irs "$b" "$s" "$c" 1000) hi=$(irs "$b" "$s" "$c" 3000)
        row+=" $(awk -v a="$lo" -v b="$hi" 'BEGIN {if (a > 0 && b > 0) printf "%.0f", (b - a) / 4000; else printf "-"}') |"
      done
      echo "$row"
    done
  done
fi
