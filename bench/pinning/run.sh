#!/usr/bin/env bash
# The thread-pinning experiment (issue 16, docs/pinning-bench.md): the
# completion time of autosched-aco (APP=aco) or of a loop app of the loop
# runtime (APP=loop) under four availability scenarios
#   none      no interference
#   constant  a busy process on LOAD_CORE from the start
#   late      the same from t = LATE_DELAY s
#   varying   the same, switched on and off every VARY_PERIOD s
# for the policies os (the manager measures only: `off`), round-robin,
# autopin, o1 and o2, each reached two ways: in the app (ACO: --pinning; the
# loop app: AUTOSCHED_PINNING for its OpenMP teams, so os = no manager) and
# from outside (`autosched pin -- <app> …`). RUNS repetitions per cell,
# interleaved: every repetition visits each scenario, way and policy once.
# A full run takes about an hour and wants a quiet machine.
#
# Usage: bench/pinning/run.sh <out_dir>
# Writes <out_dir>/runs.csv (scenario,policy,way,run,completion_s),
# summary.md (mean ± s.d. per cell and the change vs os), traces/ (the
# manager's trace of every run) and o1-trace.svg (one o1 run's per-thread
# running-average utility and chosen core over time; its data in o1-trace.dat).
#   RUNS=<n>            repetitions per cell (default 5)
#   SCENARIOS, POLICIES, WAYS  subsets, space-separated (defaults: all;
#                       ways: inside outside); o1-stable and o2-stable are
#                       o1 and o2 with play=stable (not in the default list)
#   APP=aco|loop        the workload (default aco)
#   ACO_ARGS="…"        options of autosched-aco (default: its own defaults,
#                       6 threads, about 25 s on two free cores)
#   LOOP_APP=<program>  the loop app (default autosched-pisolver)
#   LOOP_ARGS="…"       its options (default: 6 threads, no imbalance, the
#                       gss schedule so that faster threads take more
#                       iterations, about 10 s on two free cores)
#   LOAD_CORE=<cpu>     the disturbed core (default 1; 0 on a one-core mask)
#   LATE_DELAY=<s>      start of the late load (default 10)
#   VARY_PERIOD=<s>     on/off period of the varying load (default 5)
#   AUTOSCHED_BIN=<dir> take autosched, autosched-aco and autosched-load
#                       from there and build nothing (as the CTest smoke does)
#   AUTOSCHED_BUILD_DIR=<dir>  otherwise build them in that configured build
#                       directory (default: the release preset's)
#   SUMMARY_ONLY=1      run nothing: redo summary.md and the pictures from
#                       <out_dir>/runs.csv and traces/ (same APP, POLICIES)
#   SMOKE=1             tiny cells: 1 run, scenarios none and constant,
#                       policies os and o1, a few short ACO iterations
set -euo pipefail
if [[ $# -ne 1 ]]; then
  echo "usage: $0 <out_dir>" >&2
  exit 2
fi
out=$1
root=$(cd "$(dirname "$0")/../.." && pwd)

if [[ ${SMOKE:-0} == 1 ]]; then
  RUNS=${RUNS:-1}
  SCENARIOS=${SCENARIOS:-none constant}
  POLICIES=${POLICIES:-os o1}
  ACO_ARGS=${ACO_ARGS:---jobs 60 --ants 12 --threads 4 --iterations 60 --work-scale 8}
fi
runs=${RUNS:-5}
scenarios=${SCENARIOS:-none constant late varying}
policies=${POLICIES:-os round-robin autopin o1 o2}
ways=${WAYS:-inside outside}
app=${APP:-aco}
case $app in
  aco) ;;
  loop) [[ ${SMOKE:-0} == 1 ]] && LOOP_ARGS=${LOOP_ARGS:---threads 4 --imbalance 0 --schedule gss --steps 20 --quiet} ;;
  *) echo "$0: APP=$app: expected aco or loop" >&2; exit 2 ;;
esac
read -r -a aco_args <<<"${ACO_ARGS:-}"
loop_app=${LOOP_APP:-autosched-pisolver}
read -r -a loop_args <<<"${LOOP_ARGS:---threads 6 --imbalance 0 --schedule gss --steps 300 --quiet}"
if [[ $(nproc) -ge 2 ]]; then load_core=${LOAD_CORE:-1}; else load_core=${LOAD_CORE:-0}; fi
late_delay=${LATE_DELAY:-10}
vary_period=${VARY_PERIOD:-5}

if [[ -n ${AUTOSCHED_BIN:-} ]]; then
  bin=$AUTOSCHED_BIN
else
  build=${AUTOSCHED_BUILD_DIR:-$root/build/release}
  if [[ -z ${AUTOSCHED_BUILD_DIR:-} ]]; then
    (cd "$root" && cmake --preset release >/dev/null)
  fi
  cmake --build "$build" --target autosched_cli autosched-aco autosched-load "$loop_app" -j2 >/dev/null
  bin=$build/bin
fi
programs=(autosched autosched-load)
if [[ $app == aco ]]; then programs+=(autosched-aco); else programs+=("$loop_app"); fi
for program in "${programs[@]}"; do
  [[ -x $bin/$program ]] || { echo "$0: $bin/$program: not built" >&2; exit 2; }
done

mkdir -p "$out/traces"
if [[ ${SUMMARY_ONLY:-0} != 1 ]]; then
  echo "scenario,policy,way,run,completion_s" >"$out/runs.csv"
elif [[ ! -s $out/runs.csv ]]; then
  echo "$0: SUMMARY_ONLY=1 needs $out/runs.csv from an earlier run" >&2
  exit 2
fi
unset AUTOSCHED_PINNING

# The busy process of a scenario, in the background; its pid in $load ("" for none).
start_load() {
  load=""
  local args=(--cores "$load_core" --duration 3600)
  case $1 in
    none) return ;;
    constant) ;;
    late) args+=(--delay "$late_delay") ;;
    varying) args+=(--pattern varying --period "$vary_period") ;;
    *) echo "$0: unknown scenario '$1' (none constant late varying)" >&2; exit 2 ;;
  esac
  "$bin/autosched-load" "${args[@]}" 2>/dev/null &
  load=$!
}

stop_load() {
  if [[ -n $load ]]; then
    kill "$load" 2>/dev/null || true
    wait "$load" 2>/dev/null || true
  fi
}
load=""
trap stop_load EXIT

# One run: scenario, policy, way, repetition; appends its row to runs.csv.
run_cell() {
  local scenario=$1 policy=$2 way=$3 run=$4
  local manager=$policy
  [[ $policy == os ]] && manager=off
  [[ $policy == *-stable ]] && manager="${policy%-stable},play=stable"  # o1-stable: o1 with play=stable
  local name=$scenario-$policy-$way-$run
  local json=$out/traces/$name.json trace=$out/traces/$name.csv
  start_load "$scenario"
  local began ended
  began=$(date +%s.%N)
  case $app/$way in
    aco/inside) "$bin/autosched-aco" "${aco_args[@]}" --pinning "$manager" --pinning-trace "$trace" \
                  --output-json "$json" >"$out/traces/$name.log" ;;
    aco/outside) "$bin/autosched" pin --policy "$manager" --trace "$trace" -- \
                   "$bin/autosched-aco" "${aco_args[@]}" --output-json "$json" >"$out/traces/$name.log" 2>&1 ;;
    loop/inside) AUTOSCHED_PINNING=$manager "$bin/$loop_app" "${loop_args[@]}" >"$out/traces/$name.log" 2>&1 ;;
    loop/outside) "$bin/autosched" pin --policy "$manager" --trace "$trace" -- \
                    "$bin/$loop_app" "${loop_args[@]}" >"$out/traces/$name.log" 2>&1 ;;
    *) echo "$0: unknown way '$way' (inside outside)" >&2; exit 2 ;;
  esac
  ended=$(date +%s.%N)
  stop_load
  local completion
  if [[ $app == aco ]]; then
    completion=$(sed -n 's/^ *"completion_s": *\([0-9.]*\),*$/\1/p' "$json")
  else
    completion=$(awk -v a="$began" -v b="$ended" 'BEGIN { printf "%.3f", b - a }')
  fi
  echo "$scenario,$policy,$way,$run,$completion" >>"$out/runs.csv"
  echo "$name: $completion s" >&2
}

start=$(date +%s)
[[ ${SUMMARY_ONLY:-0} == 1 ]] && runs=0  # only the summary and pictures of runs.csv
for ((run = 1; run <= runs; run++)); do
  for scenario in $scenarios; do
    for way in $ways; do
      for policy in $policies; do
        run_cell "$scenario" "$policy" "$way" "$run"
      done
    done
  done
done

# Mean ± sample s.d. per cell, and the change of the mean vs os in the same
# scenario and way (negative: faster than the OS alone).
what=autosched-aco
[[ $app == loop ]] && what="$loop_app ${loop_args[*]}"
awk -F, -v policies="$policies" -v what="$what" '
  NR == 1 { next }
  {
    key = $1 "|" $3 "|" $2
    n[key]++; sum[key] += $5; sq[key] += $5 * $5
    if (!(($1 "|" $3) in seen)) { seen[$1 "|" $3] = 1; rows[++nr] = $1 "|" $3 }
  }
  END {
    np = split(policies, pol, " ")
    print "# Completion time of " what " (s): mean ± s.d. over runs, change vs os\n"
    printf "| scenario | way |"; for (p = 1; p <= np; p++) printf " %s |", pol[p]; print ""
    printf "|---|---|"; for (p = 1; p <= np; p++) printf "--:|"; print ""
    for (r = 1; r <= nr; r++) {
      split(rows[r], rc, "|"); printf "| %s | %s |", rc[1], rc[2]
      base = rows[r] "|os"
      for (p = 1; p <= np; p++) {
        k = rows[r] "|" pol[p]
        if (!(k in n)) { printf " – |"; continue }
        m = sum[k] / n[k]; v = n[k] > 1 ? (sq[k] - n[k] * m * m) / (n[k] - 1) : 0
        cell = sprintf("%.2f ± %.2f", m, sqrt(v > 0 ? v : 0))
        if (pol[p] != "os" && (base in n) && sum[base] > 0) cell = cell sprintf(" (%+.1f%%)", 100 * (m / (sum[base] / n[base]) - 1))
        printf " %s |", cell
      }
      print ""
    }
  }' "$out/runs.csv" >"$out/summary.md"

# The bar chart: mean ± s.d. per policy, one group per scenario and way.
bars=""
if command -v gnuplot >/dev/null; then
  awk -F, -v policies="$policies" '
    NR == 1 { next }
    { key = $1 "/" $3 "|" $2; n[key]++; sum[key] += $5; sq[key] += $5 * $5
      if (!(($1 "/" $3) in seen)) { seen[$1 "/" $3] = 1; rows[++nr] = $1 "/" $3 } }
    END {
      np = split(policies, pol, " ")
      printf "group"; for (p = 1; p <= np; p++) printf " %s sd", pol[p]; print ""
      for (r = 1; r <= nr; r++) {
        printf "%s", rows[r]
        for (p = 1; p <= np; p++) {
          k = rows[r] "|" pol[p]
          if (!(k in n)) { printf " NaN NaN"; continue }
          m = sum[k] / n[k]; v = n[k] > 1 ? (sq[k] - n[k] * m * m) / (n[k] - 1) : 0
          printf " %.3f %.3f", m, sqrt(v > 0 ? v : 0)
        }
        print ""
      }
    }' "$out/runs.csv" >"$out/completion.dat"
  npol=$(wc -w <<<"$policies")
  gnuplot <<EOF
set terminal svg size 900,450
set output "$out/completion.svg"
set title "completion time by scenario and policy (mean ± s.d., $runs runs)"
set ylabel "completion (s)"
set style data histogram
set style histogram errorbars gap 1 lw 1
set style fill solid 0.6 border -1
set key outside right
set yrange [0:*]
set xtics noenhanced
plot for [p = 1:$npol] "$out/completion.dat" using 2 * p:2 * p + 1:xtic(1) title columnheader(2 * p)
EOF
  bars=", $out/completion.svg"
fi

# The picture: the first o1 run in a disturbed scenario (else any o1 run)
# whose trace has a few periods.
picture="" drawn=""
for candidate in "$out"/traces/{constant,late,varying,none}-o1-inside-1.csv "$out"/traces/*-o1-*.csv; do
  if [[ -f $candidate && $(wc -l <"$candidate") -gt 2 ]]; then picture=$candidate; break; fi
done
if [[ -z $picture ]]; then
  echo "run.sh: no o1 run, no picture" >&2
elif ! command -v gnuplot >/dev/null; then
  echo "run.sh: gnuplot not found, no picture" >&2
else
  # One block per thread (gnuplot's index), in the trace's column order.
  data=$out/o1-trace.dat
  awk -F, 'NR > 1 { rows[$2] = rows[$2] $1 " " $6 " " $8 "\n"; if (!seen[$2]++) order[++n] = $2 }
    END { for (i = 1; i <= n; i++) printf "# tid %s\n%s\n\n", order[i], rows[order[i]] }' "$picture" >"$data"
  tids=$(awk -F, 'NR > 1 && !seen[$2]++ { printf "%s ", $2 }' "$picture")
  gnuplot <<EOF
set terminal svg size 900,700
set output "$out/o1-trace.svg"
set key outside right
set multiplot layout 2,1 title "$(basename "$picture" .csv): learning manager, objective o1"
set ylabel "running average utility"
plot for [i = 1:words("$tids")] "$data" index i - 1 using 1:2 with lines title "tid ".word("$tids", i)
set xlabel "time (s)"
set ylabel "core (-1: not pinned; threads offset)"
set ytics 1
set offsets 0, 0, 0.4, 0.3
plot for [i = 1:words("$tids")] "$data" index i - 1 using 1:(\$3 + 0.04 * (i - 1)) with steps title "tid ".word("$tids", i)
unset multiplot
EOF
  drawn=", $out/o1-trace.svg"
fi
cat "$out/summary.md"
echo "run.sh: $(($(date +%s) - start)) s, $out/runs.csv, $out/summary.md$bars$drawn" >&2
