#!/usr/bin/env bash
# Regenerates docs/patterns.md: the real-code pattern suite (apps/patterns:
# plain OpenMP programs shaped like a Lagrangian hydro cycle, a particle
# filter, a blocked LU, preconditioned CG on uneven rows and one-shot Monte
# Carlo lookups) run as a user would run them, natively and through the
# drop-in, for each compiler build (g++ / libgomp, clang / LLVM libomp).
# Per program, seven configurations, each one process:
#   static, guided, dynamic,1   natively, OMP_SCHEDULE=<that>
#   default                     natively, OMP_SCHEDULE unset (libgomp: dynamic,1; libomp: static)
#   drop-in static              autosched run --schedule static: the drop-in's own static, so
#                               with the same preloaded library and heap as the auto runs
#   auto cold                   autosched run, on a fresh store (AUTOSCHED_DB=<new file>)
#   auto warm                   autosched run again, on the store the cold run just wrote
# The seven alternate within a repetition, their order rotated and reversed
# from one repetition to the next (the warm run always after its cold run),
# so drift of this shared machine hits all of them alike; every repetition
# gets fresh stores. Each run records the whole process's wall time (bash's
# clock around it) and the program's own loop_ms; a run whose check fails
# stops the campaign. The table gives medians over the repetitions.
# Usage: bench/patterns/run.sh [--reps N] [--quick] [--out FILE] [--csv FILE]
#          [--gcc-build DIR] [--clang-build DIR] [--gcc-bin DIR] [--clang-bin DIR] [--compilers gcc,clang]
#   --reps N          repetitions (default 5; --quick: 1)
#   --quick           a smoke run: 1 repetition at small sizes (under a minute for both builds)
#   --out FILE        the markdown table (default docs/patterns.md)
#   --csv FILE        every run (default: FILE of --out with -runs.csv for .md)
#   --gcc-build DIR   the g++ build (default build/release): its bin/autosched runs the drop-in,
#                     and its pattern targets are built there (cmake --build DIR --target ...)
#   --clang-build DIR the clang build (default build/clang-release), likewise
#   --gcc-bin DIR     take the g++ pattern programs from DIR instead and build nothing for g++
#   --clang-bin DIR   the same for clang
#   --compilers LIST  which builds to run (default gcc,clang; a build without bin/autosched is
#                     skipped with a note in the table)
#   --run-timeout S   a run still going after S seconds is killed and shown as "> S s"; that
#                     configuration is not run again in later repetitions (default 60)
# Run on an idle machine: the programs are memory- and latency-bound, and
# anything else running moves their times. The full campaign takes about 10
# minutes on the 2-core VM, most of it hydro under dynamic,1 (also libgomp's
# default): 18 M single-iteration chunks a step, 10-20 s a run with libgomp,
# and with LLVM libomp, whose chunks cost about 1 us each on that VM when it
# was shared, far longer than the run timeout (one run took 8 minutes).
set -euo pipefail
export LC_ALL=C  # bash's clock and awk read and write decimal points
command_line="bench/patterns/run.sh${*:+ $*}"
here=$PWD
cd "$(dirname "$0")/../.."
# A path given on the command line is the caller's, relative to where they stood.
given() { case $1 in /*) echo "$1" ;; *) echo "$here/$1" ;; esac; }

reps=5
quick=0
out=docs/patterns.md
csv=
declare -A build=([gcc]=build/release [clang]=build/clang-release)
declare -A prebuilt=([gcc]= [clang]=)
compilers=gcc,clang
reps_given=0
run_timeout=60
while (($#)); do
  case $1 in
    --reps) reps=${2:?"$1 wants a value"}; reps_given=1; shift 2 ;;
    --quick) quick=1; shift ;;
    --out) out=$(given "${2:?"$1 wants a value"}"); shift 2 ;;
    --csv) csv=$(given "${2:?"$1 wants a value"}"); shift 2 ;;
    --gcc-build) build[gcc]=$(given "${2:?"$1 wants a value"}"); shift 2 ;;
    --clang-build) build[clang]=$(given "${2:?"$1 wants a value"}"); shift 2 ;;
    --gcc-bin) prebuilt[gcc]=$(given "${2:?"$1 wants a value"}"); shift 2 ;;
    --clang-bin) prebuilt[clang]=$(given "${2:?"$1 wants a value"}"); shift 2 ;;
    --compilers) compilers=${2:?"$1 wants a value"}; shift 2 ;;
    --run-timeout) run_timeout=${2:?"$1 wants a value"}; shift 2 ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "run.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
if ((quick && !reps_given)); then reps=1; fi
[[ $reps =~ ^[1-9][0-9]*$ ]] || { echo "run.sh: --reps wants a positive integer" >&2; exit 2; }
[[ $run_timeout =~ ^[1-9][0-9]*$ ]] || { echo "run.sh: --run-timeout wants a positive integer" >&2; exit 2; }
csv=${csv:-${out%.md}-runs.csv}

programs=(hydro particle-filter lu cg lookup)
# Sizes. Full: the programs' defaults (0.3-2 s each at 2 threads). Quick:
# small enough for CI, big enough that every loop has many iterations.
declare -A args
if ((quick)); then
  args=([hydro]="--size 96 --steps 4" [particle-filter]="--particles 2048 --frames 3" [lu]="--size 384"
        [cg]="--size 20000 --steps 1" [lookup]="--size 4000 --lookups 10000")
else
  args=([hydro]="" [particle-filter]="" [lu]="" [cg]="" [lookup]="")
fi
configs=(static guided dynamic,1 default dropin-static auto-cold auto-warm)
export OMP_NUM_THREADS=2

# Which builds run, and where their programs and tool are.
declare -A bindir tool
ran=()
skipped=()
IFS=, read -r -a wanted <<<"$compilers"
for c in "${wanted[@]}"; do
  case $c in gcc | clang) ;; *) echo "run.sh: --compilers takes gcc and/or clang, not '$c'" >&2; exit 2 ;; esac
  dir=${build[$c]}
  if [[ ! -x $dir/bin/autosched && ! -f $dir/CMakeCache.txt ]]; then
    skipped+=("$c: no build at $dir")
    echo "run.sh: skipping $c: no build at $dir" >&2
    continue
  fi
  if [[ -n ${prebuilt[$c]} ]]; then
    bindir[$c]=$(cd "${prebuilt[$c]}" && pwd)
  else
    targets=(autosched_cli autosched_omp)
    for p in "${programs[@]}"; do targets+=("autosched-pattern-$p"); done
    echo "run.sh: building ${targets[*]} in $dir" >&2
    cmake --build "$dir" --target "${targets[@]}" >/dev/null
    bindir[$c]=$(cd "$dir/bin" && pwd)
  fi
  tool[$c]=$(realpath -m "$dir/bin/autosched")
  if [[ ! -x ${tool[$c]} ]]; then
    skipped+=("$c: no autosched tool in $dir/bin")
    echo "run.sh: skipping $c: no autosched tool in $dir/bin" >&2
    continue
  fi
  for p in "${programs[@]}"; do
    [[ -x ${bindir[$c]}/autosched-pattern-$p ]] || { echo "run.sh: ${bindir[$c]}/autosched-pattern-$p is missing" >&2; exit 1; }
  done
  ran+=("$c")
done
((${#ran[@]})) || { echo "run.sh: no build to run" >&2; exit 1; }

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
# Read before the runs: the CSV this campaign writes into docs/ would count as a change.
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
if [[ -n $(git status --porcelain 2>/dev/null | head -1) ]]; then commit+=" (with uncommitted changes)"; fi
started=$(date -u '+%F %H:%M UTC')
mkdir -p "$(dirname "$csv")" "$(dirname "$out")"
echo "compiler,program,config,rep,position,status,wall_ms,loop_ms,program_wall_ms" >"$csv"
declare -A timed_out  # "compiler program config" -> 1 once a run of it was killed

# One run of one configuration: appends its CSV row (status ok, or timeout
# with no loop_ms), or stops the campaign with the program's output when its
# check failed.
run_one() {
  local c=$1 p=$2 config=$3 rep=$4 position=$5 store=$6
  local exe=${bindir[$c]}/autosched-pattern-$p a line t0 t1 status=0
  read -r -a a <<<"${args[$p]}"
  local clean=(env -u OMP_SCHEDULE -u AUTOSCHED_SCHEDULE -u AUTOSCHED_SCHEDULE_FOR -u AUTOSCHED_OMP_REPORT
               -u AUTOSCHED_OMP_LOOPS -u LD_PRELOAD)
  local cmd
  case $config in
    static | guided | dynamic,1) cmd=("${clean[@]}" OMP_SCHEDULE="$config" "$exe") ;;
    default) cmd=("${clean[@]}" "$exe") ;;
    dropin-static) cmd=("${clean[@]}" AUTOSCHED_DB="$store.static" "${tool[$c]}" run --schedule static -- "$exe") ;;
    auto-cold | auto-warm) cmd=("${clean[@]}" AUTOSCHED_DB="$store.auto" "${tool[$c]}" run -- "$exe") ;;
  esac
  t0=$EPOCHREALTIME
  timeout -k 5 "$run_timeout" "${cmd[@]}" "${a[@]}" >"$scratch/out" 2>&1 || status=$?
  t1=$EPOCHREALTIME
  if ((status == 124 || status == 137)); then
    timed_out["$c $p $config"]=1
    echo "run.sh: $c $p $config ran past --run-timeout $run_timeout s; killed, and not run again" >&2
    printf '%s,%s,"%s",%d,%d,timeout,%.3f,,\n' "$c" "$p" "$config" "$rep" "$position" \
      "$(awk -v a="$t0" -v b="$t1" 'BEGIN {print 1000 * (b - a)}')" >>"$csv"
    return 0
  fi
  line=$(grep -m1 '^pattern ' "$scratch/out" || true)
  if ((status != 0)) || [[ $line != *" check ok" ]]; then
    {
      echo "run.sh: FAILED: $c $p $config (repetition $rep, exit status $status): its check did not pass"
      echo "  command: ${cmd[*]} ${a[*]}"
      sed 's/^/  | /' "$scratch/out"
    } >&2
    exit 1
  fi
  awk -v c="$c" -v p="$p" -v cfg="$config" -v r="$rep" -v pos="$position" -v t0="$t0" -v t1="$t1" -v line="$line" 'BEGIN {
    n = split(line, f, " ")
    for (i = 1; i < n; ++i) v[f[i]] = f[i + 1]
    printf "%s,%s,\"%s\",%d,%d,ok,%.3f,%s,%s\n", c, p, cfg, r, pos, 1000 * (t1 - t0), v["loop_ms"], v["wall_ms"]
  }' >>"$csv"
}

# The order of the seven in repetition r: rotated by r, reversed in odd
# repetitions; then the warm run takes whichever of the two auto slots comes
# later, so it always finds the store its cold run wrote.
order_for() {
  local r=$1 n=${#configs[@]} i o=() cold=-1 warm=-1
  for ((i = 0; i < n; ++i)); do o+=("${configs[$(((i + r) % n))]}"); done
  if ((r % 2)); then
    local reversed=()
    for ((i = n - 1; i >= 0; --i)); do reversed+=("${o[$i]}"); done
    o=("${reversed[@]}")
  fi
  for ((i = 0; i < n; ++i)); do
    [[ ${o[$i]} == auto-cold ]] && cold=$i
    [[ ${o[$i]} == auto-warm ]] && warm=$i
  done
  if ((warm < cold)); then o[$warm]=auto-cold; o[$cold]=auto-warm; fi
  echo "${o[@]}"
}

# The launcher's own start-up: `autosched run` is a program that sets the
# environment and execs the user's; whatever it costs to start is in every
# drop-in run's wall and in no native one. The median of three, per build.
declare -A startup
for c in "${ran[@]}"; do
  startup[$c]=$(for i in 1 2 3; do
    t0=$EPOCHREALTIME
    "${tool[$c]}" --version >/dev/null 2>&1 || true
    t1=$EPOCHREALTIME
    awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.0f\n", 1000 * (b - a)}'
  done | sort -n | sed -n 2p)
done

total=$((reps * ${#ran[@]} * ${#programs[@]} * ${#configs[@]}))
done_runs=0
for ((r = 0; r < reps; ++r)); do
  read -r -a order <<<"$(order_for "$r")"
  for c in "${ran[@]}"; do
    for p in "${programs[@]}"; do
      store=$scratch/r$r-$c-$p.db  # fresh for every repetition: .static for the drop-in's static, .auto for cold then warm
      for ((i = 0; i < ${#order[@]}; ++i)); do
        if [[ -z ${timed_out["$c $p ${order[$i]}"]:-} ]]; then run_one "$c" "$p" "${order[$i]}" "$r" "$i" "$store"; fi
        done_runs=$((done_runs + 1))
      done
      rm -f "$store".*
      printf '\rrun.sh: %d of %d runs' "$done_runs" "$total" >&2
    done
  done
done
echo >&2
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

# Header facts for the table.
machine="$(lscpu | awk -F: '/^Model name/ {sub(/^ +/, "", $2); print $2; exit}'), $(nproc) cores"
declare -A compiler_name=([gcc]="g++ / libgomp" [clang]="clang / LLVM libomp")
versions=()
for c in "${ran[@]}"; do
  case $c in
    gcc) versions+=("g++: $(g++ -dumpfullversion 2>/dev/null || echo '?'), patterns from \`${bindir[gcc]}\`, tool \`${tool[gcc]}\`") ;;
    clang) versions+=("clang: $(clang++ --version 2>/dev/null | head -1 | sed 's/ (.*//; s/Debian //'), patterns from \`${bindir[clang]}\`, tool \`${tool[clang]}\`") ;;
  esac
done
sizes=()
for p in "${programs[@]}"; do sizes+=("$p ${args[$p]:-(defaults)}"); done

# The table, from the CSV; the header's facts travel in the environment.
META_COMMAND=$command_line META_STARTED=$started META_MACHINE=$machine META_LOAD="$load_before before, $load_after after" \
META_COMMIT=$commit META_VERSIONS=$(printf '%s\n' "${versions[@]}") META_SKIPPED=$(printf '%s\n' "${skipped[@]}") \
META_SIZES=$(printf '%s\n' "${sizes[@]}") META_STARTUP_gcc=${startup[gcc]:-} META_STARTUP_clang=${startup[clang]:-} META_TIMEOUT=$run_timeout python3 - "$csv" "$out" "$reps" <<'PY'
import csv, os, statistics, sys

path, out, reps = sys.argv[1], sys.argv[2], int(sys.argv[3])
meta = lambda k: os.environ.get("META_" + k, "")
rows = list(csv.DictReader(open(path)))
configs = ["static", "guided", "dynamic,1", "default", "dropin-static", "auto-cold", "auto-warm"]
heads = {"static": "static", "guided": "guided", "dynamic,1": "dynamic,1", "default": "default",
         "dropin-static": "drop-in static", "auto-cold": "auto cold", "auto-warm": "auto warm"}
native = ["static", "guided", "dynamic,1"]
names = {"gcc": "g++ / libgomp", "clang": "clang / LLVM libomp"}
programs = ["hydro", "particle-filter", "lu", "cg", "lookup"]
runs, killed, byrep = {}, set(), {}
for r in rows:
    key = (r["compiler"], r["program"], r["config"])
    if r["status"] == "ok":
        runs.setdefault(key, []).append((float(r["wall_ms"]), float(r["loop_ms"])))
        byrep.setdefault(key, {})[r["rep"]] = float(r["wall_ms"])
    else:
        killed.add(key)
med = {k: (statistics.median(x[0] for x in v), statistics.median(x[1] for x in v)) for k, v in runs.items()}
timeout_s = meta("TIMEOUT")

lines = []
w = lines.append
w("# The real-code pattern suite: native schedules vs the drop-in")
w("")
w(f"`{meta('COMMAND')}` — {meta('STARTED')}; {meta('MACHINE')} (load average {meta('LOAD')}; on 2 cores a")
w(f"load above 2 means other work shared them); commit {meta('COMMIT')}; OMP_NUM_THREADS=2; {reps} repetition(s).")
w("")
for v in meta("VERSIONS").splitlines():
    w(f"* {v}")
for s in meta("SKIPPED").splitlines():
    if s:
        w(f"* not run: {s}")
w("* sizes: " + "; ".join(meta("SIZES").splitlines()))
w("")
w("The programs are apps/patterns/*.cpp (plain OpenMP, `schedule(runtime)` loops, each checking its own result;")
w("every run here passed its check). Each cell: the median over the repetitions of the whole process's wall ms,")
w("and in parentheses the program's own ms inside its timed parallel loops. *default*: OMP_SCHEDULE unset")
w("(libgomp runs dynamic,1, libomp static). *drop-in static*: `autosched run --schedule static`; *auto cold*:")
w("`autosched run` on a fresh store; *auto warm*: a second `autosched run` on the store the cold run wrote.")
w("*best native*: the fastest (by median wall) of OMP_SCHEDULE=static, guided and dynamic,1. Ratios are of the")
w("median walls; below 1, autosched was faster. *paired*: the median over the repetitions of each")
w("repetition's own ratio (the autosched run against the best native configuration's run of the same")
w("repetition): the machine's speed drifts between repetitions (whole repetitions run 20-40% slower")
w("on this shared VM), and a pair within one repetition shares the drift. A run killed at the run")
w("timeout shows as `> N s`; its configuration was not run again.")
for c in ["gcc", "clang"]:
    if not any(k[0] == c for k in med):
        continue
    w("")
    w(f"## {names[c]}")
    w("")
    if meta("STARTUP_" + c):
        w(f"The launcher alone (`autosched --version`, median of 3) took {meta('STARTUP_' + c)} ms to start and exit: that")
        w("much of each drop-in run's wall is the tool's own start-up, not the program's.")
        w("")
    w("| program | " + " | ".join(heads[k] for k in configs)
      + " | best native | cold / best | warm / best | paired: cold / best | paired: warm / best"
      + " | cold / drop-in static | warm / drop-in static |")
    w("|---|" + "---:|" * len(configs) + "---|---:|---:|---:|---:|---:|---:|")
    def cell(k):
        if k in med:
            return f"{med[k][0]:.0f} ({med[k][1]:.0f})"
        return f"> {timeout_s} s" if k in killed else "—"

    def ratio(a, b):
        return f"{med[a][0] / med[b][0]:.2f}" if a in med and b in med else "—"

    def paired(a, b):
        pairs = [byrep[a][r] / byrep[b][r] for r in byrep.get(a, {}) if r in byrep.get(b, {})]
        return f"{statistics.median(pairs):.2f}" if pairs else "—"

    for p in programs:
        if not any((c, p, k) in med or (c, p, k) in killed for k in configs):
            continue
        measured = [k for k in native if (c, p, k) in med]
        best = min(measured, key=lambda k: med[(c, p, k)][0]) if measured else None
        b = (c, p, best)
        w(f"| {p} | " + " | ".join(cell((c, p, k)) for k in configs) + f" | {best or '—'} | "
          + " | ".join([ratio((c, p, "auto-cold"), b), ratio((c, p, "auto-warm"), b),
                        paired((c, p, "auto-cold"), b), paired((c, p, "auto-warm"), b),
                        ratio((c, p, "auto-cold"), (c, p, "dropin-static")),
                        ratio((c, p, "auto-warm"), (c, p, "dropin-static"))]) + " |")
w("")
w(f"Every run: `{path}` (one row per process: status, wall ms, loop ms, the program's own wall ms;")
w("position = its place in its repetition's order).")
open(out, "w").write("\n".join(lines) + "\n")
PY
cat "$out"
echo "wrote $out and $csv" >&2
