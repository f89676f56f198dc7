#!/usr/bin/env bash
# The main job: what autosched sees on this machine, then a short example loop.
# Run after scripts/setup.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=build/release/bin
[[ -x $bin/autosched ]] || { echo "main-job: $bin/autosched missing; run ./scripts/setup.sh first" >&2; exit 1; }
"$bin/autosched" info
echo
"$bin/first_loop"
