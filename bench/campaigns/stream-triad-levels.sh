#!/usr/bin/env bash
# stream-triad's per-process level in a finished campaign (issue 12, item 6;
# docs/results/stream-triad-bimodal.md). For every stream-triad process of the
# cold phase, in the order the campaign wrote them, its mean step time (steps
# 10+), whether it ran at the fast or the slow level (split at SPLIT_MS,
# default 7 ms; processes above 11 ms are slow arms, not a level, and are left
# out), and a runs test: if the level were each process's own luck, the number
# of runs of equal levels would be about its expected value; far fewer runs
# mean the level lasts across consecutive processes, a phase of the host.
# Where the campaign ran level references, each process's loop ÷ reference
# (means over the same steps) follows, and its range per level: a level the
# division removes leaves that ratio alike in fast and slow processes.
#   usage: bench/campaigns/stream-triad-levels.sh [CAMPAIGN_DIR] [SPLIT_MS]   (default build/campaign-v2, 7)
set -euo pipefail
dir=${1:-build/campaign-v2}
split_ms=${2:-7}
[[ -f "$dir/runs.csv" ]] || { echo "stream-triad-levels: $dir/runs.csv not found (run a campaign first)" >&2; exit 1; }
# runs.csv: phase,app,loop,configuration,kind,spec,rep,step,time_ns,...
grep -v '^#' "$dir/runs.csv" |
  awk -F, -v split_ms="$split_ms" '
    $1 == "cold" && $3 == "stream-triad/triad" && $8 >= 10 {
      k = $4 "," $7
      if (!(k in first)) { first[k] = ++n; order[n] = k }
      sum[k] += $9; count[k]++
    }
    $1 == "cold" && $3 == "stream-triad/triad@reference" && $8 >= 10 { ref[$4 "," $7] += $9; refs[$4 "," $7]++ }
    END {
      for (i = 1; i <= n; ++i) {
        k = order[i]; ms = sum[k] / count[k] / 1e6
        if (ms > 11) continue
        level = ms < split_ms ? "F" : "S"
        seq = seq level
        if (k in refs) {
          ratio = (sum[k] / count[k]) / (ref[k] / refs[k])
          printf "%-28s %7.2f ms  %s  loop/reference %.3f\n", k, ms, level, ratio
          if (!(level in lo) || ratio < lo[level]) lo[level] = ratio
          if (!(level in hi) || ratio > hi[level]) hi[level] = ratio
        } else {
          printf "%-28s %7.2f ms  %s\n", k, ms, level
        }
      }
      m = length(seq); fast = gsub(/F/, "F", seq); slow = m - fast; runs = m > 0 ? 1 : 0
      for (i = 2; i <= m; ++i) if (substr(seq, i, 1) != substr(seq, i - 1, 1)) ++runs
      print ""
      print "levels in order: " seq
      for (l in lo) printf "loop/reference in %s processes: %.3f to %.3f\n", l == "F" ? "fast" : "slow", lo[l], hi[l]
      if (fast == 0 || slow == 0) { print "one level only: no runs test"; exit }
      expected = 2 * fast * slow / m + 1
      variance = 2 * fast * slow * (2 * fast * slow - m) / (m * m * (m - 1))
      printf "%d processes: %d fast, %d slow; %d runs against %.1f expected if independent (z = %.1f)\n",
             m, fast, slow, runs, expected, (runs - expected) / sqrt(variance)
    }'
