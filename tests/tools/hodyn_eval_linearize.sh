#!/usr/bin/env bash
# ctest hodyn_eval_linearize: end-to-end checks of `hodyn-eval --linearize`
# (issue 17 items 3 and 5, docs/state-format.md). The expected values are
# computed here independently (Ad_C1⁻¹ from C1 with plain lists, central
# differences through `hodyn-eval --forward`, M from --matrices), never copied
# from the tool.
# Usage: [VERBOSE=1] hodyn_eval_linearize.sh <path to hodyn-eval> <repository root>
# (VERBOSE=1 also prints the measured errors of the passing checks.)
set -uo pipefail

EVAL=${1:?usage: hodyn_eval_linearize.sh <hodyn-eval> <repo root>}
ROOT=${2:?usage: hodyn_eval_linearize.sh <hodyn-eval> <repo root>}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

failures=0
pass() { echo "ok   $1"; }
fail() { echo "FAIL $1"; failures=$((failures + 1)); }

# The Table 3 state at order 3 (V1^(0..4), q^(0..5)), then the same motion at a
# general base pose: rotation by 0.7 rad about (1, 2, 3)/√14, p1 = (0.3, −1.2, 2.5).
if ! "$EVAL" --emit-example-state --order 3 >"$WORK/table3.json"; then
  echo "FAIL --emit-example-state"; exit 1
fi
cat >"$WORK/check.py" <<'EOF'
import json, math, subprocess, sys
EVAL, ROOT, WORK = sys.argv[1], sys.argv[2], sys.argv[3]
N = 6                      # joints; z has 12 + 2N = 24 entries, du 6 + N = 12
XI, DQ, DV, DQD = 0, 6, 12, 18   # first rows / columns of the blocks of z
def run(*args, stdin=None):
    return json.loads(subprocess.run([EVAL, *args], input=stdin, capture_output=True, text=True,
                                     check=True).stdout)
def run_state(state, *args):
    return run(*args, "-", stdin=json.dumps(state))
def matmul(a, b):
    return [[sum(a[i][k] * b[k][j] for k in range(len(b))) for j in range(len(b[0]))]
            for i in range(len(a))]
def transpose(a):
    return [list(r) for r in zip(*a)]
def skew(v):
    return [[0, -v[2], v[1]], [v[2], 0, -v[0]], [-v[1], v[0], 0]]
def rotation(axis, angle):  # Rodrigues
    n = math.sqrt(sum(x * x for x in axis)); k = [x / n for x in axis]
    K = skew(k); K2 = matmul(K, K); s, c = math.sin(angle), 1 - math.cos(angle)
    return [[(i == j) + s * K[i][j] + c * K2[i][j] for j in range(3)] for i in range(3)]
def adjoint(R, p):  # Ad of C = (R, p) on twists (omega; v): [[R, 0], [p^ R, R]]
    pr = matmul(skew(p), R)
    return [R[i] + [0, 0, 0] for i in range(3)] + [pr[i] + R[i] for i in range(3)]
def inverse_pose(R, p):
    Rt = transpose(R)
    return Rt, [-sum(Rt[i][k] * p[k] for k in range(3)) for i in range(3)]
def pose_of(state):
    C = state["C1"]
    return [row[:3] for row in C[:3]], [row[3] for row in C[:3]]
def with_pose(state, R, p):
    s = {k: v for k, v in state.items() if k not in ("p1", "R1", "C1")}
    s["C1"] = [R[i] + [p[i]] for i in range(3)] + [[0, 0, 0, 1]]
    return s
def inf(v):
    return max(abs(x) for x in v)
def block(m, r0, r1, c0, c1):
    return [row[c0:c1] for row in m[r0:r1]]
def max_abs_diff(a, b):
    return max(abs(x - y) for ra, rb in zip(a, b) for x, y in zip(ra, rb))
def nu_dot(out):  # (V1^(1); q^(2)) of a --forward result
    return out["forward"]["V1"][0] + out["forward"]["q"][0]
table3 = json.load(open(f"{WORK}/table3.json"))
R0 = rotation([1, 2, 3], 0.7)
P0 = [0.3, -1.2, 2.5]
general = with_pose(table3, R0, P0)   # order 3, full motion
# Explicit inputs at order 0, offset from the inverse dynamics (so that the
# point is not a hover of the file's motion): W_prop_body and tau.
inv0 = run_state(general, "--order", "0")["inverse"]
W_BODY = [w + d for w, d in zip(inv0["W_prop_body"][0], [0.1, -0.2, 0.05, 0.3, -0.4, 1.0])]
TAU = [t + 0.05 * (j + 1) for j, t in enumerate(inv0["tau"][0])]
def explicit(state, w_body=None, tau=None):
    s = dict(state, order=0)
    s["W_prop_body"] = [list(w_body or W_BODY)]
    s["tau"] = [list(tau or TAU)]
    return s
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

pycheck "keys and shapes: A 24x24, B 24x12, finite; beside \"inverse\"" '
out = run_state(general, "--linearize")
assert list(out) == ["order", "inverse", "linearization"], list(out)
lin = out["linearization"]
assert list(lin) == ["A", "B"], list(lin)
assert len(lin["A"]) == 24 and all(len(r) == 24 for r in lin["A"]), "A shape"
assert len(lin["B"]) == 24 and all(len(r) == 12 for r in lin["B"]), "B shape"
assert all(math.isfinite(x) for r in lin["A"] + lin["B"] for x in r)
assert inf([x for r in block(lin["A"], DV, 24, 0, 24) for x in r]) > 0, "velocity rows all zero"
'

# Round trip: at --order r the inputs (W_prop_body[0], tau[0]) are inverse
# dynamics of order r, whose order-0 entries are those of order 0 alone — to
# the bit in the default build, but not where the compiler contracts the two
# kernels into FMAs differently (-march=native, issue 21 item 5: 4.9e-17 of
# the largest entry). A reads them through nu_dot = M^-1 (u - h), and u - h
# cancels (the inverse dynamics of this state is mostly the bias h), so A
# moved by 2.5e-14 of its largest entry there: the bound is 1e-12 of the
# largest entry — a higher order leaking into A is O(1). B does not read the
# inputs: bit for bit. Explicit inputs (below): A and B bit for bit.
pycheck "--order 0, 1 and 3 give the same A and B (round trip: A within 1e-12 of its largest entry; explicit inputs exactly)" '
def apart(a, b):  # max |a - b| / max |b| over the entries
    x = [v for r in a for v in r]; y = [v for r in b for v in r]
    return max(abs(u - v) for u, v in zip(x, y)) / max(abs(v) for v in y)
out0 = run_state(general, "--linearize", "--order", "0")
ref = out0["linearization"]
for r in ("1", "3"):
    out = run_state(general, "--linearize", "--order", r)
    lin = out["linearization"]
    inputs = max(apart([out["inverse"][k][0]], [out0["inverse"][k][0]]) for k in ("W_prop_body", "tau"))
    a_apart = apart(lin["A"], ref["A"])
    print(f"--order {r} vs 0: inputs {inputs:.2g}, A {a_apart:.2g} (relative to the largest entry)")
    assert a_apart <= 1e-12, r
    assert lin["B"] == ref["B"], r
# Explicit inputs given to order 3: only their order-0 entries count.
inv3 = run_state(general, "--order", "3")["inverse"]
s = dict(general, W_prop_body=[W_BODY] + inv3["W_prop_body"][1:], tau=[TAU] + inv3["tau"][1:])
ref = run_state(s, "--linearize", "--order", "0")["linearization"]
assert ref == run_state(s, "--linearize", "--order", "3")["linearization"]
assert ref == run_state(explicit(general), "--linearize")["linearization"]
'

pycheck "xi rows of A = [0, 0, Ad_C1^-1, 0] (C1 general, Ad computed here), q rows = [0, 0, 0, I]" '
A = run_state(general, "--linearize")["linearization"]["A"]
ad_inv = adjoint(*inverse_pose(R0, P0))
e = max_abs_diff(block(A, XI, XI + 6, DV, DV + 6), ad_inv); print("Ad block error", e)
assert e <= 1e-14, e
assert all(x == 0 for r in block(A, XI, XI + 6, 0, DV) + block(A, XI, XI + 6, DQD, 24) for x in r)
for i in range(N):
    assert A[DQ + i] == [float(j == DQD + i) for j in range(24)], ("q row", i, A[DQ + i])
'

pycheck "first 6+n rows of B zero; M B_velocity = diag(Ad_C1^-T, I) with M from --matrices" '
out = run_state(explicit(general), "--linearize", "--matrices")
assert list(out) == ["order", "inverse", "matrices", "linearization"], list(out)
B, M = out["linearization"]["B"], out["matrices"]["M"]
assert all(x == 0 for r in B[:DV] for x in r), "B rows 0..11 not zero"
MB = matmul(M, B[DV:])
ad_inv_t = transpose(adjoint(*inverse_pose(R0, P0)))
expected = [[(ad_inv_t[i][j] if i < 6 and j < 6 else float(i == j and i >= 6)) for j in range(12)]
            for i in range(12)]
e = max_abs_diff(MB, expected); print("M B - diag(Ad^-T, I)", e); assert e <= 1e-10, e
'

pycheck "B velocity rows = central differences through --forward (tau[0][2], W_prop_body[0][5], [0][0]; h 1e-3, linear: <= 1e-6)" '
B = run_state(explicit(general), "--linearize")["linearization"]["B"]
h = 1e-3
for col, kind, idx in ((6 + 2, "tau", 2), (5, "w", 5), (0, "w", 0)):
    def at(sign):
        w, t = list(W_BODY), list(TAU)
        (t if kind == "tau" else w)[idx] += sign * h
        return nu_dot(run_state(explicit(general, w, t), "--forward"))
    fd = [(p - m) / (2 * h) for p, m in zip(at(1), at(-1))]
    b = [B[DV + i][col] for i in range(12)]
    e = inf([x - y for x, y in zip(fd, b)]); print("column", col, "error", e, "scale", inf(b))
    assert inf(b) > 1e-3 and e <= 1e-6, (col, e)
'

pycheck "A velocity rows = central differences through --forward (xi ang/lin, q, V1, qdot; W_prop_body held, W_prop given to --linearize; h 1e-5)" '
# Q1 = Ad_C1^-T W_body: the spatial wrench whose base-frame form is W_BODY.
ad_inv_t = transpose(adjoint(*inverse_pose(R0, P0)))
Q1 = [sum(ad_inv_t[i][k] * W_BODY[k] for k in range(6)) for i in range(6)]
s = dict(general, order=0, W_prop=[Q1], tau=[TAU])
A = run_state(s, "--linearize")["linearization"]["A"]
A_body = run_state(explicit(general), "--linearize")["linearization"]["A"]
e = max_abs_diff(A, A_body) / max(inf(r) for r in A); print("W_prop vs W_prop_body", e)
assert e <= 1e-12, e
h = 1e-5
def perturbed(col, sign):
    st = explicit(general)
    d = sign * h
    if col < 3:      # xi angular: C1 exp([xi]) = (R Rot(e_col, d), p)
        e_k = [float(i == col) for i in range(3)]
        return with_pose(st, matmul(R0, rotation(e_k, d)), P0)
    if col < 6:      # xi linear: C1 exp([xi]) = (R, p + R d e_k)
        return with_pose(st, R0, [P0[i] + R0[i][col - 3] * d for i in range(3)])
    st = json.loads(json.dumps(st))
    if col < DV:
        st["q"][0][col - DQ] += d
    elif col < DQD:
        st["V1"][0][col - DV] += d
    else:
        st["q"][1][col - DQD] += d
    return st
for col in (1, 4, DQ + 1, DV + 1, DQD + 1):
    fd = [(p - m) / (2 * h) for p, m in zip(nu_dot(run_state(perturbed(col, 1), "--forward")),
                                           nu_dot(run_state(perturbed(col, -1), "--forward")))]
    a = [A[DV + i][col] for i in range(12)]
    e = inf([x - y for x, y in zip(fd, a)]); print("column", col, "error", e, "scale", inf(a))
    assert inf(a) > 1e-3 and e <= 1e-6 * max(1.0, inf(a)), (col, e)
'

pycheck "combined with --forward --hybrid --matrices --kinematics: every section, each as alone" '
alone = {o: run_state(general, "--" + o) for o in ("forward", "hybrid", "matrices", "kinematics", "linearize")}
out = run_state(general, "--kinematics", "--linearize", "--forward", "--matrices", "--hybrid")
assert list(out) == ["order", "inverse", "forward", "hybrid", "matrices", "kinematics",
                     "linearization"], list(out)
for o, key in (("forward", "forward"), ("hybrid", "hybrid"), ("matrices", "matrices"),
               ("kinematics", "kinematics"), ("linearize", "linearization")):
    assert out[key] == alone[o][key], o
'

# ---- bad input: one-line error, the usual exit code, nothing on stdout ----
expect_error() {  # expect_error <name> <exit code> <message regex> <state JSON> [options...]
  local name=$1 code=$2 regex=$3 input=$4
  shift 4
  printf '%s' "$input" | "$EVAL" --linearize "$@" - >"$WORK/bad.out" 2>"$WORK/bad.err"
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
expect_error "NaN in q (a string)" 2 'q\[0\]\[2\]' \
  "{\"C1\": $I4, \"V1\": [$Z,$Z], \"q\": [[0,0,\"NaN\",0,0,0],$Z,$Z]}"
expect_error "NaN in q (bare, not JSON)" 2 "invalid JSON" \
  "{\"C1\": $I4, \"V1\": [$Z,$Z], \"q\": [[0,0,NaN,0,0,0],$Z,$Z]}"
expect_error "round trip without q^(2)" 2 "--linearize without W_prop and tau" \
  "{\"C1\": $I4, \"V1\": [$Z], \"q\": [$Z,$Z]}"
expect_error "applied loads" 2 "applied loads" "{$FULL, \"tau_ext\": [$Z]}"
expect_error "W_app on body 4" 2 "applied loads" "{$FULL, \"W_app\": {\"4\": [$Z]}}"
expect_error "core status (overflow), no partial output" 3 "linearization: " \
  "{\"C1\": $I4, \"V1\": [[1e200,1e200,1e200,0,0,0]], \"q\": [$Z,$Z], \"W_prop\": [$Z], \"tau\": [$Z]}"
"$EVAL" --demo --linearize >"$WORK/bad.out" 2>"$WORK/bad.err"
rc=$?
if [ "$rc" -eq 2 ] && [ ! -s "$WORK/bad.out" ] && head -n1 "$WORK/bad.err" | grep -q "evaluate a state file"; then
  pass "--demo --linearize -> exit 2"
else
  fail "--demo --linearize (exit $rc)"; cat "$WORK/bad.err"
fi

# Without W_prop/tau and with only V1^(0), q^(0..1), explicit inputs suffice (no "inverse").
if printf '{"C1": %s, "V1": [%s], "q": [%s,%s], "W_prop_body": [[0,0,0,0,0,39.24]], "tau": [%s]}' \
  "$I4" "$Z" "$Z" "$Z" "$Z" | "$EVAL" --linearize - >"$WORK/min.out" 2>"$WORK/min.err" &&
  python3 -c 'import json, sys; o = json.load(open(sys.argv[1]));
assert list(o) == ["order", "linearization"], list(o)' "$WORK/min.out"; then
  pass "explicit inputs with V1^(0), q^(0..1) only: linearization without inverse"
else
  fail "explicit inputs with V1^(0), q^(0..1) only"; cat "$WORK/min.out" "$WORK/min.err"
fi

echo "$failures failure(s)"
[ "$failures" -eq 0 ]
