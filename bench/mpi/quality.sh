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
# (one run each: the replayed costs make runs deterministic up to the
# library's own benchmarked work). Then every selector runs. The costs come
# from a native --record run of the same app (docs/mpi-apps.md). Small
# messages are sent eagerly (smpi/async-small-thresh, as in scripts/smpi/run.sh).
set -euo pipefail
app=$1 costs=$2 P=$3 steps=$4 out=$5
shift 5
[[ ${1:-} == -- ]] && shift
build=${SMPI_BUILD:-build/smpi}
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
    --cfg=smpi/iprobe:1e-7 --cfg=smpi/test:1e-7 --log=root.thres:warning \
    "$bin" --steps "$steps" --schedule "$s" --costs "$costs" "$@" > "$f.tmp" 2>&1 || { tail -5 "$f.tmp" >&2; return 1; }
  mv "$f.tmp" "$f"
}
arms=(static ss tss auto-llvm guided-llvm mfac2 static-steal awf-b awf-c awf-d awf-e maf)
selectors=(auto auto:random auto:exhaustive auto:binary auto:expert auto:qlearn auto:sarsa auto:doubleq auto:qv
           auto:expected-sarsa auto:chunk)
total=$(( ${#arms[@]} * 2 + ${#selectors[@]} )) k=0
for a in "${arms[@]}"; do
  for s in "$a" "$a,chunk=expert"; do k=$((k + 1)); echo "[$k/$total] $app $s" >&2; run "$s" "$@"; done
done
for s in "${selectors[@]}"; do k=$((k + 1)); echo "[$k/$total] $app $s" >&2; run "$s" "$@"; done

# Per-step lines: "step <k> <loop> <technique> <protocol> <ms> ms …".
# Writes $out/$app.md (the table, selectors in the order above, the command
# that made it first) and $out/$app.csv (name,kind,t_par_s,vs_oracle_pct,share_pct)
# for quality-mean.sh.
order=$(printf '%s ' "${selectors[@]}" | tr ':' '_')
{
  echo "\`bench/mpi/quality.sh $app $costs $P $steps $out${*:+ -- $*}\` — $(date -u '+%F %H:%M UTC'),"
  echo "commit $(git rev-parse --short HEAD 2>/dev/null || echo '?'), $(smpirun -version 2>/dev/null | head -1 || echo 'SimGrid'); simulated (SMPI), $P hosts of 1 Gf."
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
