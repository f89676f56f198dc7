#!/usr/bin/env bash
# Set-up: installs the Debian packages autosched needs, then configures and
# builds the Release preset into build/release (binaries in build/release/bin).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
cmake --preset release
cmake --build --preset release
