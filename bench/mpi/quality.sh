#!/usr/bin/env bash
# Selection quality at P simulated ranks (SimGrid SMPI): every selector
# against the per-step Oracle, in the thesis's table format
# (x% = (T_par − T_par^Oracle) / T_par^Oracle · 100, T_par summed over every
# loop instance of the run).
#
#   bench/mpi/quality.sh <app> <costs> <P> <steps> <out-dir> [app options…]
#   e.g. bench/mpi/quality.sh pisolver costs/pisolver.costs 200 20 docs/results/mpi-quality -- --n 20000 --work 100000 --imbalance 15
#
# <app> is pisolver or mandelbrot, built for SMPI in $SMPI_BUILD (default
# build/smpi: scripts/smpi/build.sh autosched-pisolver-mpi …). Every fixed arm
# of auto's portfolio (12 techniques × {default chunk, expert chunk}) runs
# all the steps; the Oracle takes, per loop and step, the fastest of them
# (one run each: with the replayed costs and HOST_TIME=off a run is exactly
# reproducible). Then every selector runs. The costs come
# from a native --record run of the same app (docs/mpi-apps.md). Small
# messages are sent eagerly (smpi/async-small-thresh, as in scripts/smpi/run.sh).
#
# Environment:
#   HOST_TIME=off (default)  the real time the ranks' own code takes between
#                 two MPI calls is not charged (smpi/simulate-computation:no):
#                 a run depends on the replayed costs, the platform and the
#                 library's decisions only, so it is deterministic. The
#                 selection's cost is still measured (host clock) and reported
#                 apart, as the selection share.
#   HOST_TIME=charged  SMPI's default: that code is timed on this machine and
#                 charged 1:1. On this 2-core VM one rank's burst runs on a
#                 cache that 199 others have emptied, and any preemption of
#                 the simulator lands in some rank's burst: a fixed arm's loop
#                 time then swings by up to 25% from one instance to the next
#                 with the same costs (docs/RESULTS.md, issue 13).
#   JOBS=N        runs at once (default 1; with HOST_TIME=off the results do
#                 not depend on it)
set -euo pipefail
app=$1 costs=$2 P=$3 steps=$4 out=$5
shift 5
[[ ${1:-} == -- ]] && shift
build=${SMPI_BUILD:-build/smpi}
host_time=${HOST_TIME:-off} jobs=${JOBS:-1}
case $host_time in
  off) host_cfg=(--cfg=smpi/simulate-computation:no) ;;
  charged) host_cfg=() ;;
  *) echo "quality.sh: HOST_TIME=$host_time: expected off or charged" >&2; exit 2 ;;
esac
[[ $jobs =~ ^[1-9][0-9]*$ ]] || { echo "quality.sh: JOBS=$jobs: expected a count >= 1" >&2; exit 2; }
bin=$build/bin/autosched-$app-mpi
[[ -x $bin ]] || { echo "quality.sh: $bin not built (scripts/smpi/build.sh autosched-$app-mpi)" >&2; exit 1; }
mkdir -p "$out/raw-$app"
plat=$out/raw-$app/platform
if [[ ! -f $plat.xml ]]; then
  { echo '<?xml version="1.0"?>'
    echo '<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">'
    echo '<platform version="4.1"><zone id="world" routing="Full">'
    echo "<cluster id=\"c\" prefix=\"node-\" suffix=\"\" radical=\"0-$((P - 1))\" speed=\"1Gf\" bw=\"10Gbps\" lat=\"1us\" bb_bw=\"100Gbps\" bb_lat=\"1us\"/>"
    echo '</zone></platform>'; } > "$plat.xml"
  for ((i = 0; i < P; i++)); do echo "node-$i"; done > "$plat.hosts"
fi
run() {  # schedule → raw file
  local s=$1 f=$out/raw-$app/$(echo "$1" | tr ',:=' '___').txt
  shift
  [[ -s $f ]] && return 0  # resumable: a finished run is kept
  AUTOSCHED_DB=off smpirun -np "$P" -platform "$plat.xml" -hostfile "$plat.hosts" \
    --cfg=smpi/host-speed:1Gf --cfg=smpi/coll-selector:mpich --cfg=smpi/grow-injected-times:no \
    --cfg=smpi/async-small-thresh:65536 \
    --cfg=smpi/iprobe:1e-7 --cfg=smpi/test:1e-7 "${host_cfg[@]}" --log=root.thres:warning \
    "$bin" --steps "$steps" --schedule "$s" --costs "$costs" "$@" > "$f.tmp" 2>&1 || { tail -5 "$f.tmp" >&2; return 1; }
  mv "$f.tmp" "$f"
}
arms=(static ss tss auto-llvm guided-llvm mfac2 static-steal awf-b awf-c awf-d awf-e maf)
selectors=(auto auto:random auto:exhaustive auto:binary auto:expert auto:qlearn auto:sarsa auto:doubleq auto:qv
           auto:expected-sarsa auto:chunk)
schedules=()
for a in "${arms[@]}"; do schedules+=("$a" "$a,chunk=expert"); done
schedules+=("${selectors[@]}")
total=${#schedules[@]} k=0 failed=0
for s in "${schedules[@]}"; do
  k=$((k + 1)); echo "[$k/$total] $app $s" >&2
  if ((jobs == 1)); then run "$s" "$@" || failed=1; continue; fi
  while (($(jobs -rp | wc -l) >= jobs)); do wait -n || failed=1; done
  run "$s" "$@" &
done
while (($(jobs -rp | wc -l) > 0)); do wait -n || failed=1; done
((failed == 0)) || { echo "quality.sh: some runs failed (their last lines above); rerun to resume" >&2; exit 1; }

# Per-step lines: "step <k> <loop> <technique> <protocol> <ms> ms …".
# Writes $out/$app.md (the table, selectors in the order above, the command
# that made it first) and $out/$app.csv (name,kind,t_par_s,vs_oracle_pct,share_pct)
# for quality-mean.sh.
order=$(printf '%s ' "${selectors[@]}" | tr ':' '_')
{
  echo "\`bench/mpi/quality.sh $app $costs $P $steps $out${*:+ -- $*}\` — $(date -u '+%F %H:%M UTC'),"
  echo "commit $(git rev-parse --short HEAD 2>/dev/null || echo '?'), $(smpirun -version 2>/dev/null | head -1 || echo 'SimGrid'); simulated (SMPI), $P hosts of 1 Gf;"
  if [[ $host_time == off ]]; then echo "the ranks' own code between MPI calls not charged (HOST_TIME=off: deterministic)."
  else echo "the ranks' own code between MPI calls charged as timed on this machine (HOST_TIME=charged)."; fi
  echo
  awk -v app="$app" -v P="$P" -v steps="$steps" -v order="$order" -v csv="$out/$app.csv" '
  FNR == 1 { name = FILENAME; sub(/.*\//, "", name); sub(/\.txt$/, "", name); fixed[name] = !(name == "auto" || name ~ /^auto_/) }
  $1 == "step" { t = $6 + 0; key = $3 " " $2; time[name, key] = t; keys[key] = 1; total[name] += t }
  /selection overhead share/ { share[name] = $5 }
  END {
    for (n in fixed) nfixed += fixed[n]
    for (key in keys) { best = -1; for (n in fixed) if (fixed[n] && ((n, key) in time) && (best < 0 || time[n, key] < best)) best = time[n, key]; oracle += best }
    printf "| %s, P = %d simulated, %d steps | T_par (s) | vs Oracle | selection share |\n|---|---:|---:|---:|\n", app, P, steps
    printf "| Oracle (per-step best of %d fixed arms) | %.3f | 0.0%% | |\n", nfixed, oracle / 1000
    print "name,kind,t_par_s,vs_oracle_pct,share_pct" > csv
    printf "Oracle,oracle,%.6f,0,\n", oracle / 1000 > csv
    k = split(order, names, " ")
    for (j = 1; j <= k; j++) {
      n = names[j]; if (!(n in total)) continue
      s = share[n]; sub(/%/, "", s)
      printf "| %s | %.3f | %.1f%% | %s |\n", n, total[n] / 1000, (total[n] - oracle) / oracle * 100, share[n]
      printf "%s,selector,%.6f,%.3f,%s\n", n, total[n] / 1000, (total[n] - oracle) / oracle * 100, s > csv
    }
    best_fixed = ""; for (n in total) if (fixed[n] && (best_fixed == "" || total[n] < total[best_fixed])) best_fixed = n
    for (n in total) if (fixed[n]) printf "%s,fixed,%.6f,%.3f,\n", n, total[n] / 1000, (total[n] - oracle) / oracle * 100 > csv
    printf "| best fixed arm: %s | %.3f | %.1f%% | |\n", best_fixed, total[best_fixed] / 1000, (total[best_fixed] - oracle) / oracle * 100
  }' "$out"/raw-"$app"/*.txt
} | tee "$out/$app.md"
