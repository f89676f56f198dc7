#!/usr/bin/env bash
# Regenerates docs/results/guard.md: the auto selector's guard cutting a
# catastrophic ss trial, and the adaptive techniques' share for a slow thread,
# on real threads with real spins (the tests check both in virtual time; see
# tests/drive/virtual_time.hpp). Each figure is a median over the repetitions
# of a ratio taken within one repetition.
# Usage: bench/guard/run.sh [repetitions]   (default 7; run on an idle machine)
set -euo pipefail
cd "$(dirname "$0")/../.."
reps=${1:-7}
cmake --preset release >/dev/null
cmake --build --preset release --target bench_guard >/dev/null
mkdir -p docs/results
out=docs/results/guard.md
{
  echo "### Guard and slow-thread shares on real threads"
  echo
  echo "\`bench/guard/run.sh $reps\` — $(date -u +%F), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at the start."
  echo
  echo '```'
  AUTOSCHED_DB=off build/release/bin/bench_guard --reps "$reps"
  echo '```'
} >"$out"
cat "$out"
