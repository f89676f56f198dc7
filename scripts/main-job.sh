#!/usr/bin/env bash
# The main job: what autosched sees on this machine, a short example loop, then
# a time-stepping example run twice on a scratch store: the first run learns
# its loop's schedule, the second resumes from the store and exploits from its
# first step; a tunable region (three sorts, the best per input size) run twice
# the same way: the first run explores and trains a decision tree, the second
# starts from the stored model; an unmodified OpenMP program under the drop-in
# (`autosched run --report`); a task graph simulated and run for real
# (`autosched dag`); last, the demo campaign: two apps under the 24 Oracle arms, the
# OpenMP references, ExhaustiveSel, Q-Learn and auto, one repetition, with its
# table and pictures (build/demo). About four minutes on 2 cores. Run after
# scripts/setup.sh (or the build-only commands of the README).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=build/release/bin
[[ -x $bin/autosched ]] || { echo "main-job: $bin/autosched missing; run ./scripts/setup.sh first" >&2; exit 1; }
"$bin/autosched" info
echo
"$bin/first_loop"
store=$(mktemp -d)
trap 'rm -rf "$store"' EXIT
for run in first second; do
  printf '\ntime_steps, %s run (AUTOSCHED_DB=%s/autosched.db):\n' "$run" "$store"
  AUTOSCHED_DB="$store/autosched.db" "$bin/time_steps"
done
for run in first second; do
  printf '\nregion_algorithm, %s run (same store):\n' "$run"
  AUTOSCHED_DB="$store/autosched.db" "$bin/region_algorithm" --quiet
done
printf '\nAn unmodified OpenMP program (schedule(runtime) loops, no autosched API) under the drop-in:\n'
AUTOSCHED_DB="$store/autosched.db" "$bin/autosched" run --report -- "$bin/autosched-plain-mandelbrot" --steps 40 \
  --width 256 --height 128
printf '\nWhat the store holds:\n'
"$bin/autosched" db --db "$store/autosched.db" list
printf '\nA task graph: tiled Cholesky T=8 on a simulated 2cpu+2gpu platform, noise sigma=0.3 (READYS units):\n'
schedulers=heft,mct,mct-prio,heteroprio
# The learned policy (the shipped Cholesky model) where libtorch is built.
if "$bin/autosched" info | grep -qE '^  libtorch +found'; then schedulers+=,readys:cholesky; fi
"$bin/autosched" dag simulate --graph cholesky --tiles 8 --platform 2cpu+2gpu --sigma 0.3 --scheduler "$schedulers"
if "$bin/autosched" info | grep -qE '^  LAPACKE/BLAS +found'; then
  printf '\nThe same factorisation for real (n = 1024, 2 worker threads, calibrated kernels, verified):\n'
  "$bin/autosched" dag run --graph cholesky --tiles 8 --tile-size 128 --workers 2 --scheduler mct-prio,heteroprio \
    --runs 3
fi
echo
"$bin/autosched" demo --out build/demo
