#!/usr/bin/env bash
# How often `auto` explores on the six apps, cold and warm, without the
# Oracle arms: the share of a loop's steps that `auto` marked as exploring
# (a profile, a trial, a second look), per loop averaged over the
# repetitions, then over the loops. A count, not a time, so it needs no
# baseline in the same run; the distance to the Oracle does, and comes from
# bench/campaigns/auto-v2-campaign.sh. About 16 minutes at 5 repetitions on the
# 2-core VM.
#   usage: bench/explored/run.sh [--reps N] [--steps N] [OUT]   (default 5, 200, build/explored)
set -euo pipefail
cd "$(dirname "$0")/../.."
reps=5 steps=200
while [[ ${1:-} == --* ]]; do
  case $1 in
    --reps) reps=${2:?--reps needs a count}; shift 2 ;;
    --steps) steps=${2:?--steps needs a count}; shift 2 ;;
    *) echo "bench/explored/run.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
done
out=${1:-build/explored}
tool=build/release/bin/autosched
[[ -x $tool ]] || { echo "bench/explored/run.sh: $tool not found (cmake --build --preset release)" >&2; exit 2; }
"$tool" bench --apps all --arms none --references none --methods auto --warm auto \
  --reps "$reps" --steps "$steps" --threads 2 --out "$out"
python3 - "$out/runs.csv" <<'PY'
import collections, csv, sys
rows = csv.DictReader(l for l in open(sys.argv[1]) if not l.startswith('#'))
steps = collections.defaultdict(lambda: [0, 0])  # (phase, loop, rep) -> [explored, all]
for r in rows:
    if r['kind'] != 'method' or r['loop'].endswith('@reference'):
        continue
    s = steps[(r['phase'], r['loop'], r['rep'])]
    s[0] += int(r['explored'])
    s[1] += 1
share = collections.defaultdict(list)
for (phase, loop, _), (e, n) in steps.items():
    share[(phase, loop)].append(100.0 * e / n)
loops = sorted({loop for _, loop in share})
phases = [p for p in ('cold', 'warm') if any((p, l) in share for l in loops)]
print('| loop | ' + ' | '.join(f'{p}: explored steps %' for p in phases) + ' |')
print('|---|' + '---:|' * len(phases))
mean = {p: [] for p in phases}
for loop in loops:
    cells = []
    for p in phases:
        v = share.get((p, loop))
        if v:
            m = sum(v) / len(v)
            mean[p].append(m)
            cells.append(f'{m:.1f}')
        else:
            cells.append('-')
    print(f'| {loop} | ' + ' | '.join(cells) + ' |')
print('| mean | ' + ' | '.join(f'{sum(mean[p]) / len(mean[p]):.2f}' for p in phases) + ' |')
PY
