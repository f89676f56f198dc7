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
  --threads 2 --out "$dir/bench" --no-progress

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
} >"$out"
echo "wrote $out"
