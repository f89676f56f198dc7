#!/usr/bin/env bash
# Regenerates docs/results/scale-simulation.md: every selector on the six
# apps' loops at 20, 56 and 128 workers (the seed papers' node sizes; this
# machine has 2 cores), and at 56 workers of which every second runs at half
# speed. SIMULATED: each loop's cost profile, recorded on this machine by
# bench/simulator/validate.sh (kept in docs/results/app-profiles.tsv, so the
# study reruns anywhere), is replayed by the loop simulator for each of
# auto's 24 arms (`autosched select-sim --profiles`); a selector pays its
# arm's simulated time per step, with 1% noise of the arm's own and 3%
# shared by all arms at the step. Takes a few seconds.
# Usage: bench/simulator/scale.sh [profiles.tsv]   (default docs/results/app-profiles.tsv)
set -euo pipefail
cd "$(dirname "$0")/../.."
profiles=${1:-docs/results/app-profiles.tsv}
cmake --preset release >/dev/null
cmake --build --preset release --target autosched_cli >/dev/null
bin=build/release/bin
selectors="auto:random;auto:exhaustive;auto:exhaustive,chunk=expert;auto:binary;auto:expert;auto:qlearn"
selectors+=";auto:qlearn,chunk=expert;auto:sarsa;auto:qlearn,reward=loadimbalance;auto:qlearn,policy=epsilon-greedy;auto"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
"$bin/autosched" select-sim --profiles "$profiles" --workers 20,56,128 --seeds 5 --selectors "$selectors" \
  --csv "$scratch/equal.csv" >/dev/null
"$bin/autosched" select-sim --profiles "$profiles" --workers 56 --speeds 1:0.5 --seeds 5 --selectors "$selectors" \
  --csv "$scratch/mixed.csv" >/dev/null
out=docs/results/scale-simulation.md
table() {  # $1: csv, $2: column (8 = regret vs fixed, 9 = regret vs oracle, 10 = exploration)
  awk -F, -v col="$2" '
    NR == 1 { next }
    { # the selector is quoted and may hold commas: take it out before splitting
      match($0, /"[^"]*"/); sel = substr($0, RSTART + 1, RLENGTH - 2)
      line = substr($0, 1, RSTART - 1) "x" substr($0, RSTART + RLENGTH); split(line, f, ",")
      s = f[1]; v[sel, s] = f[col]
      if (!(s in seen_s)) { seen_s[s] = 1; scen[++ns] = s }
      if (!(sel in seen_m)) { seen_m[sel] = 1; meth[++nm] = sel } }
    END {
      printf "| selector |"; for (j = 1; j <= ns; j++) printf " %s |", scen[j]; print " mean |"
      printf "|---|"; for (j = 0; j <= ns; j++) printf "---:|"; print ""
      for (j = 1; j <= ns; j++) for (i = 1; i <= nm; i++) if (!(j in low) || v[meth[i], scen[j]] < low[j]) low[j] = v[meth[i], scen[j]]
      for (i = 1; i <= nm; i++) { m = 0; for (j = 1; j <= ns; j++) m += v[meth[i], scen[j]]; mean[i] = m / ns
        if (i == 1 || mean[i] < lowmean) lowmean = mean[i] }
      for (i = 1; i <= nm; i++) { printf "| `%s` |", meth[i]
        for (j = 1; j <= ns; j++) printf (v[meth[i], scen[j]] == low[j] ? " **%.1f** |" : " %.1f |"), v[meth[i], scen[j]]
        printf (mean[i] == lowmean ? " **%.1f** |\n" : " %.1f |\n"), mean[i] }
    }' "$1"
}
{
  echo "# Selectors at 20, 56 and 128 workers (simulated)"
  echo
  echo "\`bench/simulator/scale.sh\` ($(date -u +%F)). **Simulated, not measured**: the loops are the six apps'"
  echo "cost profiles recorded on the 2-core reference machine ([app-profiles.tsv](app-profiles.tsv), from"
  echo "\`bench/simulator/validate.sh\`), replayed by the loop simulator at each team size for each of auto's"
  echo "24 arms; 200 steps, 5 seeds, 1% noise per arm and 3% shared per step. The published selectors run"
  echo "their own 12 arms (\`chunk=expert\`: the expChunk 12), auto all 24; the Oracle and the best fixed arm"
  echo "are over all 24. Lower is better; the best of each column in bold."
  echo
  echo "## Degradation vs the per-step Oracle (%), equal workers"
  echo
  table "$scratch/equal.csv" 9
  echo
  echo "## Explored steps (%), equal workers"
  echo
  table "$scratch/equal.csv" 10
  echo
  echo "## Degradation vs the per-step Oracle (%), 56 workers, every second one at half speed"
  echo
  table "$scratch/mixed.csv" 9
} >"$out"
echo "wrote $out"
