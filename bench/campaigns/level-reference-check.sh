#!/usr/bin/env bash
# Does a level reference change the loop it measures? (docs/campaigns.md, "Level
# references"). For every app, native and plain OpenMP build, interleaved:
#   old     the apps of OLD_BIN (before the references were added), no option;
#   new     the apps of NEW_BIN, no option (the same code must compile the same);
#   new+ref the apps of NEW_BIN with --level-reference (the loop's own instances
#           must not slow down because the reference follows them).
# Each process: the median instance time of every loop over steps 1+ (step 0
# pays for thread creation), one fixed schedule (native: SCHEDULE, default mfac2;
# plain: omp:guided); the three variants take turns in a rotating order, so
# that no variant always runs first. Prints one markdown row per loop: the
# median over REPS processes of each variant, and new/old and new+ref/new in
# %, after a first table that compares the machine code of the measured loops
# (native: autosched::parallel_for's chunk functions for main's bodies; plain:
# App::loop's outlined OpenMP regions), addresses left out: "same" means the
# reference did not change how the loop is compiled. Run on an idle machine;
# the apps' default sizes, STEPS steps (default 60); APPS="a b" checks only those apps.
#   usage: bench/campaigns/level-reference-check.sh OLD_BIN NEW_BIN [REPS] [STEPS]
set -euo pipefail
old=${1:?usage: level-reference-check.sh OLD_BIN NEW_BIN [REPS] [STEPS]}
new=${2:?usage: level-reference-check.sh OLD_BIN NEW_BIN [REPS] [STEPS]}
reps=${3:-5}
steps=${4:-60}
schedule=${SCHEDULE:-mfac2}
read -r -a apps <<<"${APPS:-mandelbrot stream-triad pisolver triangle-count nbody-gravity short-range-force}"
for app in "${apps[@]}"; do
  for dir in "$old" "$new"; do
    for build in "" plain-; do
      [[ -x "$dir/autosched-$build$app" ]] || { echo "level-reference-check: $dir/autosched-$build$app missing" >&2; exit 1; }
    done
  done
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# median_per_loop FILE: "loop median_ns" for every loop of a record, references left out.
median_per_loop() {
  awk -F, 'NR > 1 && $1 >= 1 && $2 !~ /@reference$/ {print $2, $3}' "$1" | sort -k1,1 -k2,2n |
    awk '{v[$1] = v[$1] " " $2; n[$1]++} END {for (l in v) {split(substr(v[l], 2), x, " "); print l, x[int((n[l] + 1) / 2)]}}'
}
# loop_code BIN: the measured loops' machine code, in the order of their
# bodies, lambda numbers, addresses and comments left out.
loop_code() {
  local pattern
  case $1 in
    */autosched-plain-*) pattern='autosched::apps::App::loop<' ;;
    *) pattern='autosched::parallel_for<long, long, main::' ;;
  esac
  nm -C -S "$1" | grep -E '^[0-9a-f]+ [0-9a-f]+ [tT] ' | grep -F -- "$pattern" | sort -k4 -V |
    while read -r addr size _ _; do
      objdump -d --no-show-raw-insn --start-address=$((16#$addr)) --stop-address=$((16#$addr + 16#$size)) "$1" |
        grep -E '^ +[0-9a-f]+:' | sed -E 's/^ *[0-9a-f]+:[[:space:]]*//; s/[0-9a-f]+ <[^>]*>/ADDR/g; s/-?0x[0-9a-f]+\(%rip\)/RIP/g; s/#.*$//'
    done
}
if command -v objdump >/dev/null; then
  printf '| app | build | measured loop functions | instructions | machine code old vs new |\n|---|---|---:|---:|---|\n'
  for app in "${apps[@]}"; do
    for build in "" plain-; do
      loop_code "$old/autosched-$build$app" >"$tmp/old.s"
      loop_code "$new/autosched-$build$app" >"$tmp/new.s"
      functions=$(nm -C "$new/autosched-$build$app" | grep -cF -- "$([[ -n $build ]] && echo 'autosched::apps::App::loop<' || echo 'autosched::parallel_for<long, long, main::')")
      printf '| %s | %s | %s | %s | %s |\n' "$app" "${build:-native}" "$functions" "$(wc -l <"$tmp/new.s")" \
        "$(cmp -s "$tmp/old.s" "$tmp/new.s" && echo same || echo DIFFERENT)"
    done
  done
  echo
fi
printf '| build | loop | old (ms) | new (ms) | new + reference (ms) | new / old | with / without reference |\n'
printf '|---|---|---:|---:|---:|---:|---:|\n'
for app in "${apps[@]}"; do
  for build in "" plain-; do
    if [[ -z $build ]]; then sched=$schedule; else sched=omp:guided; fi
    : >"$tmp/rows"
    for ((r = 0; r < reps; ++r)); do
      variants=(old new new+ref)
      for ((k = 0; k < 3; ++k)); do
        variant=${variants[(r + k) % 3]}
        case $variant in
          old) bin=$old/autosched-$build$app; extra=() ;;
          new) bin=$new/autosched-$build$app; extra=() ;;
          new+ref) bin=$new/autosched-$build$app; extra=(--level-reference) ;;
        esac
        AUTOSCHED_DB=off "$bin" --steps "$steps" --schedule "$sched" --record "$tmp/run.csv" --quiet "${extra[@]}" >/dev/null
        median_per_loop "$tmp/run.csv" | sed "s/^/$variant /" >>"$tmp/rows"
      done
    done
    sort -k2,2 -k1,1 -k3,3n "$tmp/rows" |
      awk -v build="${build:-native}" -v sched="$sched" '
        {v[$2, $1] = v[$2, $1] " " $3; n[$2, $1]++; loops[$2] = 1}
        function med(key,   x, k) { k = split(substr(v[key], 2), x, " "); return x[int((k + 1) / 2)] / 1e6 }
        END {
          for (l in loops) {
            o = med(l SUBSEP "old"); w = med(l SUBSEP "new"); r = med(l SUBSEP "new+ref")
            printf "| %s (%s) | %s | %.3f | %.3f | %.3f | %+.1f%% | %+.1f%% |\n", build, sched, l, o, w, r, 100 * (w / o - 1), 100 * (r / w - 1)
          }
        }' | sort -t'|' -k3,3
  done
done
