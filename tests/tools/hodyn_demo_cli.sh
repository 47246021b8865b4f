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

# ---- bad arguments: one-line error, exit code 2 ----
for args in "--scenario bogus" "--rate 100" "--plant-rate 8500" "--plant-rate 2000" "--duration -1" "--frobnicate"; do
  # shellcheck disable=SC2086
  "$DEMO" $args --no-plots --out "$WORK/c" >"$WORK/c.out" 2>"$WORK/c.err"
  code=$?
  if [ "$code" -eq 2 ] && [ "$(wc -l <"$WORK/c.err")" -eq 1 ]; then
    pass "rejects $args"
  else
    fail "rejects $args (exit $code)"; cat "$WORK/c.err"
  fi
done

echo "$failures failure(s)"
[ "$failures" -eq 0 ]
