#!/usr/bin/env bash
# The learned policy (readys) against the baselines, in simulation: tiled
# Cholesky, LU and QR on 2cpu+2gpu at T = 4..16 (trained at T <= 8, so
# T >= 10 is transfer), σ = 0, 0.1, 0.3, 0.5, 100 noise samples per point
# (seeds 1..100, the same actual durations for every scheduler); the
# cholesky-platforms model on 2cpu+2gpu, 4cpu, 4gpu and 3cpu+1gpu; then the Cholesky model's cost per
# decision on this machine. Writes <out_dir>/<family>/makespans.{md,csv},
# <out_dir>/acceptance.md (each point against the better of HEFT and MCT)
# and <out_dir>/inference.md. Uses the shipped models unless MODELS=<dir>.
# Usage: bench/dag/policy.sh <out_dir>      (docs/results/dag/policy holds the last run)
#   AUTOSCHED_BUILD_DIR=<dir>  build and run in that configured build directory
#   SAMPLES=<n>                noise samples per point (default 100)
#   ONLY="qr ..."              tables of these models only (after retraining one)
#   PART=tables|acceptance|inference   only that part (acceptance: rebuild acceptance.md from
#                              the tables; the inference timing wants a quiet machine)
set -euo pipefail
[[ $# -eq 1 ]] || { echo "usage: $0 <out_dir>" >&2; exit 2; }
out=$(mkdir -p "$1" && cd "$1" && pwd)
cd "$(dirname "$0")/../.."
build=${AUTOSCHED_BUILD_DIR:-build/release}
if [[ -z ${AUTOSCHED_BUILD_DIR:-} ]]; then
  cmake --preset release >/dev/null
fi
cmake --build "$build" --target autosched_cli bench_dag_policy -j2 >/dev/null ||
  { echo "policy.sh: needs the learned policy (libtorch: scripts/install-deps.sh)" >&2; exit 1; }
models=${MODELS:-share/autosched/models}
baselines=heft,mct,mct-prio,heteroprio,heft-online
start=$(date +%s)
part=${PART:-all}
bench() {  # <dir> <graph> <tiles> <platforms> <model>
  AUTOSCHED_DB=off "$build/bin/autosched" dag bench --graphs "$2" --tiles "$3" --platforms "$4" \
    --sigmas 0,0.1,0.3,0.5 --samples "${SAMPLES:-100}" --schedulers "$baselines,readys:$5" --durations readys \
    --seed 1 --jobs 2 --no-progress --out "$out/$1" >/dev/null
}
if [[ $part == all || $part == tables ]]; then
for name in ${ONLY:-cholesky lu qr cholesky-platforms}; do
  case $name in
    cholesky | lu | qr) bench "$name" "$name" 4,6,8,10,12,14,16 2cpu+2gpu "$models/$name.model" ;;
    cholesky-platforms)
      bench cholesky-platforms cholesky 4,8,12,16 2cpu+2gpu,4cpu,4gpu,3cpu+1gpu "$models/cholesky-platforms.model" ;;
    *) echo "policy.sh: ONLY names cholesky, lu, qr or cholesky-platforms, not '$name'" >&2; exit 2 ;;
  esac
done
fi
if [[ $part != inference ]]; then

# Each point: readys against the better of static HEFT and MCT (the goals of
# docs/dag-policy.md), and against the best of every baseline.
awk -F, '
  FNR == 1 { file++; next }
  {
    key = file "|" $1 "|" $3 "|" $2 "|" $4
    if (!(key in seen)) { seen[key] = 1; keys[++n] = key }
    lb[key] = $11
    if ($5 ~ /^readys/) { readys[key] = $7; model[key] = $5 }
    else { mean[key, $5] = $7; if (!(key in best) || $7 < best[key]) { best[key] = $7; best_name[key] = $5 } }
  }
  END {
    print "# The learned policy against the baselines (simulated)\n"
    print "Mean makespan over the noise samples. **vs HEFT/MCT**: readys against the better of static HEFT and"
    print "MCT (negative: shorter). **vs best baseline**: against the best of heft, mct, mct-prio, heteroprio and"
    print "heft-online at that point. Trained at T ≤ 8: larger T are transfer.\n"
    print "| model | graph | platform | T | σ | readys | better of HEFT, MCT | vs HEFT/MCT | best baseline | vs best baseline | LB |"
    print "|---|---|---|--:|--:|--:|--:|--:|---|--:|--:|"
    for (i = 1; i <= n; i++) {
      k = keys[i]; split(k, f, "|")
      hm = mean[k, "heft"] < mean[k, "mct"] ? mean[k, "heft"] : mean[k, "mct"]
      printf "| %s | %s | %s | %s | %s | %.1f | %.1f | %+.1f%% | %s %.1f | %+.1f%% | %.1f |\n", model[k], f[2], f[3], f[4],
        f[5], readys[k], hm, 100 * (readys[k] / hm - 1), best_name[k], best[k], 100 * (readys[k] / best[k] - 1), lb[k]
    }
  }' "$out"/{cholesky,lu,qr,cholesky-platforms}/makespans.csv >"$out/acceptance.md"
echo "policy.sh: tables in $(($(date +%s) - start)) s" >&2
fi
[[ $part == tables || $part == acceptance ]] && exit 0

{
  echo "# The learned policy's cost per decision"
  echo
  echo "Measured on $(nproc) cores ($(uname -sr)), load average $(cut -d' ' -f1-3 /proc/loadavg) at the start;"
  echo "\`$build/bin/bench_dag_policy $models/cholesky.model 12 5\`: greedy episodes of tiled Cholesky T = 12"
  echo "on 2cpu+2gpu, medians of 5 repetitions."
  echo
  "$build/bin/bench_dag_policy" "$models/cholesky.model" 12 5
} >"$out/inference.md"
echo "policy.sh: wrote $out/acceptance.md, $out/inference.md and the tables" >&2
