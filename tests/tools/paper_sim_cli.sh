#!/usr/bin/env bash
# ctest paper_simulation_cli: hodyn-paper-sim's bad arguments (docs/robustness.md).
# Each is refused before any simulation runs: exit 2, the error on stderr's
# first line (then "(try --help)"), nothing on stdout, no CSV written. A plot
# script that fails is exit 4 with the CSV kept.
# Usage: paper_sim_cli.sh <path to hodyn-paper-sim>
set -uo pipefail

SIM=${1:?usage: paper_sim_cli.sh <hodyn-paper-sim>}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cd "$WORK" || exit 1

failures=0
pass() { echo "ok   $1"; }
fail() { echo "FAIL $1"; failures=$((failures + 1)); }

# expect_usage_error <words in the first stderr line> <args...>
expect_usage_error() {
  local words=$1
  shift
  "$SIM" "$@" >"$WORK/out" 2>"$WORK/err"
  local rc=$?
  if [ "$rc" -eq 2 ] && [ ! -s "$WORK/out" ] && head -n1 "$WORK/err" | grep -qF -- "$words" &&
    [ ! -e "$WORK/paper_sim.csv" ]; then
    pass "$* -> exit 2: $(head -n1 "$WORK/err")"
  else
    fail "$* (exit $rc, expected 2 with '$words')"
    cat "$WORK/out" "$WORK/err"
  fi
}

expect_usage_error "--samples: expected an integer in 1..10000000, got '0'" --samples 0
expect_usage_error "--samples: expected an integer in 1..10000000, got '1e3'" --samples 1e3
expect_usage_error "--samples: expected an integer in 1..10000000, got '10000001'" --samples 10000001
expect_usage_error "--samples: expected an integer in 1..10000000, got ''" --samples ""
expect_usage_error "--samples: missing value" --samples
expect_usage_error "--csv: empty file name" --csv ""
expect_usage_error "--plots: empty directory name" --plots ""
expect_usage_error "unknown argument '--frobnicate'" --frobnicate
expect_usage_error "--csv: cannot write '$WORK/no/such/dir/x.csv'" --samples 5 \
  --csv "$WORK/no/such/dir/x.csv"

# A plot interpreter that fails: exit 4, one line saying so, the CSV written.
HODYN_PYTHON=/bin/false "$SIM" --samples 5 --csv "$WORK/p.csv" --plots "$WORK/plots" \
  >"$WORK/out" 2>"$WORK/err"
rc=$?
if [ "$rc" -eq 4 ] && grep -q "the plot script failed" "$WORK/err" && [ -s "$WORK/p.csv" ]; then
  pass "HODYN_PYTHON=/bin/false -> exit 4, CSV kept"
else
  fail "HODYN_PYTHON=/bin/false (exit $rc)"
  cat "$WORK/err"
fi

echo "$failures failure(s)"
[ "$failures" -eq 0 ]
