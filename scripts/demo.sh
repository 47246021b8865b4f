#!/usr/bin/env bash
# Build the Release tools and run the hodyn-eval demo.
# Extra arguments are passed to hodyn-eval after --demo.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/deps.sh
cmake --preset release
cmake --build --preset release --target hodyn-eval -j2
exec build/release/tools/hodyn-eval/hodyn-eval --demo "$@"
