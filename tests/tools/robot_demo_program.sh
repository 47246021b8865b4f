#!/usr/bin/env bash
# The NAME-demo that hodyn_add_robot() makes for one robot (ctest
# demo_program_octo_arm; the downstream example runs it too).
# Usage: robot_demo_program.sh <NAME-demo> <NAME> [<hodyn_NAME_feedback_linearization.so>]
#   --list-robots prints exactly NAME; a 2 s nominal flight is stable with a
#   position RMS under 1 mm, its JSON names the robot; the loadable plugin
#   (when given) flies to the same numbers; a bad --robot is one line, exit 2.
set -uo pipefail

DEMO=${1:?usage: robot_demo_program.sh <NAME-demo> <NAME> [<plugin.so>]}
NAME=${2:?usage}
PLUGIN=${3:-}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
PY=python3
[ -x /usr/bin/python3 ] && PY=/usr/bin/python3

failures=0
pass() { echo "ok   $1"; }
fail() { echo "FAIL $1"; failures=$((failures + 1)); }

robots=$("$DEMO" --list-robots 2>&1)
[ "$robots" = "$NAME" ] && pass "--list-robots prints '$NAME'" || { fail "--list-robots"; echo "$robots"; }

if "$DEMO" --scenario nominal --duration 2 --no-plots --out "$WORK/a" \
  --summary-json "$WORK/a.json" >"$WORK/a.out" 2>&1 &&
  "$PY" - "$WORK/a.json" "$NAME" <<'PYEOF'; then
import json, sys
j = json.load(open(sys.argv[1]))
assert j["robot"] == sys.argv[2], j["robot"]
r = j["scenarios"][0]
assert r["scenario"] == "nominal" and r["stable"] is True, r
assert r["base_position_error_rms_m"] < 1e-3, r["base_position_error_rms_m"]
print(f"      position RMS {r['base_position_error_rms_m'] * 1e3:.4f} mm")
PYEOF
  pass "nominal flight: stable, position RMS < 1 mm"
else
  fail "nominal flight"; cat "$WORK/a.out"
fi

if [ -n "$PLUGIN" ]; then
  if "$DEMO" --scenario nominal --duration 2 --no-plots --out "$WORK/b" --plugin "$PLUGIN" \
    --summary-json "$WORK/b.json" >"$WORK/b.out" 2>&1 && grep -q "$PLUGIN" "$WORK/b.out" &&
    "$PY" - "$WORK/a.json" "$WORK/b.json" <<'PYEOF'; then
import json, sys
a = json.load(open(sys.argv[1]))["scenarios"][0]
b = json.load(open(sys.argv[2]))["scenarios"][0]
for key in ["base_position_error_rms_m", "attitude_error_max_rad", "joint_error_rms_rad"]:
    assert a[key] == b[key], (key, a[key], b[key])
PYEOF
    pass "--plugin: the robot's loadable plugin, same numbers"
  else
    fail "--plugin"; cat "$WORK/b.out"
  fi
fi

"$DEMO" --robot bogus --no-plots --out "$WORK/c" >"$WORK/c.out" 2>"$WORK/c.err"
code=$?
if [ "$code" -eq 2 ] && [ "$(wc -l <"$WORK/c.err")" -eq 1 ]; then
  pass "rejects --robot bogus"
else
  fail "--robot bogus (exit $code)"; cat "$WORK/c.err"
fi

echo "$failures failure(s)"
[ "$failures" -eq 0 ]
