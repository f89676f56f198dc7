#!/usr/bin/env bash
# Regenerates the dispatch results in docs/results/:
#   dispatch-libgomp.md, dispatch-libomp.md  every technique and the OpenMP baselines,
#                                            built with g++ (libgomp) and clang (LLVM libomp);
#   dispatch-goal.md                         ss,chunk=1 against libgomp's dynamic,1 and the bare
#                                            fetch_add loop over 5 independent runs (whole runs
#                                            drift by ~15% on a shared 2-core VM, so one run is
#                                            not enough to judge a 10% goal).
# Usage: bench/dispatch/run.sh [repetitions]   (default 31; run on an idle machine)
set -euo pipefail
cd "$(dirname "$0")/../.."
reps=${1:-31}
runs=5
mkdir -p docs/results
for preset in release clang-release; do
  cmake --preset "$preset" >/dev/null
  cmake --build --preset "$preset" --target bench_dispatch >/dev/null
done
declare -A binary=([libgomp]=build/release/bin/bench_dispatch [libomp]=build/clang-release/bin/bench_dispatch)
for runtime in libgomp libomp; do
  "${binary[$runtime]}" --reps "$reps" --out "docs/results/dispatch-$runtime.md" >/dev/null
done

# Ratio columns of the ss,chunk=1 row, per body, over independent runs.
median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{v[NR]=$1} END {print (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2)}'; }
{
  echo "### ss,chunk=1 against the baselines, $runs independent runs of 101 interleaved repetitions"
  echo
  echo "\`bench/dispatch/run.sh\` — $(date -u +%F), ${binary[libgomp]} and ${binary[libomp]} --reps 101 --only 'ss,chunk=1'"
  echo
  echo "| runtime | body | × omp dynamic,1 per run | median | × bare fetch_add per run | median |"
  echo "|---|---|---|---:|---|---:|"
  for runtime in libgomp libomp; do
    declare -A dyn=() bare=()
    for ((r = 0; r < runs; ++r)); do
      body=""
      while IFS= read -r line; do
        case "$line" in
          "**Empty body**") body=empty ;;
          "**Tiny body"*) body=tiny ;;
          "| ss,chunk=1 |"*)
            dyn[$body]+=" $(echo "$line" | awk -F'|' '{gsub(/ /,"",$6); print $6}')"
            bare[$body]+=" $(echo "$line" | awk -F'|' '{gsub(/ /,"",$7); print $7}')" ;;
        esac
      done < <("${binary[$runtime]}" --reps 101 --only 'ss,chunk=1')
    done
    for body in empty tiny; do
      echo "| $runtime | $body |${dyn[$body]} | $(echo "${dyn[$body]}" | median) |${bare[$body]} | $(echo "${bare[$body]}" | median) |"
    done
  done
} > docs/results/dispatch-goal.md
echo "wrote docs/results/dispatch-{libgomp,libomp,goal}.md"
