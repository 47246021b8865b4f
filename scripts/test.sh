#!/usr/bin/env bash
# Build hodyn with the `test` preset and run every test.
# Extra arguments go to ctest, e.g.:  scripts/test.sh -L packaging
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/deps.sh
cmake --preset test
cmake --build --preset test -j2

log=build/test/ctest-last.log
set +e
ctest --preset test "$@" 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
set -e

echo
echo "== $(grep -E 'tests passed|No tests were found' "$log" | tail -n 1 || echo "ctest exited with $rc")"
exit "$rc"
