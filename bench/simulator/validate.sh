#!/usr/bin/env bash
# Regenerates docs/results/simulator-validation.md: the loop simulator's
# predictions against real runs on this machine (issue 12, item 1).
#   1. Each of the six apps runs `steps` steps with every loop on the
#      `profiling` technique (chunk ⌈N/256⌉, one timed chunk per block) and
#      AUTOSCHED_PROFILES set; the first instance of each loop (cold) is
#      dropped and the others are averaged: the loop's cost profile.
#   2. `autosched simulate` predicts each of auto's 24 arms at P = 2 from it.
#   3. `autosched bench` runs every arm for real (`reps` × `steps`, arms
#      interleaved), and the median step time per loop and arm is compared
#      with the prediction.
# Usage: bench/simulator/validate.sh [steps] [reps]   (default 20 and 3; about
# 15 minutes on the 2-core development VM; run on an idle machine)
set -euo pipefail
cd "$(dirname "$0")/../.."
steps=${1:-20}
reps=${2:-3}
apps=(mandelbrot stream-triad pisolver triangle-count nbody-gravity short-range-force)
targets=(autosched_cli)
for app in "${apps[@]}"; do targets+=("autosched-$app"); done
cmake --preset release >/dev/null
cmake --build --preset release --target "${targets[@]}" >/dev/null
bin=build/release/bin
dir=build/release/simulator-validation
rm -rf "$dir"
mkdir -p "$dir"
export OMP_NUM_THREADS=2 AUTOSCHED_DB=off
unset AUTOSCHED_SCHEDULE AUTOSCHED_SCHEDULE_FOR OMP_SCHEDULE

# 1. Profiles.
for app in "${apps[@]}"; do
  # The loops and their sizes, from one traced step.
  AUTOSCHED_SCHEDULE=static AUTOSCHED_TRACE="$dir/$app.loops.csv" "$bin/autosched-$app" --steps 1 >/dev/null
  for_loops=$(awk -F, 'NR > 1 { gsub(/"/, "", $1); if (!($1 in seen)) { seen[$1] = 1;
      c = int(($8 + 255) / 256); printf "%s%s=profiling,chunk=%d", sep, $1, c; sep = ";" } }' "$dir/$app.loops.csv")
  AUTOSCHED_SCHEDULE_FOR="$for_loops" AUTOSCHED_PROFILES="$dir/$app.all.tsv" "$bin/autosched-$app" --steps "$steps" \
    >/dev/null
  awk -F'\t' 'seen[$1]++' "$dir/$app.all.tsv" >>"$dir/profiles.tsv"  # every loop's first profile dropped
done
"$bin/autosched" simulate --profiles "$dir/profiles.tsv" --workers 2 --csv "$dir/predicted.csv" >"$dir/predicted.txt"

# 3. Real runs of every arm.
"$bin/autosched" bench --apps all --arms all --references none --methods none --reps "$reps" --steps "$steps" \
  --threads 2 --out "$dir/bench" --no-progress --no-level-reference

# Median step time per loop and arm (steps 2.. of every repetition: the
# first instances pay for thread creation and page faults), against the
# prediction.
awk -F, '
  FNR == 1 { file++ }
  file == 1 && FNR > 1 { gsub(/"/, "", $1); predicted[$1 "|" $4] = $5; next }
  file == 2 && /^phase,/ { next }
  file == 2 && !/^#/ && $8 >= 2 { key = $3 "|" $6; n[key]++; t[key, n[key]] = $9 / 1e6 }
  END {
    for (key in n) {
      m = n[key]
      for (i = 1; i <= m; i++) v[i] = t[key, i]
      for (i = 2; i <= m; i++) { x = v[i]; j = i - 1; while (j > 0 && v[j] > x) { v[j + 1] = v[j]; j-- } v[j + 1] = x }
      median = (m % 2) ? v[(m + 1) / 2] : (v[m / 2] + v[m / 2 + 1]) / 2
      if (key in predicted) printf "%s,%.4f,%.4f\n", key, predicted[key], median
    }
  }' "$dir/predicted.csv" "$dir/bench/runs.csv" | sort >"$dir/compare.csv"

out=docs/results/simulator-validation.md
{
  echo "# The loop simulator against real runs"
  echo
  echo "Regenerate with \`bench/simulator/validate.sh $steps $reps\` ($(date -u +%Y-%m-%d), $(nproc) cores, 2 threads,"
  echo "$(sed -n 's/^# cpu: //p' "$dir/bench/runs.csv" | head -1); app default sizes). **Predicted**: \`autosched simulate\` on each"
  echo "loop's cost profile (the mean of $((steps - 1)) warm profiling instances, 256 blocks). **Measured**: median"
  echo "step time of the arm run fixed, $reps repetitions × $steps steps, first two steps of each dropped. Error ="
  echo "predicted / measured − 1."
  echo
  awk -F'[,|]' '
    { loop = $1; err = ($3 / $4 - 1) * 100; e = err < 0 ? -err : err
      sum[loop] += e; cnt[loop]++; all[++k] = e
      if (!(loop in bestm) || $4 < bestm[loop]) { bestm[loop] = $4; bestarm[loop] = $2 }
      if (!(loop in bestp) || $3 < bestp[loop]) { bestp[loop] = $3; parm[loop] = $2; pmeas[loop] = $4 }
      rows[loop] = rows[loop] sprintf("| %s | %.3f | %.3f | %+.1f%% |\n", $2, $3, $4, err) }
    END {
      print "| loop | mean abs. error | measured best arm | predicted best arm | its measured time vs the best |"
      print "|---|---:|---|---|---:|"
      for (l in cnt) printf "| %s | %.1f%% | %s | %s | %+.1f%% |\n", l, sum[l] / cnt[l], bestarm[l], parm[l], (pmeas[l] / bestm[l] - 1) * 100
      n = k; for (i = 2; i <= n; i++) { x = all[i]; j = i - 1; while (j > 0 && all[j] > x) { all[j + 1] = all[j]; j-- } all[j + 1] = x }
      printf "\nOver all %d loop × arm pairs: median absolute error %.1f%%.\n", n, (n % 2) ? all[(n + 1) / 2] : (all[n / 2] + all[n / 2 + 1]) / 2
      for (l in rows) { printf "\n**%s**\n\n| arm | predicted ms | measured ms | error |\n|---|---:|---:|---:|\n%s", l, rows[l] }
    }' "$dir/compare.csv"
  echo
  echo "## The cross-loop prior, leave one app out"
  echo
  echo "For each app, the per-arm corrections (select/selectors/auto/arm_corrections.hpp: each arm's log measured/predicted"
  echo "ratio minus its loop's median, averaged over loops) are learned from the other five apps' loops and"
  echo "applied to this app's predictions. **Pick**: the measured time of the arm ranked first, against the"
  echo "measured best. **Shortlist**: whether the measured best is among the arms auto would try (within"
  echo "10% of the best prediction, 2 to 4 arms)."
  echo
  echo "| loop | pick, simulator alone | pick, with the prior | shortlist holds the best, alone | with the prior |"
  echo "|---|---:|---:|:-:|:-:|"
  awk -F'[,|]' '
    { loop = $1; a = $2; key = loop SUBSEP a; pred[key] = $3; meas[key] = $4; r[key] = log($4 / $3)
      if (!(loop in seen)) { seen[loop] = 1; loops[++nl] = loop }
      if (!((a) in seenarm)) { seenarm[a] = 1; arms[++na] = a }
      member[loop, ++count[loop]] = a }
    function app(l) { split(l, parts, "/"); return parts[1] }
    function median_level(l,    i, j, x, m, v) {
      m = count[l]; for (i = 1; i <= m; i++) v[i] = r[l SUBSEP member[l, i]]
      for (i = 2; i <= m; i++) { x = v[i]; j = i - 1; while (j > 0 && v[j] > x) { v[j + 1] = v[j]; j-- } v[j + 1] = x }
      return (m % 2) ? v[(m + 1) / 2] : (v[m / 2] + v[m / 2 + 1]) / 2 }
    function pick(l, corrected,    i, a, t, best, bestt) {
      bestt = -1; for (i = 1; i <= count[l]; i++) { a = member[l, i]; t = pred[l SUBSEP a] * (corrected ? exp(corr[a]) : 1)
        score[a] = t; if (bestt < 0 || t < bestt) { bestt = t; best = a } } return best }
    function in_shortlist(l, target,    i, a, n, order, x, j, k, bt) {
      n = count[l]; for (i = 1; i <= n; i++) order[i] = member[l, i]
      for (i = 2; i <= n; i++) { x = order[i]; j = i - 1; while (j > 0 && score[order[j]] > score[x]) { order[j + 1] = order[j]; j-- } order[j + 1] = x }
      bt = score[order[1]]
      for (k = 1; k <= n && k <= 4; k++) { if (k > 2 && score[order[k]] > 1.1 * bt) break; if (order[k] == target) return "yes" }
      return "no" }
    END {
      for (i = 1; i <= nl; i++) level[loops[i]] = median_level(loops[i])
      for (i = 1; i <= nl; i++) {
        l = loops[i]; held = app(l)
        for (k = 1; k <= na; k++) { s = 0; c = 0
          for (j = 1; j <= nl; j++) { o = loops[j]; if (app(o) == held || !((o SUBSEP arms[k]) in r)) continue
            s += r[o SUBSEP arms[k]] - level[o]; c++ }
          corr[arms[k]] = c >= 2 ? s / c : 0 }
        bm = -1; for (k = 1; k <= count[l]; k++) { a = member[l, k]; if (bm < 0 || meas[l SUBSEP a] < bm) { bm = meas[l SUBSEP a]; ba = a } }
        p0 = pick(l, 0); s0 = in_shortlist(l, ba); p1 = pick(l, 1); s1 = in_shortlist(l, ba)
        printf "| %s | %s %+.1f%% | %s %+.1f%% | %s | %s |\n", l, p0, (meas[l SUBSEP p0] / bm - 1) * 100, p1, (meas[l SUBSEP p1] / bm - 1) * 100, s0, s1
      }
    }' "$dir/compare.csv"
} >"$out"
echo "wrote $out"
