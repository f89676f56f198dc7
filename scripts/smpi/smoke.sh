#!/usr/bin/env bash
# The SimGrid SMPI studies in small (scripts/test.sh runs this): the library
# built with smpicxx, checked on simulated ranks, in about a minute.
#
#   scripts/smpi/smoke.sh [P]        (default P = 16 simulated ranks)
#
# 1. autosched::mpi covers every index exactly once at P ranks, master-worker
#    and RMA (the probe checks it on rank 0 and prints exactly_once=yes/no);
# 2. a run without the host's time charged (--host-time off) is reproducible:
#    `auto` on the replayed Mandelbrot costs twice gives the same arm and the
#    same loop time at every step (only the selection's own cost, timed on
#    the host, may differ);
# 3. bench/mpi/quality.sh and quality-mean.sh produce their tables (3 steps).
set -euo pipefail
cd "$(dirname "$0")/../.."
P=${1:-16}
[[ $P =~ ^[1-9][0-9]*$ ]] || { echo "smpi/smoke.sh: P=$P: expected a rank count >= 1" >&2; exit 2; }
command -v smpicxx >/dev/null || { echo "smpi/smoke.sh: smpicxx not found (libsimgrid-dev): nothing to check" >&2; exit 2; }

scripts/smpi/build.sh autosched-mandelbrot-mpi >/dev/null
bin=build/smpi/bin
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for protocol in master-worker rma; do
  scripts/smpi/run.sh -np "$P" -- $bin/autosched-mpi-library-probe --n 100003 --steps 3 --schedule fac2 \
    --protocol "$protocol" > "$tmp/probe.txt" 2>&1 || { cat "$tmp/probe.txt"; exit 1; }
  grep -q 'exactly_once=yes' "$tmp/probe.txt" && ! grep -q 'exactly_once=no' "$tmp/probe.txt" ||
    { cat "$tmp/probe.txt"; echo "smpi/smoke.sh: $protocol at P = $P: coverage not exactly once" >&2; exit 1; }
  echo "smpi smoke: $protocol at P = $P: every index exactly once"
done

costs=docs/results/mpi-quality/mandelbrot.costs
for k in 1 2; do
  scripts/smpi/run.sh -np "$P" --host-time off -- $bin/autosched-mandelbrot-mpi --steps 8 --schedule auto \
    --costs "$costs" --n 160 --max-iter 20000 > "$tmp/run$k.txt" 2>&1 || { cat "$tmp/run$k.txt"; exit 1; }
  # step, loop, arm, protocol, loop time: everything but the selection's host-timed cost
  awk '$1 == "step" { print $2, $3, $4, $5, $6 }' "$tmp/run$k.txt" > "$tmp/steps$k.txt"
done
[[ $(wc -l < "$tmp/steps1.txt") -eq 24 ]] || { cat "$tmp/run1.txt"; echo "smpi/smoke.sh: expected 24 step lines" >&2; exit 1; }
diff "$tmp/steps1.txt" "$tmp/steps2.txt" >&2 ||
  { echo "smpi/smoke.sh: two runs with --host-time off differ (above): the simulation is not deterministic" >&2; exit 1; }
echo "smpi smoke: auto on replayed Mandelbrot costs, P = $P, 8 steps: two runs identical"

JOBS=2 bench/mpi/quality.sh mandelbrot "$costs" "$P" 3 "$tmp/quality" -- --n 160 --max-iter 20000 \
  > "$tmp/quality.txt" 2>&1 || { tail -20 "$tmp/quality.txt"; exit 1; }
bench/mpi/quality-mean.sh "$tmp/quality" > /dev/null
grep -q '^| auto |' "$tmp/quality/mandelbrot.md" && grep -q 'Lowest mean' "$tmp/quality/mean.md" ||
  { cat "$tmp/quality/mandelbrot.md"; echo "smpi/smoke.sh: quality tables incomplete" >&2; exit 1; }
echo "smpi smoke: quality.sh at P = $P, 3 steps: tables written"
grep -E '^\| (Oracle|auto \||best fixed)' "$tmp/quality/mandelbrot.md"
