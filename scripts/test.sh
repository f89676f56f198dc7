#!/usr/bin/env bash
# The test command (README command 2; .ci/run calls it). On a fresh Debian 12
# machine as root it installs what is missing, then runs:
#   1. the whole suite on a Release build (g++, libgomp);
#   2. the loop runtime's tests and the benchmark apps under every technique
#      on a Release build with clang + LLVM libomp;
#   3. the concurrency tests under ThreadSanitizer (clang, libomp + Archer);
#   4. the store, configuration, model-file and grammar-fuzz tests under
#      AddressSanitizer + UBSan (g++; only the test programs they need);
#   5. a build without MPI (an optional component): the library and the tool
#      build, and `autosched info` says MPI is not built;
#   6. the SimGrid SMPI studies in small (scripts/smpi/smoke.sh): coverage on
#      16 simulated ranks, a reproducible simulated run, the quality tables;
#   7. between 3 and 4, the real-code pattern campaign in small
#      (bench/patterns/run.sh --quick).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh

step() { printf '\n=== %s ===\n' "$*"; }
for preset in release clang-release tsan; do
  step "$preset: configure and build"
  configure=()
  # Every header compiled on its own once, in the g++ build (~200 units).
  [ "$preset" = clang-release ] && configure=(-DAUTOSCHED_CHECK_HEADERS=OFF)
  cmake --preset "$preset" "${configure[@]}" >/dev/null
  # TSan runs only the concurrency tests: build just what they run.
  target=all
  [ "$preset" = tsan ] && target=concurrency_tests
  cmake --build --preset "$preset" --target "$target"
  step "$preset: test"
  ctest --preset "$preset"
done
step "real-code pattern campaign: smoke (one repetition, small sizes, both compilers)"
smoke=$(mktemp -d)
bench/patterns/run.sh --quick --out "$smoke/patterns.md"
rm -rf "$smoke"
step "asan: configure and build the fault tests"
cmake --preset asan >/dev/null
cmake --build --preset asan --target test_core test_select test_regions test_region_concurrency test_store \
  test_store_processes store_probe test_session
step "asan: test"
ctest --preset asan
step "without MPI: build the tool, check autosched info"
# Unoptimised: this build only has to compile, link and answer `info`.
cmake -S . -B build/no-mpi -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_DISABLE_FIND_PACKAGE_MPI=ON \
  -DAUTOSCHED_BUILD_TESTS=OFF -DAUTOSCHED_BUILD_BENCH=OFF -DAUTOSCHED_BUILD_EXAMPLES=OFF -DAUTOSCHED_BUILD_APPS=OFF >/dev/null
cmake --build build/no-mpi --target autosched
build/no-mpi/bin/autosched info | grep -E '^  MPI +not built'
step "SimGrid SMPI: smoke (16 simulated ranks)"
./scripts/smpi/smoke.sh 16
step "all test runs passed"
