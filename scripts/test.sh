#!/usr/bin/env bash
# The test command (README command 2; .ci/run calls it). On a fresh Debian 12
# machine as root it installs what is missing, then runs:
#   1. the whole suite on a Release build (g++, libgomp);
#   2. the loop runtime's tests and the benchmark apps under every technique
#      on a Release build with clang + LLVM libomp;
#   3. the concurrency tests under ThreadSanitizer (clang, libomp + Archer);
#   4. the store, configuration, model-file and grammar-fuzz tests under
#      AddressSanitizer + UBSan (g++; only the test programs they need).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh

step() { printf '\n=== %s ===\n' "$*"; }
for preset in release clang-release tsan; do
  step "$preset: configure and build"
  cmake --preset "$preset" >/dev/null
  cmake --build --preset "$preset"
  step "$preset: test"
  ctest --preset "$preset"
done
step "asan: configure and build the fault tests"
cmake --preset asan >/dev/null
cmake --build --preset asan --target test_core test_select test_regions test_region_concurrency test_store \
  test_store_processes store_probe test_session
step "asan: test"
ctest --preset asan
step "all test runs passed"
