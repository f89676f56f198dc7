#!/usr/bin/env bash
# What the launcher costs: `autosched run --schedule static -- /bin/true`
# against `LD_PRELOAD=libautosched-omp.so /bin/true` (what the launcher sets
# up, by hand), and `autosched info`: the median over the runs of each
# process's wall time and peak RSS (ru_maxrss survives exec, so the
# launcher's own image counts in the program's). The goals: the launcher
# adds at most 5 ms and 20 MB, `autosched info` takes at most 100 ms. The
# configurations alternate within a round so drift hits them alike.
# Usage: bench/launcher/run.sh [runs]   (default 20; run on an idle machine)
# AUTOSCHED_BUILD picks the build directory (default: the release preset's).
set -euo pipefail
cd "$(dirname "$0")/../.."
runs=${1:-20}
build=${AUTOSCHED_BUILD:-build/release}
[[ -n ${AUTOSCHED_BUILD:-} ]] || cmake --preset release >/dev/null
cmake --build "$build" --target autosched_cli autosched_omp >/dev/null
cli=$build/bin/autosched
lib=$(realpath "$(find "$build/autosched/omp" -name libautosched-omp.so | head -1)")
export AUTOSCHED_DB=off
load_before=$(cut -d' ' -f1-3 /proc/loadavg)

# One process of configuration $1: its wall ms (bash's clock around it) and
# its peak RSS in MB (GNU time, in a second run), on one line.
measure() {
  local t0 t1 kb
  case $1 in
    preload) t0=$EPOCHREALTIME; LD_PRELOAD=$lib /bin/true; t1=$EPOCHREALTIME
             kb=$(LD_PRELOAD=$lib /usr/bin/time -f %M /bin/true 2>&1 >/dev/null) ;;
    launcher) t0=$EPOCHREALTIME; "$cli" run --schedule static -- /bin/true; t1=$EPOCHREALTIME
              kb=$(/usr/bin/time -f %M "$cli" run --schedule static -- /bin/true 2>&1 >/dev/null) ;;
    info) t0=$EPOCHREALTIME; "$cli" info >/dev/null; t1=$EPOCHREALTIME
          kb=$(/usr/bin/time -f %M "$cli" info 2>&1 >/dev/null | tail -1) ;;
  esac
  awk -v a="${t0/,/.}" -v b="${t1/,/.}" -v kb="$kb" 'BEGIN {printf "%.3f %.1f\n", (b - a) * 1000, kb / 1024}'
}
declare -A ms=([preload]="" [launcher]="" [info]="") mb=([preload]="" [launcher]="" [info]="")
for c in preload launcher info; do measure "$c" >/dev/null; done  # warm the page cache
for ((r = 0; r < runs; ++r)); do
  order=(preload launcher info)
  if ((r % 2)); then order=(info launcher preload); fi
  for c in "${order[@]}"; do
    read -r t m < <(measure "$c")
    ms[$c]+=" $t"
    mb[$c]+=" $m"
  done
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

median() { tr ' ' '\n' | { grep -v '^$' || true; } | sort -g | awk '{v[NR]=$1} END {if (NR) print (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2)}'; }
declare -A mms mmb
for c in preload launcher info; do
  mms[$c]=$(echo "${ms[$c]}" | median | awk '{printf "%.2f", $1}')
  mmb[$c]=$(echo "${mb[$c]}" | median | awk '{printf "%.1f", $1}')
done
verdict() { awk -v v="$1" -v g="$2" 'BEGIN {print (v <= g ? "met" : "not met")}'; }
dms=$(awk -v a="${mms[launcher]}" -v b="${mms[preload]}" 'BEGIN {printf "%+.2f", a - b}')
dmb=$(awk -v a="${mmb[launcher]}" -v b="${mmb[preload]}" 'BEGIN {printf "%+.1f", a - b}')

echo "### Launcher cost: \`autosched run\` against LD_PRELOAD alone, and \`autosched info\`"
echo
echo "\`bench/launcher/run.sh $runs\` — $(date -u '+%F %H:%M UTC'), $(realpath --relative-to=. "$cli"), this machine:"
echo "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores (load average $load_before before,"
echo "$load_after after). Median of $runs processes of each; wall ms by bash's clock around the process, peak RSS"
echo "by GNU time in a second run of each. Drop-in: \`$(realpath --relative-to=. "$lib")\`."
echo
echo "| | wall ms (median) | peak RSS MB (median) |"
echo "|---|---:|---:|"
echo "| \`LD_PRELOAD=libautosched-omp.so /bin/true\` | ${mms[preload]} | ${mmb[preload]} |"
echo "| \`autosched run --schedule static -- /bin/true\` | ${mms[launcher]} | ${mmb[launcher]} |"
echo "| \`autosched info\` | ${mms[info]} | ${mmb[info]} |"
echo
echo "| goal | measured | |"
echo "|---|---:|---|"
echo "| the launcher adds ≤ 5 ms | $dms ms | $(verdict "$dms" 5) |"
echo "| the launcher adds ≤ 20 MB peak RSS | $dmb MB | $(verdict "$dmb" 20) |"
echo "| \`autosched info\` ≤ 100 ms | ${mms[info]} ms | $(verdict "${mms[info]}" 100) |"
