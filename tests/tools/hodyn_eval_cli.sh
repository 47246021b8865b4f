#!/usr/bin/env bash
# ctest hodyn_eval_cli: end-to-end checks of the hodyn-eval command-line tool.
# Usage: hodyn_eval_cli.sh <path to hodyn-eval> <repository root>
set -uo pipefail

EVAL=${1:?usage: hodyn_eval_cli.sh <hodyn-eval> <repo root>}
ROOT=${2:?usage: hodyn_eval_cli.sh <hodyn-eval> <repo root>}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

failures=0
pass() { echo "ok   $1"; }
fail() { echo "FAIL $1"; failures=$((failures + 1)); }

# ---- the hover example: Q1[0] = (0,0,0, 0,0, 39.24) within 1e-12 ----
if "$EVAL" "$ROOT/examples/state_hover.json" >"$WORK/hover.out" 2>"$WORK/hover.err" &&
  [ ! -s "$WORK/hover.err" ] &&
  python3 - "$WORK/hover.out" <<'EOF'; then
import json, sys
out = json.load(open(sys.argv[1]))
q1 = out["inverse"]["Q1"]
assert out["order"] == 0 and len(q1) == 1, out
expected = [0, 0, 0, 0, 0, 39.24]
assert all(abs(a - b) <= 1e-12 for a, b in zip(q1[0], expected)), q1[0]
assert len(out["inverse"]["W_prop_body"]) == 1 and len(out["inverse"]["tau"]) == 1
EOF
  pass "hover example: Q1[0] = (0,0,0,0,0,39.24)"
else
  fail "hover example"; cat "$WORK/hover.out" "$WORK/hover.err"
fi

# The same state on stdin gives the same output.
if "$EVAL" - <"$ROOT/examples/state_hover.json" >"$WORK/stdin.out" 2>/dev/null &&
  cmp -s "$WORK/hover.out" "$WORK/stdin.out"; then
  pass "state on stdin"
else
  fail "state on stdin"
fi

# ---- the Table 3 example: order 2, 17 significant digits, regenerable ----
if "$EVAL" "$ROOT/examples/state_table3.json" >"$WORK/t3.out" 2>"$WORK/t3.err" &&
  python3 - "$WORK/t3.out" <<'EOF'; then
import json, re, sys
text = open(sys.argv[1]).read()
out = json.loads(text)
inv = out["inverse"]
assert out["order"] == 2
for key in ("Q1", "W_prop_body", "tau"):
    assert len(inv[key]) == 3 and all(len(v) == 6 for v in inv[key]), key
# Total mass 4 kg: the vertical force stays close to m g while hovering along the circle.
assert abs(inv["Q1"][0][5] - 39.24) < 0.05, inv["Q1"][0]
# Full precision: printed with %.17g, so non-integers carry 17 significant
# digits (fewer only when %g drops trailing zeros, e.g. 0.5 or ...090).
digits = [re.sub(r"e.*$", "", n).lstrip("-").replace(".", "").lstrip("0")
          for n in re.findall(r"-?\d+\.\d+(?:e[-+]?\d+)?", text)]
assert digits and all(len(d) <= 17 for d in digits), digits
assert 2 * sum(len(d) == 17 for d in digits) > len(digits), digits
EOF
  pass "Table 3 example at order 2"
else
  fail "Table 3 example"; cat "$WORK/t3.out" "$WORK/t3.err"
fi

if "$EVAL" --emit-example-state >"$WORK/emitted.json" 2>/dev/null &&
  cmp -s "$WORK/emitted.json" "$ROOT/examples/state_table3.json"; then
  pass "examples/state_table3.json matches --emit-example-state"
else
  fail "examples/state_table3.json differs from --emit-example-state"
fi

# --order below the file's order uses the first entries of each list.
if "$EVAL" --order 0 "$ROOT/examples/state_table3.json" >"$WORK/o0.out" 2>/dev/null &&
  python3 -c 'import json,sys; a=json.load(open(sys.argv[1])); b=json.load(open(sys.argv[2]));
assert a["order"] == 0 and a["inverse"]["Q1"][0] == b["inverse"]["Q1"][0]' "$WORK/o0.out" "$WORK/t3.out"; then
  pass "--order 0 on the order-2 example"
else
  fail "--order 0 on the order-2 example"
fi

# ---- applied loads: 1-based paper body numbers, spatial / body-frame, tau_ext ----
# At home at rest: a unit x-force on paper body 4 (CoM (0.09, 0, -0.40), moment
# about the world origin (0, -0.4, 0)), a unit body-frame z-force on body 7
# (CoM (-0.09, 0, -0.40)) and tau_ext = (1..6) give Q1 = (0, 0.31, 0, -1, 0, 38.24)
# and tau = (0.3 - 1, -2, -3, -4, -5, -6).
Z6='[0,0,0,0,0,0]'
printf '%s' "{\"C1\": [[1,0,0,0],[0,1,0,0],[0,0,1,0],[0,0,0,1]], \"V1\": [$Z6,$Z6],
  \"q\": [$Z6,$Z6,$Z6], \"W_app\": {\"4\": [[0,-0.4,0,1,0,0]]},
  \"W_app_body\": {\"7\": [[0,0,0,0,0,1]]}, \"tau_ext\": [[1,2,3,4,5,6]]}" >"$WORK/loads.json"
if "$EVAL" "$WORK/loads.json" >"$WORK/loads.out" 2>/dev/null &&
  python3 - "$WORK/loads.out" <<'EOF'; then
import json, sys
inv = json.load(open(sys.argv[1]))["inverse"]
close = lambda a, b: all(abs(x - y) <= 1e-12 for x, y in zip(a, b))
assert close(inv["Q1"][0], [0, 0.31, 0, -1, 0, 38.24]), inv["Q1"][0]
assert close(inv["tau"][0], [-0.7, -2, -3, -4, -5, -6]), inv["tau"][0]
EOF
  pass "applied loads W_app / W_app_body / tau_ext"
else
  fail "applied loads"; cat "$WORK/loads.out"
fi

# ---- malformed inputs: non-zero exit, empty stdout, one-line stderr ----
# expect_error <name> <expected exit code> <json text> [options...]
expect_error() {
  local name=$1 code=$2 json=$3
  shift 3
  printf '%s' "$json" >"$WORK/bad.json"
  "$EVAL" "$@" "$WORK/bad.json" >"$WORK/bad.out" 2>"$WORK/bad.err"
  local rc=$?
  local lines
  lines=$(wc -l <"$WORK/bad.err")
  if [ "$rc" -eq "$code" ] && [ ! -s "$WORK/bad.out" ] && [ "$lines" -eq 1 ]; then
    pass "$name -> exit $rc: $(cat "$WORK/bad.err")"
  else
    fail "$name (exit $rc, expected $code; $lines stderr lines)"
    cat "$WORK/bad.out" "$WORK/bad.err"
  fi
}

Z='[0,0,0,0,0,0]'
I4='[[1,0,0,0],[0,1,0,0],[0,0,1,0],[0,0,0,1]]'
V1_0="[$Z,$Z]"
Q_0="[$Z,$Z,$Z]"
expect_error "missing q" 2 "{\"C1\": $I4, \"V1\": $V1_0}"
expect_error "NaN as a string" 2 "{\"C1\": $I4, \"V1\": $V1_0, \"q\": [[0,0,\"NaN\",0,0,0],$Z,$Z]}"
expect_error "number overflow 1e999" 2 "{\"C1\": $I4, \"V1\": [[1e999,0,0,0,0,0],$Z], \"q\": $Q_0}"
expect_error "six-vector of length 5" 2 "{\"C1\": $I4, \"V1\": $V1_0, \"q\": [[0,0,0,0,0],$Z,$Z]}"
expect_error "too few q derivatives" 2 "{\"order\": 1, \"C1\": $I4, \"V1\": [$Z,$Z,$Z], \"q\": $Q_0}"
expect_error "non-orthonormal rotation" 2 \
  "{\"p1\": [0,0,0], \"R1\": [[1,0,0],[0,1.001,0],[0,0,1]], \"V1\": $V1_0, \"q\": $Q_0}"
expect_error "reflection" 2 \
  "{\"p1\": [0,0,0], \"R1\": [[1,0,0],[0,1,0],[0,0,-1]], \"V1\": $V1_0, \"q\": $Q_0}"
expect_error "order 9 in the JSON" 2 "{\"order\": 9, \"C1\": $I4, \"V1\": $V1_0, \"q\": $Q_0}"
expect_error "order 9 on the command line" 2 "{\"C1\": $I4, \"V1\": $V1_0, \"q\": $Q_0}" --order 9
expect_error "unknown body 8" 2 "{\"C1\": $I4, \"V1\": $V1_0, \"q\": $Q_0, \"W_app\": {\"8\": [$Z]}}"
expect_error "W_app too short" 2 "{\"order\": 1, \"C1\": $I4, \"V1\": [$Z,$Z,$Z], \"q\": [$Z,$Z,$Z,$Z], \"W_app\": {\"4\": [$Z]}}"
expect_error "unknown model" 2 "{\"model\": \"quadrotor\", \"C1\": $I4, \"V1\": $V1_0, \"q\": $Q_0}"
expect_error "unknown key" 2 "{\"C1\": $I4, \"V1\": $V1_0, \"q\": $Q_0, \"W_ap\": {}}"
expect_error "invalid JSON" 2 "{\"C1\": $I4,"
expect_error "core status: overflow to a non-finite result" 3 \
  "{\"C1\": $I4, \"V1\": [[1e200,1e200,1e200,0,0,0],$Z], \"q\": $Q_0}"
expect_error "--forward" 2 "{\"C1\": $I4, \"V1\": $V1_0, \"q\": $Q_0}" --forward

# Unknown option: exit 2, error line first (usage follows).
"$EVAL" --frobnicate >/dev/null 2>"$WORK/opt.err"
rc=$?
if [ "$rc" -eq 2 ] && head -n1 "$WORK/opt.err" | grep -q "unknown option '--frobnicate'"; then
  pass "unknown option -> exit 2"
else
  fail "unknown option (exit $rc)"; cat "$WORK/opt.err"
fi

# ---- the other modes exit 0 ----
for mode in --sizes --demo --help; do
  if "$EVAL" "$mode" >"$WORK/mode.out" 2>"$WORK/mode.err" && [ -s "$WORK/mode.out" ] &&
    [ ! -s "$WORK/mode.err" ]; then
    pass "$mode exits 0"
  else
    fail "$mode"; cat "$WORK/mode.out" "$WORK/mode.err"
  fi
done
if grep -q "Hover check.*: ok" <("$EVAL" --demo); then
  pass "--demo hover check ok"
else
  fail "--demo hover check"
fi

echo "$failures failure(s)"
[ "$failures" -eq 0 ]
