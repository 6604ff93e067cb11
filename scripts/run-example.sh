#!/usr/bin/env bash
#===- scripts/run-example.sh - Install, build and run the main example -----===#
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
cmake --preset release >/dev/null
cmake --build --preset release -j "$(nproc)"
exec build/release/bin/vegasc examples/lepage.vf --devices all
