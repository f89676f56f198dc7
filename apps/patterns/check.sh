#!/usr/bin/env bash
# Runs every pattern program (autosched-pattern-*) at a small size under
# several schedules and fails if any run's own check fails: natively with
# OMP_SCHEDULE=static, dynamic,1 and guided, and through the drop-in
# (`autosched run --schedule S`) under every technique of the portfolio and
# three selectors. The programs' checks are built to hold under any schedule (they never
# rely on which thread runs which iteration), so a failure here is a lost,
# repeated or misplaced iteration, in the program or in the scheduler.
# Builds nothing: give it the bin directory of a build that has the pattern
# programs and the autosched tool (AUTOSCHED names another tool).
# Usage: apps/patterns/check.sh <bin-dir>        (about a minute on 2 cores)
set -euo pipefail
if [[ $# -ne 1 || ! -d $1 ]]; then
  echo "usage: $0 <bin-dir>   (the directory holding autosched-pattern-* and autosched)" >&2
  exit 2
fi
bin=$(cd "$1" && pwd)
autosched=${AUTOSCHED:-$bin/autosched}
if [[ ! -x $autosched ]]; then
  echo "check.sh: no autosched tool at $autosched (set AUTOSCHED to its path)" >&2
  exit 2
fi
# Small sizes: each run takes well under a second, yet every loop still has
# more iterations than threads and every program runs several instances.
declare -A args=(
  [hydro]="--size 64 --steps 6"
  [particle-filter]="--particles 1024 --frames 5"
  [lu]="--size 320"
  [cg]="--size 6000 --steps 2"
  [lookup]="--size 2000 --lookups 4000"
)
programs=(hydro particle-filter lu cg lookup)
native=(static dynamic,1 guided)
# Every technique of the portfolio (as tests/omp runs the plain apps), a few
# with a chunk or a profile, and the selectors.
dropin=(static static,chunk=4 ss ss,chunk=3 fsc mfsc gss gss,chunk=16 guided-llvm auto-llvm tss static-steal fac
        fac,mu=120,sigma=40 mfac fac2 mfac2 wf tap bold awf awf-b awf-c awf-d awf-e af maf pls tfss fiss viss rnd
        auto auto:expert auto:qlearn)
threads=${OMP_NUM_THREADS:-2}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export AUTOSCHED_DB=$scratch/store.db  # never the user's own store

failed=0
runs=0
# One run: its label, then the command. Counts it, and prints its output when
# it failed or printed no "check ok" line.
check() {
  local label=$1 out
  shift
  runs=$((runs + 1))
  if out=$(timeout 300 "$@" 2>&1) && grep -q ' check ok$' <<<"$out"; then
    printf '  ok      %s\n' "$label"
  else
    failed=$((failed + 1))
    printf '  FAILED  %s\n' "$label"
    sed 's/^/          | /' <<<"$out"
  fi
}
for program in "${programs[@]}"; do
  exe=$bin/autosched-pattern-$program
  if [[ ! -x $exe ]]; then
    echo "check.sh: $exe is missing (build the autosched-pattern-* targets)" >&2
    exit 2
  fi
  read -r -a a <<<"${args[$program]}"
  echo "$program ${args[$program]}"
  for s in "${native[@]}"; do
    check "OMP_SCHEDULE=$s" env -u AUTOSCHED_SCHEDULE -u LD_PRELOAD OMP_NUM_THREADS="$threads" OMP_SCHEDULE="$s" "$exe" "${a[@]}"
  done
  for s in "${dropin[@]}"; do
    check "autosched run --schedule $s" env -u OMP_SCHEDULE OMP_NUM_THREADS="$threads" "$autosched" run --schedule "$s" -- "$exe" "${a[@]}"
  done
done
echo "$((runs - failed)) of $runs runs passed their checks"
((failed == 0))
