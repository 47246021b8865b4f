#!/usr/bin/env bash
# ctest dual_arm_carry_cli: hodyn-demo --scenario dual_arm_carry end to end
# (docs/dual-arm-carry.md, docs/state-format.md): the summary JSON's closed-chain
# keys against the issue-19 targets, the CSV, a commanded squeeze, bad input.
# Usage: dual_arm_carry_cli.sh <path to hodyn-demo>
set -uo pipefail

DEMO=${1:?usage: dual_arm_carry_cli.sh <hodyn-demo>}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
PY=${HODYN_PYTHON:-python3}
[ -x /usr/bin/python3 ] && PY=/usr/bin/python3

failures=0
pass() { echo "ok   $1"; }
fail() { echo "FAIL $1"; failures=$((failures + 1)); }

# ---- the whole Table 3 path (30 s): keys, units, targets ----
if "$DEMO" --scenario dual_arm_carry --no-plots --out "$WORK/a" --summary-json "$WORK/a.json" \
  >"$WORK/a.out" 2>"$WORK/a.err" &&
  "$PY" - "$WORK/a.json" "$WORK/a/closed_loop_dual_arm_carry.csv" <<'PYEOF'; then
import csv, json, math, sys
j = json.load(open(sys.argv[1]))
assert j["robot"] == "aerial_manipulator", j
s = j["scenarios"]
assert len(s) == 1 and s[0]["scenario"] == "dual_arm_carry", s
r = s[0]
for key in ["constraint_violation_max_m", "object_pose_error_max_m", "object_pose_error_max_rad",
            "base_position_error_rms_m", "stable", "squeeze_commanded_n"]:
    assert key in r, key
assert r["stable"] is True
assert r["duration_s"] == 30
assert r["base_position_error_rms_m"] <= 0.005, r["base_position_error_rms_m"]
assert r["object_pose_error_max_m"] <= 0.01, r["object_pose_error_max_m"]
assert r["object_pose_error_max_rad"] <= math.radians(1.0), r["object_pose_error_max_rad"]
assert 0 <= r["constraint_violation_max_m"] <= 1e-6, r["constraint_violation_max_m"]
assert r["squeeze_commanded_n"] == 0
assert r["bar_mass_kg"] == 0.25
rows = list(csv.DictReader(open(sys.argv[2])))
assert len(rows) == 3000, len(rows)  # one row every 10 control steps
# the base went round the 1 m circle
xs = [float(row["x"]) for row in rows]
assert max(xs) - min(xs) > 1.9, (min(xs), max(xs))
PYEOF
  pass "dual_arm_carry: JSON keys and targets, CSV"
else
  fail "dual_arm_carry run"; cat "$WORK/a.out" "$WORK/a.err"
fi

# ---- a commanded squeeze reaches the plant ----
if "$DEMO" --scenario dual_arm_carry --squeeze 5 --duration 3 --no-plots --out "$WORK/b" \
  --summary-json "$WORK/b.json" >"$WORK/b.out" 2>"$WORK/b.err" &&
  "$PY" - "$WORK/b.json" <<'PYEOF'; then
import json, sys
r = json.load(open(sys.argv[1]))["scenarios"][0]
assert r["squeeze_commanded_n"] == 5
assert abs(r["squeeze_measured_mean_n"] - 5) <= 0.01, r["squeeze_measured_mean_n"]
PYEOF
  pass "--squeeze 5 measured in the plant"
else
  fail "--squeeze 5"; cat "$WORK/b.out" "$WORK/b.err"
fi

# ---- bad input: one line, exit 2 ----
for args in "--scenario dual_arm_carry --squeeze abc" "--scenario dual_arm_carry --squeeze 21" \
  "--scenario dual_arm_carry --squeeze nan" "--squeeze 1" "--scenario dual_arm_carry --plugin lqr" \
  "--scenario dual_arm_carry --payload-estimation on" "--robot octo_arm --scenario dual_arm_carry"; do
  # shellcheck disable=SC2086
  "$DEMO" $args --no-plots --duration 1 --out "$WORK/c" >"$WORK/c.out" 2>"$WORK/c.err"
  code=$?
  if [ "$code" -eq 2 ] && [ "$(wc -l <"$WORK/c.err")" -eq 1 ]; then
    pass "rejects $args"
  elif [ "$code" -eq 2 ] && grep -q "unknown robot" "$WORK/c.err"; then
    pass "rejects $args (no octo_arm in this build)"
  else
    fail "rejects $args (exit $code)"; cat "$WORK/c.err"
  fi
done

if [ "$failures" -ne 0 ]; then
  echo "$failures check(s) failed"
  exit 1
fi
echo "all checks passed"
