#!/usr/bin/env bash
# ctest scripts_cli: the scripts that take user input refuse a bad value with
# exit 2 and a line naming it, before they install, configure or build
# anything (docs/robustness.md, "Scripts with user input").
# Usage: scripts_cli.sh <repository root>
set -uo pipefail

ROOT=${1:?usage: scripts_cli.sh <repository root>}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
PY=python3
[ -x /usr/bin/python3 ] && PY=/usr/bin/python3

failures=0
# expect_refused <words in stderr> <command...>: exit 2 within 10 s (a script
# that went on to install or build would take minutes), the words on stderr.
expect_refused() {
  local words=$1
  shift
  timeout 10 "$@" >"$WORK/out" 2>"$WORK/err"
  local rc=$?
  if [ "$rc" -eq 2 ] && grep -qF -- "$words" "$WORK/err"; then
    echo "ok   $*: $(grep -F -- "$words" "$WORK/err" | head -n 1)"
  else
    echo "FAIL $* (exit $rc, expected 2 with '$words')"
    cat "$WORK/out" "$WORK/err"
    failures=$((failures + 1))
  fi
}

expect_refused "test.sh: unknown suite 'bogus' (native, cross, firmware" \
  env HODYN_TEST_SUITES=bogus bash "$ROOT/scripts/test.sh"
expect_refused "test-cross.sh: unknown target 'bogus' (aarch64, armhf or all)" \
  bash "$ROOT/scripts/test-cross.sh" bogus
expect_refused "test-cross.sh: unknown target 'bogus' (aarch64, armhf or all)" \
  bash "$ROOT/scripts/test-cross.sh" --ci bogus
expect_refused "the following arguments are required" "$PY" "$ROOT/scripts/firmware_budget.py"
expect_refused "invalid choice: 'bogus'" "$PY" "$ROOT/scripts/firmware_budget.py" bogus

echo "$failures failure(s)"
[ "$failures" -eq 0 ]
