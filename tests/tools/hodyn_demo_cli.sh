#!/usr/bin/env bash
# ctest hodyn_demo_cli: end-to-end checks of the closed-loop demo hodyn-demo.
# Usage: hodyn_demo_cli.sh <path to hodyn-demo> <path to the plugin .so>
set -uo pipefail

DEMO=${1:?usage: hodyn_demo_cli.sh <hodyn-demo> <plugin.so>}
PLUGIN=${2:?usage: hodyn_demo_cli.sh <hodyn-demo> <plugin.so>}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
PY=${HODYN_PYTHON:-python3}
[ -x /usr/bin/python3 ] && PY=/usr/bin/python3

failures=0
pass() { echo "ok   $1"; }
fail() { echo "FAIL $1"; failures=$((failures + 1)); }

# ---- a short nominal run: summary JSON with SI keys, CSV, PNG plots ----
if "$DEMO" --scenario nominal --duration 3 --out "$WORK/a" --summary-json "$WORK/a.json" \
  >"$WORK/a.out" 2>"$WORK/a.err" &&
  "$PY" - "$WORK/a.json" "$WORK/a/closed_loop_nominal.csv" <<'PYEOF'; then
import csv, json, sys
s = json.load(open(sys.argv[1]))["scenarios"]
assert len(s) == 1 and s[0]["scenario"] == "nominal", s
r = s[0]
for key in ["base_position_error_rms_m", "base_position_error_max_m", "attitude_error_rms_rad",
            "attitude_error_max_rad", "joint_error_rms_rad", "joint_error_max_rad",
            "controller_step_median_s", "controller_step_p99_s", "controller_step_max_s",
            "saturated_commands", "stable", "duration_s", "control_rate_hz"]:
    assert key in r, key
assert len(r["joint_error_rms_rad"]) == 6
assert r["stable"] is True and r["duration_s"] == 3
assert 0 < r["base_position_error_rms_m"] < 1e-3, r["base_position_error_rms_m"]
assert 0 < r["controller_step_median_s"] < 1e-3
rows = list(csv.DictReader(open(sys.argv[2])))
assert len(rows) == 300, len(rows)          # every 10th of 3000 steps
assert abs(float(rows[-1]["t"]) - 2.99) < 1e-9
assert abs(float(rows[0]["x_ref"]) - 1.0) < 1e-12   # Table 3 starts at (1, 0, 0)
PYEOF
  pass "nominal run: JSON summary and CSV"
else
  fail "nominal run"; cat "$WORK/a.out" "$WORK/a.err"
fi
for plot in tracking errors propellers torques; do
  if [ -s "$WORK/a/closed_loop_nominal_$plot.png" ]; then pass "plot $plot"; else fail "plot $plot"; fi
done
grep -q "controller step median" "$WORK/a.out" && pass "prints step times" || fail "prints step times"

# ---- the same run through the shared-library plugin gives the same numbers ----
if "$DEMO" --scenario nominal --duration 3 --no-plots --out "$WORK/b" --plugin "$PLUGIN" \
  --summary-json "$WORK/b.json" >"$WORK/b.out" 2>&1 &&
  grep -q "$PLUGIN" "$WORK/b.out" &&
  "$PY" - "$WORK/a.json" "$WORK/b.json" <<'PYEOF'; then
import json, sys
a = json.load(open(sys.argv[1]))["scenarios"][0]
b = json.load(open(sys.argv[2]))["scenarios"][0]
for key in ["base_position_error_rms_m", "attitude_error_max_rad", "joint_error_rms_rad"]:
    assert a[key] == b[key], (key, a[key], b[key])
PYEOF
  pass "--plugin loads the shared library, same results"
else
  fail "--plugin"; cat "$WORK/b.out"
fi

# ---- robots: --list-robots prints only the names; --robot octo_arm flies the second robot ----
# (octo_arm is built in where core/robots is configured, i.e. where hodyn-urdf builds.)
robots=$("$DEMO" --list-robots 2>&1)
if [ "$robots" = "$(printf 'aerial_manipulator\nocto_arm')" ] || [ "$robots" = "aerial_manipulator" ]; then
  pass "--list-robots"
else
  fail "--list-robots"; echo "$robots"
fi
if [ "$robots" = "aerial_manipulator" ]; then
  echo "skip --robot octo_arm: not built in"
elif "$DEMO" --robot octo_arm --scenario nominal --duration 2 --no-plots --out "$WORK/o" \
  --summary-json "$WORK/o.json" >"$WORK/o.out" 2>&1 &&
  grep -q "prismatic joints in mm" "$WORK/o.out" &&
  "$PY" - "$WORK/o.json" "$WORK/o/closed_loop_octo_arm_nominal.csv" <<'PYEOF'; then
import csv, json, sys
j = json.load(open(sys.argv[1]))
assert j["robot"] == "octo_arm", j
r = j["scenarios"][0]
assert r["stable"] is True
assert r["joint_error_rms_rad"][2] is None and r["joint_error_rms_m"][2] is not None, r
assert r["joint_error_rms_m"][0] is None and len(r["joint_error_rms_rad"]) == 4
assert r["base_position_error_rms_m"] < 1e-3
rows = list(csv.DictReader(open(sys.argv[2])))
assert len(rows) == 200 and "rotor8_cmd" in rows[0] and "q4_ref" in rows[0] and "q5" not in rows[0]
assert abs(float(rows[0]["z_ref"]) - 1.0) < 1e-12   # octo_arm's circle at 1 m altitude
PYEOF
  pass "--robot octo_arm: JSON with per-joint units, CSV with 4 joints and 8 rotors"
else
  fail "--robot octo_arm"; cat "$WORK/o.out"
fi
if [ "$robots" != "aerial_manipulator" ]; then
  "$DEMO" --robot octo_arm --scenario nominal --duration 1 --no-plots --out "$WORK/p" \
    --plugin "$PLUGIN" >"$WORK/p.out" 2>"$WORK/p.err"
  code=$?
  if [ "$code" -eq 1 ] && grep -q "built for robot 'aerial_manipulator', not 'octo_arm'" "$WORK/p.err"; then
    pass "--robot octo_arm refuses the 12-DoF robot's plugin"
  else
    fail "--robot octo_arm --plugin (exit $code)"; cat "$WORK/p.err"
  fi
fi

# ---- bad arguments: one-line error, exit code 2 ----
for args in "--robot bogus" "--scenario bogus" "--rate 100" "--plant-rate 8500" "--plant-rate 2000" "--duration -1" "--frobnicate" \
  "--duration nan" "--duration inf" "--seed 0" "--rate abc" "--rate 5000" "--plant-rate 1e3x" \
  "--seed 1e30" "--seed 1.5"; do
  # shellcheck disable=SC2086
  "$DEMO" $args --no-plots --out "$WORK/c" >"$WORK/c.out" 2>"$WORK/c.err"
  code=$?
  if [ "$code" -eq 2 ] && [ "$(wc -l <"$WORK/c.err")" -eq 1 ]; then
    pass "rejects $args"
  else
    fail "rejects $args (exit $code)"; cat "$WORK/c.err"
  fi
done
# A flag without its value (the last argument): exit 2, one line.
"$DEMO" --no-plots --out >"$WORK/c.out" 2>"$WORK/c.err"
code=$?
if [ "$code" -eq 2 ] && [ "$(wc -l <"$WORK/c.err")" -eq 1 ] && grep -q -- "--out needs a value" "$WORK/c.err"; then
  pass "rejects --out without a value"
else
  fail "--out without a value (exit $code)"; cat "$WORK/c.err"
fi

# A plugin library that cannot be loaded: exit 1, one line naming it, nothing flown.
for lib in "$WORK/no_such_plugin.so" /bin/sh; do
  "$DEMO" --scenario nominal --duration 1 --no-plots --out "$WORK/d" --plugin "$lib" \
    >"$WORK/d.out" 2>"$WORK/d.err"
  code=$?
  if [ "$code" -eq 1 ] && [ "$(wc -l <"$WORK/d.err")" -eq 1 ] && grep -qF "$lib" "$WORK/d.err" &&
    [ ! -e "$WORK/d/closed_loop_nominal.csv" ]; then
    pass "--plugin $lib -> exit 1: $(cat "$WORK/d.err")"
  else
    fail "--plugin $lib (exit $code)"; cat "$WORK/d.err"
  fi
done

# An --out directory and a plot interpreter whose names hold a quote and shell
# syntax are names, never commands (docs/robustness.md): nothing is injected,
# the directory is created as named, the CSV lands in it.
inj="$WORK/inj'; touch '$WORK/MARK_INJECTED'; echo '"
HODYN_PYTHON="/nonexistent'; touch '$WORK/MARK_INJECTED_PY" \
  "$DEMO" --scenario nominal --duration 1 --out "$inj" >"$WORK/e.out" 2>"$WORK/e.err"
code=$?
if [ ! -e "$WORK/MARK_INJECTED" ] && [ ! -e "$WORK/MARK_INJECTED_PY" ] &&
  [ -f "$inj/closed_loop_nominal.csv" ] && [ "$code" -eq 0 ]; then
  pass "--out and HODYN_PYTHON with shell syntax are names, not commands"
else
  fail "shell syntax in --out / HODYN_PYTHON (exit $code)"; ls "$WORK"; cat "$WORK/e.err"
fi

# A summary that cannot be written is a failure (exit 1, one line naming it),
# and no half-written file or temporary is left behind.
"$DEMO" --scenario nominal --duration 1 --no-plots --out "$WORK/f" \
  --summary-json "$WORK/missing/s.json" >"$WORK/f.out" 2>"$WORK/f.err"
code=$?
if [ "$code" -eq 1 ] && [ "$(wc -l <"$WORK/f.err")" -eq 1 ] &&
  grep -qF "cannot write $WORK/missing/s.json" "$WORK/f.err" && [ ! -e "$WORK/missing" ] &&
  [ -f "$WORK/f/closed_loop_nominal.csv" ] && [ ! -e "$WORK/f/closed_loop_nominal.csv.tmp" ]; then
  pass "unwritable --summary-json -> exit 1: $(cat "$WORK/f.err")"
else
  fail "unwritable --summary-json (exit $code)"; cat "$WORK/f.err"
fi

# ---- --payload-estimation (docs/payload-estimation.md): the two payload keys ----
if "$DEMO" --scenario unknown_payload --duration 1 --no-plots --out "$WORK/p" \
  --payload-estimation on --summary-json "$WORK/p.json" >"$WORK/p.out" 2>&1 &&
  "$DEMO" --scenario unknown_payload --duration 1 --no-plots --out "$WORK/p" \
  --summary-json "$WORK/q.json" >"$WORK/q.out" 2>&1 &&
  "$PY" - "$WORK/p.json" "$WORK/q.json" <<'PYEOF'; then
import json, sys
on = json.load(open(sys.argv[1]))["scenarios"][0]
off = json.load(open(sys.argv[2]))["scenarios"][0]
assert on["scenario"] == "unknown_payload"
assert abs(on["payload_mass_estimate_kg"] - 0.2) < 0.01, on["payload_mass_estimate_kg"]
assert off["payload_mass_estimate_kg"] is None
for r in (on, off):
    assert r["base_position_error_rms_after_event_m"] > 0
assert on["base_position_error_rms_after_event_m"] < off["base_position_error_rms_after_event_m"]
PYEOF
  pass "--payload-estimation on: payload_mass_estimate_kg, base_position_error_rms_after_event_m"
else
  fail "--payload-estimation"; cat "$WORK/p.out" "$WORK/q.out"
fi
"$DEMO" --payload-estimation maybe >"$WORK/r.out" 2>"$WORK/r.err"
code=$?
if [ "$code" -eq 2 ] && grep -q "payload-estimation needs on or off" "$WORK/r.err"; then
  pass "--payload-estimation maybe -> exit 2"
else
  fail "--payload-estimation maybe (exit $code)"; cat "$WORK/r.err"
fi

echo "$failures failure(s)"
[ "$failures" -eq 0 ]
