#!/usr/bin/env bash
# Static loops of a clang-built program under `autosched run --loops static`
# (bench/dropin/static_loops.cpp: a rising-cost loop and a balanced
# memory-bound triad, no schedule clause, 2 threads), against
#   native static      the same binary without autosched
#   runtime arms       the rising loop built with schedule(runtime), run under
#                      `autosched run --schedule ARM` for each of ARMS; the
#                      best of them by median is the reference
# One process per measurement, the configurations alternating within a round
# (forwards, then backwards); each cell the median over the rounds of the
# program's own ms inside the loop. Stores off (every run a cold one) except
# for `dropin-static-loops-warm`, whose store one unmeasured run fills first.
# Prints a markdown table and the goals' ratios.
#
# Usage: bench/dropin/static.sh [rounds] [steps]   (default 5 rounds, 100 steps)
# CLANGXX: the compiler (default clang++); AUTOSCHED: the tool (default the
# release build's); ARMS: the runtime arms (space-separated).
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${1:-5}
steps=${2:-100}
cxx=${CLANGXX:-clang++}
tool=$(realpath "${AUTOSCHED:-build/release/bin/autosched}")
read -r -a arms <<<"${ARMS:-static-steal fac2 guided-llvm awf-b mfac2 auto}"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
"$cxx" -std=c++20 -O2 -fopenmp=libomp bench/dropin/static_loops.cpp -o "$scratch/no-clause"
"$cxx" -std=c++20 -O2 -fopenmp=libomp -DRUNTIME_LOOPS bench/dropin/static_loops.cpp -o "$scratch/runtime"
export OMP_NUM_THREADS=2 AUTOSCHED_DB=off
unset OMP_SCHEDULE AUTOSCHED_SCHEDULE AUTOSCHED_SCHEDULE_FOR AUTOSCHED_OMP_LOOPS AUTOSCHED_OMP_REPORT LD_PRELOAD

configs=(native-static dropin-static-loops dropin-static-loops-warm)
for a in "${arms[@]}"; do configs+=("arm:$a"); done

# One measurement: "rising_ms triad_ms", or nothing when the run failed.
measure() {
  local out
  case $1 in
    native-static) out=$("$scratch/no-clause" "$steps") ;;
    dropin-static-loops) out=$("$tool" run --loops static -- "$scratch/no-clause" "$steps") ;;
    dropin-static-loops-warm)
      out=$(AUTOSCHED_DB="$scratch/store.db" "$tool" run --loops static -- "$scratch/no-clause" "$steps") ;;
    arm:*) out=$("$tool" run --schedule "${1#arm:}" -- "$scratch/runtime" "$steps") ;;
  esac || return 0
  echo "$out" | awk '$1 == "static-bench" && $9 == "ok" {print $3, $5}'
}

AUTOSCHED_DB="$scratch/store.db" "$tool" run --loops static -- "$scratch/no-clause" "$steps" >/dev/null
median() { tr ' ' '\n' | { grep -v '^$' || true; } | sort -g | awk '{v[NR]=$1} END {if (NR) print (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2)}'; }
ratio() { awk -v n="$1" -v d="$2" 'BEGIN {if (n + 0 > 0 && d + 0 > 0) printf "%.3f", n / d; else printf "-"}'; }
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
declare -A rising triad
for ((r = 0; r < rounds; ++r)); do
  order=("${configs[@]}")
  if ((r % 2)); then
    order=()
    for ((i = ${#configs[@]} - 1; i >= 0; --i)); do order+=("${configs[i]}"); done
  fi
  for c in "${order[@]}"; do
    v=$(measure "$c")
    [[ -z "$v" ]] && continue
    rising[$c]+=" ${v% *}"
    triad[$c]+=" ${v#* }"
  done
  echo "round $((r + 1)) of $rounds done" >&2
done
# The triad alone (no rising loop before it), 3 times as many rounds of 3
# times as many steps: a memory-bound loop's time on a shared machine wanders
# by several percent. Besides the medians, the median of the per-round
# ratios (the two processes of a round run one after the other).
declare -A alone
# `dropin-runtime` is the drop-in without --loops static: the same process
# conditions (loader, heap) as --loops static, the runtime's own split.
triad_configs=(native-static dropin-runtime dropin-static-loops)
for ((r = 0; r < 3 * rounds; ++r)); do
  order=("${triad_configs[@]}")
  ((r % 2)) && order=(dropin-static-loops dropin-runtime native-static)
  for c in "${order[@]}"; do
    case $c in
      native-static) out=$("$scratch/no-clause" $((3 * steps)) triad) ;;
      dropin-runtime) out=$("$tool" run -- "$scratch/no-clause" $((3 * steps)) triad) ;;
      dropin-static-loops) out=$("$tool" run --loops static -- "$scratch/no-clause" $((3 * steps)) triad) ;;
    esac || continue
    v=$(echo "$out" | awk '$1 == "static-bench" && $9 == "ok" {print $5}')
    alone[$c]+=" $v"
    alone[$c,$r]=$v
  done
  if [[ -n "${alone[native-static,$r]:-}" ]]; then
    for c in dropin-runtime dropin-static-loops; do
      [[ -n "${alone[$c,$r]:-}" ]] && alone[paired,$c]+=" $(ratio "${alone[$c,$r]}" "${alone[native-static,$r]}")"
    done
  fi
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)


echo "\`bench/dropin/static.sh $rounds $steps\` — $(date -u '+%F %H:%M UTC'), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'),"
echo "$(nproc) cores (load average $load_before before, $load_after after); $("$cxx" --version | head -1); 2 threads;"
echo "$steps steps a process, $rounds processes a configuration; each cell the median of the program's ms inside the loop."
echo
echo "| configuration | rising loop ms | triad ms |"
echo "|---|---:|---:|"
declare -A mr mt
best_arm="" best=""
for c in "${configs[@]}"; do
  mr[$c]=$(echo "${rising[$c]:-}" | median)
  mt[$c]=$(echo "${triad[$c]:-}" | median)
  echo "| $c | ${mr[$c]:-failed} | ${mt[$c]:-failed} |"
  if [[ $c == arm:* && -n "${mr[$c]}" ]] && { [[ -z "$best" ]] || awk -v a="${mr[$c]}" -v b="$best" 'BEGIN {exit !(a < b)}'; }; then
    best=${mr[$c]} best_arm=${c#arm:}
  fi
done
echo
echo "Goals (ratios of the medians):"
echo
echo "| goal | ratio |"
echo "|---|---:|"
echo "| rising loop, --loops static / native static (<= 0.80) | $(ratio "${mr[dropin-static-loops]}" "${mr[native-static]}") |"
echo "| rising loop, --loops static warm / native static (<= 0.80) | $(ratio "${mr[dropin-static-loops-warm]}" "${mr[native-static]}") |"
echo "| rising loop, --loops static / best runtime arm, $best_arm (<= 1.03) | $(ratio "${mr[dropin-static-loops]}" "$best") |"
echo "| rising loop, --loops static warm / best runtime arm, $best_arm (<= 1.03) | $(ratio "${mr[dropin-static-loops-warm]}" "$best") |"
echo "| triad, --loops static / native static (<= 1.01) | $(ratio "${mt[dropin-static-loops]}" "${mt[native-static]}") |"
echo "| triad, --loops static warm / native static (<= 1.01) | $(ratio "${mt[dropin-static-loops-warm]}" "${mt[native-static]}") |"
ta=$(echo "${alone[dropin-static-loops]:-}" | median) tn=$(echo "${alone[native-static]:-}" | median)
tr=$(echo "${alone[dropin-runtime]:-}" | median)
echo "| triad alone ($((3 * rounds)) rounds of $((3 * steps)) steps: $ta ms / $tn ms), --loops static / native static (<= 1.01) | $(ratio "$ta" "$tn") |"
echo "| triad alone, median of the per-round ratios --loops static / native static (<= 1.01) | $(echo "${alone[paired,dropin-static-loops]:-}" | median) |"
echo "| triad alone, the drop-in without --loops static ($tr ms) / native static, per-round median | $(echo "${alone[paired,dropin-runtime]:-}" | median) |"
echo "| triad alone, --loops static / the drop-in without it | $(ratio "$ta" "$tr") |"
