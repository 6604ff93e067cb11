#!/usr/bin/env bash
#===- scripts/test.sh - Install, build and run every test ------------------===#
#
# The README's test command: installs missing dependencies, configures the
# release preset, builds everything and runs the whole suite through ctest.
#
#===------------------------------------------------------------------------===#
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
cmake --preset release >/dev/null
cmake --build --preset release -j "$(nproc)"
ctest --preset release -j "$(nproc)" "$@"
