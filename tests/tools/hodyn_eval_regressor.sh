#!/usr/bin/env bash
# ctest hodyn_eval_regressor: end-to-end checks of `hodyn-eval --regressor`
# (issue 18 item 6, docs/state-format.md). The expected values are computed
# here independently, never copied from the tool: the base's parameters from
# Table 3 (issue 18), Y^(k) π against the "inverse" section of the same run,
# the base-mass column from the CoM acceleration (plain lists), the zero
# pattern of the tau rows from the tree, and Y^(k+1) against central
# differences of Y^(k) along a polynomial motion written here.
# Usage: [VERBOSE=1] hodyn_eval_regressor.sh <path to hodyn-eval> <repository root>
# (VERBOSE=1 also prints the measured errors of the passing checks.)
set -uo pipefail

EVAL=${1:?usage: hodyn_eval_regressor.sh <hodyn-eval> <repo root>}
ROOT=${2:?usage: hodyn_eval_regressor.sh <hodyn-eval> <repo root>}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

failures=0
pass() { echo "ok   $1"; }
fail() { echo "FAIL $1"; failures=$((failures + 1)); }

# The Table 3 state at order 4 (V1^(0..5), q^(0..6)), then the same motion at a
# general base pose: rotation by 0.7 rad about (1, 2, 3)/√14, p1 = (0.3, −1.2, 2.5).
if ! "$EVAL" --emit-example-state --order 4 >"$WORK/table3.json"; then
  echo "FAIL --emit-example-state"; exit 1
fi
cat >"$WORK/check.py" <<'EOF'
import json, math, subprocess, sys
EVAL, ROOT, WORK = sys.argv[1], sys.argv[2], sys.argv[3]
NB, NJ = 7, 6              # bodies 1..7, joints q2..q7
ROWS, COLS = 6 + NJ, 10 * NB
PARENT = [None, 1, 2, 3, 1, 5, 6]   # paper numbering: parent of body 1..7
def run(*args, stdin=None):
    return json.loads(subprocess.run([EVAL, *args], input=stdin, capture_output=True, text=True,
                                     check=True).stdout)
def run_state(state, *args):
    return run(*args, "-", stdin=json.dumps(state))
def matmul(a, b):
    return [[sum(a[i][k] * b[k][j] for k in range(len(b))) for j in range(len(b[0]))]
            for i in range(len(a))]
def skew(v):
    return [[0, -v[2], v[1]], [v[2], 0, -v[0]], [-v[1], v[0], 0]]
def cross(a, b):
    return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
def rotation(axis, angle):  # Rodrigues
    n = math.sqrt(sum(x * x for x in axis)); k = [x / n for x in axis]
    K = skew(k); K2 = matmul(K, K); s, c = math.sin(angle), 1 - math.cos(angle)
    return [[(i == j) + s * K[i][j] + c * K2[i][j] for j in range(3)] for i in range(3)]
def with_pose(state, R, p):
    s = {k: v for k, v in state.items() if k not in ("p1", "R1", "C1")}
    s["C1"] = [R[i] + [p[i]] for i in range(3)] + [[0, 0, 0, 1]]
    return s
def inf(v):
    return max(abs(x) for x in v)
def times(Y, p):
    return [sum(a * b for a, b in zip(row, p)) for row in Y]
def column(Y, c):
    return [row[c] for row in Y]
def check_shape(reg, order):
    assert list(reg) == ["parameters", "Y"], list(reg)
    p, Y = reg["parameters"], reg["Y"]
    assert len(p) == COLS and all(isinstance(x, (int, float)) for x in p), "parameters"
    assert len(Y) == order + 1, ("Y has", len(Y), "matrices for order", order)
    for k, y in enumerate(Y):
        assert len(y) == ROWS and all(len(r) == COLS for r in y), ("Y shape", k)
        assert all(math.isfinite(x) for r in y for x in r), ("Y finite", k)
table3 = json.load(open(f"{WORK}/table3.json"))
R0 = rotation([1, 2, 3], 0.7)
P0 = [0.3, -1.2, 2.5]
general = with_pose(table3, R0, P0)   # order 4, full motion
EOF
# pycheck <name> <python code>: runs check.py, then the code; prints its output on failure.
pycheck() {
  local name=$1
  printf '%s\n' "$2" >"$WORK/case.py"
  if python3 -c 'import sys; g = {}; exec(open(sys.argv[3] + "/check.py").read(), g);
exec(open(sys.argv[3] + "/case.py").read(), g)' "$EVAL" "$ROOT" "$WORK" >"$WORK/py.out" 2>&1; then
    pass "$name"
    if [ -n "${VERBOSE:-}" ]; then sed 's/^/     /' "$WORK/py.out"; fi
  else
    fail "$name"; cat "$WORK/py.out"
  fi
}

pycheck "keys and shapes: parameters [70], Y R+1 matrices of 12 x 70 (R = 0, 2, 4); beside \"inverse\"" '
for r in (0, 2, 4):
    out = run_state(general, "--regressor", "--order", str(r))
    assert list(out) == ["order", "inverse", "regressor"], list(out)
    assert out["order"] == r
    check_shape(out["regressor"], r)
'

pycheck "parameters: the base (body 1) is (2.5, 0,0,0, 0.03, 0, 0.03, 0, 0, 0.05); masses > 0; same at every order and pose" '
p = run_state(general, "--regressor")["regressor"]["parameters"]
assert p[:10] == [2.5, 0, 0, 0, 0.03, 0, 0.03, 0, 0, 0.05], p[:10]
assert all(p[10 * j] > 0 for j in range(NB)), [p[10 * j] for j in range(NB)]
# Total mass 4 kg (docs/state-format.md: Q1 = (0,0,0, 0,0, 4*9.81) at home, hovering).
assert abs(sum(p[10 * j] for j in range(NB)) - 4.0) <= 1e-12, sum(p[10 * j] for j in range(NB))
assert run_state(table3, "--regressor", "--order", "0")["regressor"]["parameters"] == p
'

pycheck "Y^(k) pi = inverse (Q1^(k); tau^(k)), k = 0..4, general pose, Q1 and tau each <= 1e-9 relative" '
for state, g in ((general, None), (table3, None), (general, 3.71)):
    s = dict(state) if g is None else dict(state, gravity=g)
    out = run_state(s, "--regressor")
    reg, inv = out["regressor"], out["inverse"]
    check_shape(reg, 4)
    for k, Y in enumerate(reg["Y"]):
        y = times(Y, reg["parameters"])
        for name, got, ref in (("Q1", y[:6], inv["Q1"][k]), ("tau", y[6:], inv["tau"][k])):
            scale = inf(ref)
            e = inf([a - b for a, b in zip(got, ref)]) / (scale if scale > 0 else 1.0)
            print("gravity", s.get("gravity"), "k", k, name, "relative error", e, "scale", scale)
            assert scale > 0 and e <= 1e-9, (k, name, e)
'

pycheck "base mass column of Y^(0) = (p1 x F; F), F = CoM acceleration + g e_z (from C1, V1 here)" '
out = run_state(general, "--regressor", "--order", "0")
Y0 = out["regressor"]["Y"][0]
V0, V1d = general["V1"][0], general["V1"][1]
w, v, wd, vd = V0[:3], V0[3:], V1d[:3], V1d[3:]
x = P0                                            # base frame origin = base CoM
xd = [a + b for a, b in zip(v, cross(w, x))]      # v = xdot - w x x
xdd = [a + b + c for a, b, c in zip(vd, cross(wd, x), cross(w, xd))]
F = [xdd[0], xdd[1], xdd[2] + general["gravity"]]
expected = cross(x, F) + F + [0.0] * NJ           # the base mass moves no joint
e = inf([a - b for a, b in zip(column(Y0, 0), expected)]) / inf(expected)
print("base mass column relative error", e); assert e <= 1e-12, e
'

pycheck "tau rows: zero for the columns of bodies off the joint's subtree (base, other arm, parents), k = 0..4" '
Y = run_state(general, "--regressor")["regressor"]["Y"]
def subtree(joint):   # bodies whose parameters can move joint `joint` (child body number)
    return {b for b in range(1, NB + 1) if any(a == joint for a in ancestors(b))}
def ancestors(b):
    out = [b]
    while PARENT[b - 1] is not None:
        b = PARENT[b - 1]; out.append(b)
    return out
nonzero = 0
for k, y in enumerate(Y):
    for joint in range(2, NB + 1):
        row = y[6 + joint - 2]
        inside = subtree(joint)
        for b in range(1, NB + 1):
            cols = row[10 * (b - 1):10 * b]
            if b not in inside:
                assert all(c == 0 for c in cols), (k, joint, b, cols)
            elif any(c != 0 for c in cols):
                nonzero += 1
assert nonzero >= 20, nonzero     # the inside blocks are not all zero
print("non-zero inside blocks", nonzero)
'

pycheck "Y^(1), Y^(2) = central differences of Y^(0), Y^(1) along a polynomial motion (h 1e-4, <= 1e-6 per column)" '
# Base: rotation about a fixed axis e by theta(t), translation x(t); joints q(t):
# polynomials, so every derivative at t is exact. Spatial twist: omega = e thetadot,
# v = xdot - omega x x (both differentiated by Leibniz here).
E = [1 / math.sqrt(14), 2 / math.sqrt(14), 3 / math.sqrt(14)]
TH = [0.4, 0.9, -0.7, 1.3, 0.5]                        # theta^(i)(0) / i! coefficients
X = [[0.3, -1.2, 2.5], [0.5, 0.2, -0.4], [-0.3, 0.6, 0.2], [0.1, -0.2, 0.3], [0.05, 0.02, -0.04]]
Q = [[0.2 * (j + 1) * (-1) ** j + 0.1 * i * (j - 2.5) + 0.05 * i * i for j in range(NJ)]
     for i in range(6)]                               # q coefficients, degree 5
def poly_derivs(coeffs, t, count):  # [f^(0..count-1)(t)] of sum c_i t^i, scalar or vector
    vec = isinstance(coeffs[0], list)
    n = len(coeffs[0]) if vec else 1
    out = []
    for d in range(count):
        acc = [0.0] * n
        for i in range(d, len(coeffs)):
            f = math.factorial(i) / math.factorial(i - d) * t ** (i - d)
            c = coeffs[i] if vec else [coeffs[i]]
            acc = [a + f * ci for a, ci in zip(acc, c)]
        out.append(acc if vec else acc[0])
    return out
def state_at(t, order):
    th = poly_derivs(TH, t, order + 3)
    x = poly_derivs(X, t, order + 3)
    w = [[th[k + 1] * e for e in E] for k in range(order + 2)]
    V = []
    for k in range(order + 2):   # v^(k) = x^(k+1) - sum_i C(k,i) w^(i) x x^(k-i)
        v = list(x[k + 1])
        for i in range(k + 1):
            c = cross(w[i], x[k - i]); b = math.comb(k, i)
            v = [a - b * ci for a, ci in zip(v, c)]
        V.append(w[k] + v)
    return {"gravity": 9.81, "order": order, "C1": [r + [p] for r, p in
            zip(rotation(E, th[0]), x[0])] + [[0, 0, 0, 1]],
            "V1": V, "q": poly_derivs(Q, t, order + 3)}
h = 1e-4
mid = run_state(state_at(0.0, 2), "--regressor")["regressor"]["Y"]
plus = run_state(state_at(h, 1), "--regressor")["regressor"]["Y"]
minus = run_state(state_at(-h, 1), "--regressor")["regressor"]["Y"]
for k in (0, 1):
    worst = 0.0
    for c in range(COLS):
        fd = [(p - m) / (2 * h) for p, m in zip(column(plus[k], c), column(minus[k], c))]
        ref = column(mid[k + 1], c)
        e = inf([a - b for a, b in zip(fd, ref)]) / max(1.0, inf(ref))
        worst = max(worst, e)
        assert e <= 1e-6, (k + 1, c, e)
    print("Y^(%d) worst column error" % (k + 1), worst)
'

pycheck "combined with --forward --matrices --kinematics: \"regressor\" last, the same as alone" '
alone = run_state(general, "--regressor", "--order", "2")
out = run_state(general, "--kinematics", "--regressor", "--forward", "--matrices", "--order", "2")
assert list(out) == ["order", "inverse", "forward", "matrices", "kinematics", "regressor"], list(out)
assert out["regressor"] == alone["regressor"]
assert out["inverse"] == alone["inverse"]
'

# ---- bad input: one-line error, the usual exit code, nothing on stdout ----
expect_error() {  # expect_error <name> <exit code> <message regex> <state JSON or @file> [options...]
  local name=$1 code=$2 regex=$3 input=$4
  shift 4
  if [ "${input:0:1}" = "@" ]; then
    "$EVAL" --regressor "$@" "${input:1}" >"$WORK/bad.out" 2>"$WORK/bad.err"
  else
    printf '%s' "$input" | "$EVAL" --regressor "$@" - >"$WORK/bad.out" 2>"$WORK/bad.err"
  fi
  local rc=$?
  local lines
  lines=$(wc -l <"$WORK/bad.err")
  if [ "$rc" -eq "$code" ] && [ ! -s "$WORK/bad.out" ] && [ "$lines" -eq 1 ] &&
    grep -Eq "^hodyn-eval: error: .*$regex" "$WORK/bad.err"; then
    pass "$name -> exit $rc: $(cat "$WORK/bad.err")"
  else
    fail "$name (exit $rc, expected $code; $lines stderr lines)"
    cat "$WORK/bad.out" "$WORK/bad.err"
  fi
}
Z='[0,0,0,0,0,0]'
I4='[[1,0,0,0],[0,1,0,0],[0,0,1,0],[0,0,0,1]]'
FULL="\"C1\": $I4, \"V1\": [$Z,$Z], \"q\": [$Z,$Z,$Z]"
expect_error "W_app on body 4" 2 "--regressor: applied loads" "{$FULL, \"W_app\": {\"4\": [$Z]}}"
expect_error "W_app_body on body 7" 2 "--regressor: applied loads" \
  "{$FULL, \"W_app_body\": {\"7\": [$Z]}}"
expect_error "tau_ext" 2 "--regressor: applied loads" "{$FULL, \"tau_ext\": [$Z]}"
expect_error "NaN in q (a string)" 2 'q\[0\]\[2\]' \
  "{\"C1\": $I4, \"V1\": [$Z,$Z], \"q\": [[0,0,\"NaN\",0,0,0],$Z,$Z]}"
expect_error "invalid JSON" 2 "invalid JSON" "{\"C1\": $I4, \"V1\": [$Z,$Z], \"q\": [$Z,$Z,"
expect_error "missing file" 2 "cannot open" "@$WORK/no-such-state.json"
expect_error "without q^(2) (only V1^(0), q^(0..1), W_prop and tau)" 2 "--regressor: Y\\^\\(R\\) reads q" \
  "{\"C1\": $I4, \"V1\": [$Z,$Z], \"q\": [$Z,$Z], \"W_prop\": [$Z], \"tau\": [$Z]}"
expect_error "order 2 with V1^(0..1) only" 2 "V1" "{$FULL}" --order 2
# omega = 1.5e154 about x: omega omega^T overflows in the regressor's columns,
# while the inverse dynamics (omega x I omega = 0 for a diagonal I) stays finite.
expect_error "core status (overflow), no partial output" 3 "regressor: non-finite result" \
  "{\"C1\": $I4, \"V1\": [[1.5e154,0,0,0,0,0],$Z], \"q\": [$Z,$Z,$Z]}"
"$EVAL" --demo --regressor >"$WORK/bad.out" 2>"$WORK/bad.err"
rc=$?
if [ "$rc" -eq 2 ] && [ ! -s "$WORK/bad.out" ] && head -n1 "$WORK/bad.err" | grep -q "evaluate a state file"; then
  pass "--demo --regressor -> exit 2"
else
  fail "--demo --regressor (exit $rc)"; cat "$WORK/bad.err"
fi

echo "$failures failure(s)"
[ "$failures" -eq 0 ]
