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

# Byte for byte where the file was made (x86-64). Other targets (the ARM
# cross builds, docs/cross-linux.md) round a few of the 68 numbers differently
# in the last place (fused multiply-add, libm's cos): there the same keys and
# every number within 4 ulp.
ulp_match() {
  python3 - "$1" "$2" <<'EOF'
import json, math, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
differing = []
def walk(x, y, path):
    if isinstance(x, dict):
        assert isinstance(y, dict) and x.keys() == y.keys(), path
        for k in x: walk(x[k], y[k], f"{path}/{k}")
    elif isinstance(x, list):
        assert isinstance(y, list) and len(x) == len(y), path
        for i, (p, q) in enumerate(zip(x, y)): walk(p, q, f"{path}[{i}]")
    elif isinstance(x, float) and isinstance(y, (int, float)):
        if x != y:
            ulps = abs(x - y) / math.ulp(max(abs(x), abs(y)))
            assert ulps <= 4, f"{path}: {x!r} vs {y!r} ({ulps:.0f} ulp)"
            differing.append(path)
    else:
        assert x == y, f"{path}: {x!r} vs {y!r}"
walk(a, b, "")
print(f"{len(differing)} numbers differ by <= 4 ulp: {' '.join(differing)}")
EOF
}
if "$EVAL" --emit-example-state >"$WORK/emitted.json" 2>/dev/null &&
  cmp -s "$WORK/emitted.json" "$ROOT/examples/state_table3.json"; then
  pass "examples/state_table3.json matches --emit-example-state"
elif [ -s "$WORK/emitted.json" ] &&
  ulp_note=$(ulp_match "$WORK/emitted.json" "$ROOT/examples/state_table3.json" 2>&1); then
  pass "examples/state_table3.json matches --emit-example-state ($ulp_note)"
else
  echo "${ulp_note:-}"
  fail "examples/state_table3.json differs from --emit-example-state"
fi

# --order below the file's order uses the first entries of each list. Order 0
# alone and order 0 of the order-2 call are one formula in two kernels (two
# instantiations): the same digits in the default build, not where the
# compiler contracts each into FMAs differently (-march=native, issue 21
# item 5): there within 8 ulps of the largest entry (max norm; 2.0 measured for tau).
if "$EVAL" --order 0 "$ROOT/examples/state_table3.json" >"$WORK/o0.out" 2>/dev/null &&
  o0_note=$(python3 -c 'import json, math, sys
a = json.load(open(sys.argv[1])); b = json.load(open(sys.argv[2]))
assert a["order"] == 0
notes = []
for key in ("Q1", "tau"):
    x, y = a["inverse"][key][0], b["inverse"][key][0]
    assert len(x) == len(y), key
    d = max(abs(u - v) for u, v in zip(x, y)); ulps = d / math.ulp(max(abs(v) for v in y))
    assert ulps <= 8, f"{key}: {x} vs {y} ({ulps:.1f} ulps of the largest entry)"
    notes.append(f"{key} {ulps:.1f} ulps")
print(", ".join(notes))' "$WORK/o0.out" "$WORK/t3.out" 2>&1); then
  pass "--order 0 on the order-2 example ($o0_note)"
else
  fail "--order 0 on the order-2 example: ${o0_note:-}"
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

# ---- forward, hybrid dynamics and the equations of motion ----
# Helpers for the python checks below: nu_err compares generalized
# accelerations nu^(k+1) = (V1^(k+1); q^(k+2)) order by order (one scale per
# order: the joint parts alone can be ~1e-5); rel_err compares vector lists.
cat >"$WORK/check.py" <<'EOF'
import json, subprocess, sys
EVAL, ROOT, WORK = sys.argv[1], sys.argv[2], sys.argv[3]
def run(*args, stdin=None):
    return json.loads(subprocess.run([EVAL, *args], input=stdin, capture_output=True, text=True,
                                     check=True).stdout)
def load(name):
    return json.load(open(f"{ROOT}/examples/{name}"))
def inf(v):
    return max(abs(x) for x in v)
def rel_err(a, b):
    assert len(a) == len(b), (len(a), len(b))
    return max(inf([x - y for x, y in zip(u, v)]) / (inf(v) or 1.0) for u, v in zip(a, b))
def nu_err(out, v1, q):  # out: {"V1": [...], "q": [...]}; v1, q: the expected lists
    return rel_err([a + b for a, b in zip(out["V1"], out["q"])],
                   [a + b for a, b in zip(v1, q)])
def matvec(m, v):
    return [sum(x * y for x, y in zip(row, v)) for row in m]
def add(*vs):
    return [sum(xs) for xs in zip(*vs)]
EOF
# pycheck <name> <python code>: runs check.py, then the code; prints its output on failure.
pycheck() {
  local name=$1
  printf '%s\n' "$2" >"$WORK/case.py"
  if python3 -c 'import sys; g = {}; exec(open(sys.argv[3] + "/check.py").read(), g);
exec(open(sys.argv[3] + "/case.py").read(), g)' "$EVAL" "$ROOT" "$WORK" >"$WORK/py.out" 2>&1; then
    pass "$name"
  else
    fail "$name"; cat "$WORK/py.out"
  fi
}

pycheck "--forward round trip on state_table3.json: nu^(1..3) within 1e-8" '
s = load("state_table3.json")
out = run("--forward", f"{ROOT}/examples/state_table3.json")
assert out["inverse"] == run(f"{ROOT}/examples/state_table3.json")["inverse"]
fw = out["forward"]
assert len(fw["V1"]) == 3 and len(fw["q"]) == 3 and all(len(v) == 6 for v in fw["V1"] + fw["q"])
e = nu_err(fw, s["V1"][1:4], s["q"][2:5]); print("nu error", e); assert e <= 1e-8, e
for r in (0, 1):  # lower orders: ~1e-12
    o = run("--forward", "--order", str(r), f"{ROOT}/examples/state_table3.json")["forward"]
    assert len(o["V1"]) == r + 1 and nu_err(o, s["V1"][1:r + 2], s["q"][2:r + 3]) <= 1e-10, r
'

pycheck "--forward with explicit W_prop_body / W_prop and tau = the round trip" '
s = load("state_table3.json")
inv = run(f"{ROOT}/examples/state_table3.json")["inverse"]
ref = run("--forward", f"{ROOT}/examples/state_table3.json")["forward"]
for key, src in (("W_prop_body", "W_prop_body"), ("W_prop", "Q1")):
    st = dict(s, tau=inv["tau"]); st[key] = inv[src]
    o = run("--forward", "-", stdin=json.dumps(st))["forward"]
    e = nu_err(o, ref["V1"], ref["q"]); print(key, e); assert e <= 1e-8, (key, e)
# The example holds only V1^(0), q^(0..1) plus W_prop_body and tau: no "inverse" section.
o = run("--forward", f"{ROOT}/examples/state_table3_forward.json")
assert set(o) == {"order", "forward"}, o.keys()
e = nu_err(o["forward"], ref["V1"], ref["q"]); print("example", e); assert e <= 1e-8, e
'

pycheck "--hybrid, base motion + all joints prescribed = the inverse (Q1, tau) within 1e-10" '
s = load("state_table3.json")
inv = run(f"{ROOT}/examples/state_table3.json")["inverse"]
st = dict(s, prescribed_joints=[2, 3, 4, 5, 6, 7], base_input="motion")
h = run("--hybrid", "-", stdin=json.dumps(st))["hybrid"]
e = max(rel_err(h["Q1"], inv["Q1"]), rel_err(h["tau"], inv["tau"])); print("Q1/tau", e)
assert e <= 1e-10, e
assert nu_err(h, s["V1"][1:4], s["q"][2:5]) <= 1e-15  # the prescribed motion, returned
'

pycheck "--hybrid example (joints 2, 5 prescribed, base wrench): state and torques reproduced" '
s = load("state_table3_hybrid.json")
out = run("--hybrid", f"{ROOT}/examples/state_table3_hybrid.json")
h, inv = out["hybrid"], out["inverse"]
e = nu_err(h, s["V1"][1:4], s["q"][2:5]); print("nu", e); assert e <= 1e-8, e
e = max(rel_err(h["Q1"], inv["Q1"]), rel_err(h["tau"], inv["tau"])); print("Q1/tau", e)
assert e <= 1e-8, e
# the torques of joints 2 and 5 are outputs: their "tau" entries are not read
t = [[0.0 if j in (0, 3) else x for j, x in enumerate(v)] for v in s["tau"]]
assert run("--hybrid", "-", stdin=json.dumps(dict(s, tau=t)))["hybrid"] == h
'

pycheck "--matrices: M symmetric, h = C nu, M nu_dot + h + g = (Q1; tau); rates at order 1" '
s = load("state_table3.json")
out = run("--matrices", "--order", "0", f"{ROOT}/examples/state_table3.json")
m, inv = out["matrices"], out["inverse"]
assert set(m) == {"M", "C", "h", "g", "applied"}, m.keys()
M, C = m["M"], m["C"]
assert len(M) == 12 and all(len(r) == 12 for r in M + C) and len(C) == 12 and len(m["h"]) == 12
scale = max(inf(r) for r in M)
e = max(abs(M[i][j] - M[j][i]) for i in range(12) for j in range(12)); print("asym", e)
assert e <= 1e-14 * scale, e
nu, nu_dot = s["V1"][0] + s["q"][1], s["V1"][1] + s["q"][2]
assert rel_err([m["h"]], [matvec(C, nu)]) <= 1e-12
tau_bar = inv["Q1"][0] + inv["tau"][0]
e = rel_err([add(matvec(M, nu_dot), m["h"], m["g"])], [tau_bar]); print("order 0", e)
assert e <= 1e-10, e
assert inf(m["applied"]) == 0
# order 1: d/dt of eq. 10, M nu_ddot + M_dot nu_dot + h_dot + g_dot = (Q1^(1); tau^(1)),
# and (1/2) M_dot - C is skew (Lemma 1).
out = run("--matrices", "--order", "1", f"{ROOT}/examples/state_table3.json")
m1, inv = out["matrices"], out["inverse"]
assert set(m1) == {"M", "C", "h", "g", "applied", "M_dot", "C_dot", "h_dot", "g_dot", "applied_dot"}
assert m1["M"] == M
nu_ddot = s["V1"][2] + s["q"][3]
lhs = add(matvec(m1["M"], nu_ddot), matvec(m1["M_dot"], nu_dot), m1["h_dot"], m1["g_dot"])
e = rel_err([lhs], [inv["Q1"][1] + inv["tau"][1]]); print("order 1", e); assert e <= 1e-10, e
N = [[0.5 * m1["M_dot"][i][j] - m1["C"][i][j] for j in range(12)] for i in range(12)]
e = max(abs(N[i][j] + N[j][i]) for i in range(12) for j in range(12)); print("skew", e)
assert e <= 1e-12, e
'

pycheck "--kinematics: keys, shapes, C_1 = base pose, V_j = J_j nu, dV_j/dt = J_dot nu + J nu_dot, c_dot = J_com nu" '
s = load("state_table3.json")
out = run("--kinematics", f"{ROOT}/examples/state_table3.json")
k = out["kinematics"]; R = out["order"]
assert set(out) == {"order", "inverse", "kinematics"}, out.keys()
assert list(k) == ["C", "V", "J", "J_dot", "com", "J_com"], list(k)
assert len(k["C"]) == 7 and all(len(c) == 4 and all(len(r) == 4 for r in c) for c in k["C"])
assert len(k["V"]) == 7 and all(len(v) == R + 2 and all(len(x) == 6 for x in v) for v in k["V"])
for key in ("J", "J_dot"):
    assert len(k[key]) == 7 and all(len(m) == 6 and all(len(r) == 12 for r in m) for m in k[key])
assert len(k["com"]) == R + 2 and len(k["J_com"]) == 3 and all(len(r) == 12 for r in k["J_com"])
C1 = [s["R1"][i] + [s["p1"][i]] for i in range(3)] + [[0, 0, 0, 1]]
e = max(abs(a - b) for r, q in zip(k["C"][0], C1) for a, b in zip(r, q)); assert e <= 1e-15, e
assert k["V"][0] == s["V1"][:R + 2]  # the base twist passes through
nu, nu_dot = s["V1"][0] + s["q"][1], s["V1"][1] + s["q"][2]
for j in range(7):
    J, Jd = k["J"][j], k["J_dot"][j]
    assert rel_err([matvec(J, nu)], [k["V"][j][0]]) <= 1e-13, j
    e = rel_err([add(matvec(Jd, nu), matvec(J, nu_dot))], [k["V"][j][1]]); assert e <= 1e-12, (j, e)
    # joint j+1 moves body j+1 and its descendants only: column 6+j of J_i is 0 off that subtree
e = rel_err([matvec(k["J_com"], nu)], [k["com"][1]]); print("c_dot", e); assert e <= 1e-12, e
# the home pose at rest: the centre of mass of the 4 kg robot is the mass-weighted body positions
h = run("--kinematics", f"{ROOT}/examples/state_hover.json")["kinematics"]
assert all(abs(x) <= 1e-15 for x in h["com"][1]), h["com"][1]
'

pycheck "orders up to 10: --order 10 forward round trip (backward error every order), order 11 refused" '
st = subprocess.run([EVAL, "--emit-example-state", "--order", "10"], capture_output=True, text=True,
                    check=True).stdout
s = json.loads(st); assert s["order"] == 10 and len(s["V1"]) == 12 and len(s["q"]) == 13
out = run("--forward", "-", stdin=st)
inv, fw = out["inverse"], out["forward"]
assert out["order"] == 10 and len(inv["Q1"]) == 11 and len(fw["q"]) == 11
# forward error: grows ~tenfold per order on this slow trajectory (conditioning,
# tests/core/test_high_order_oracle.cpp); orders 0..5 stay below 1e-6
e = nu_err({"V1": fw["V1"][:6], "q": fw["q"][:6]}, s["V1"][1:7], s["q"][2:8]); print("orders 0..5", e)
assert e <= 1e-6, e
# backward error, every order: the inverse dynamics of the result reproduces the inputs
back = run("-", stdin=json.dumps(dict(s, V1=s["V1"][:1] + fw["V1"], q=s["q"][:2] + fw["q"])))["inverse"]
e = max(rel_err([a + b], [c + d]) for a, b, c, d in zip(back["Q1"], back["tau"], inv["Q1"], inv["tau"]))
print("backward", e); assert e <= 1e-12, e
p = subprocess.run([EVAL, "--order", "11", "-"], input=st, capture_output=True, text=True)
assert p.returncode == 2 and "above the compiled maximum 10" in p.stderr, p.stderr
'

pycheck "applied loads in --forward and --matrices (W_app, W_app_body, tau_ext)" '
s = load("state_table3.json")
st = dict(s, W_app={"4": [[0.1, -0.4, 0.2, 1, 0, 0], [0.01, 0, 0, 0, 0.3, 0], [0, 0, 0, 0, 0, 0.1]]},
          W_app_body={"7": [[0, 0, 0.05, 0, 0, 1], [0.02, 0, 0, 0.5, 0, 0], [0, 0, 0, 0, 0.2, 0]]},
          tau_ext=[[0.1, 0.2, 0.3, 0.4, 0.5, 0.6], [0.01] * 6, [0.001] * 6])
out = run("--forward", "--matrices", "-", stdin=json.dumps(st))
inv, fw, m = out["inverse"], out["forward"], out["matrices"]
e = nu_err(fw, s["V1"][1:4], s["q"][2:5]); print("forward", e); assert e <= 1e-8, e
assert inf(m["applied"]) > 0.1
nu, nu_dot, nu_ddot = (s["V1"][k] + s["q"][k + 1] for k in range(3))
tau_bar = inv["Q1"][0] + add(inv["tau"][0], st["tau_ext"][0])
e = rel_err([add(matvec(m["M"], nu_dot), m["h"], m["g"], m["applied"])], [tau_bar])
print("order 0", e); assert e <= 1e-10, e
tau_bar1 = inv["Q1"][1] + add(inv["tau"][1], st["tau_ext"][1])
lhs = add(matvec(m["M"], nu_ddot), matvec(m["M_dot"], nu_dot), m["h_dot"], m["g_dot"],
          m["applied_dot"])
e = rel_err([lhs], [tau_bar1]); print("order 1", e); assert e <= 1e-10, e
'

pycheck "--demo: forward round trip below 1e-8, hybrid and mass-matrix lines" '
import re
text = subprocess.run([EVAL, "--demo"], capture_output=True, text=True, check=True).stdout
errs = [float(x) for x in re.findall(r"r = \d: ([0-9.e+-]+)", text)]
assert len(errs) == 3 and max(errs) <= 1e-8, errs
assert re.search(r"Hybrid dynamics.* to [0-9.e+-]+\n", text)
assert re.search(r"condition number [0-9.e+]+", text)
print(errs)
'

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
expect_error "duplicated key (the last one does not silently win)" 2 \
  "{\"C1\": $I4, \"V1\": $V1_0, \"q\": $Q_0, \"q\": $Q_0}"
if grep -q '^hodyn-eval: error: .*: invalid JSON: q: duplicate key$' "$WORK/bad.err"; then
  pass "the duplicated key is named"
else
  fail "the duplicated key is named: $(cat "$WORK/bad.err")"
fi
expect_error "duplicated key in a nested object" 2 \
  "{\"C1\": $I4, \"V1\": $V1_0, \"q\": $Q_0, \"W_app\": {\"4\": [$Z], \"4\": [$Z]}}"
expect_error "core status: overflow to a non-finite result" 3 \
  "{\"C1\": $I4, \"V1\": [[1e200,1e200,1e200,0,0,0],$Z], \"q\": $Q_0}"
# --forward / --hybrid / --matrices inputs.
V1_2="[$Z,$Z,$Z,$Z]"
Q_2="[$Z,$Z,$Z,$Z,$Z]"
ST2="\"order\": 2, \"C1\": $I4, \"V1\": $V1_2, \"q\": $Q_2"
expect_error "prescribed_joints: unknown joint 8" 2 "{$ST2, \"prescribed_joints\": [2, 8]}" --hybrid
expect_error "prescribed_joints: 1 is the base" 2 "{$ST2, \"prescribed_joints\": [1]}" --hybrid
expect_error "prescribed_joints: listed twice" 2 "{$ST2, \"prescribed_joints\": [5, 5]}" --hybrid
expect_error "prescribed_joints: not a list" 2 "{$ST2, \"prescribed_joints\": 2}" --hybrid
expect_error "base_input: bad string" 2 "{$ST2, \"base_input\": \"thrust\"}" --hybrid
expect_error "W_prop and W_prop_body" 2 \
  "{$ST2, \"W_prop\": [$Z,$Z,$Z], \"W_prop_body\": [$Z,$Z,$Z]}" --forward
expect_error "W_prop too short" 2 "{$ST2, \"W_prop\": [$Z]}" --forward
expect_error "tau: six-vector of length 5" 2 "{$ST2, \"tau\": [[0,0,0,0,0],$Z,$Z]}" --forward
expect_error "--forward round trip needs the full state" 2 \
  "{\"C1\": $I4, \"V1\": [$Z], \"q\": [$Z,$Z]}" --forward
expect_error "--matrices at order 1 needs V1^(1)" 2 \
  "{\"C1\": $I4, \"V1\": [$Z], \"q\": [$Z,$Z,$Z]}" --matrices --order 1
expect_error "--hybrid with base motion needs V1^(R+1)" 2 \
  "{\"order\": 1, \"C1\": $I4, \"V1\": [$Z], \"q\": [$Z,$Z], \"base_input\": \"motion\", \"tau\": [$Z,$Z]}" --hybrid

# The rest of the state's surface (docs/robustness.md).
expect_error "the state is not an object" 2 "[1]"
expect_error "order 1.5 in the JSON" 2 "{\"order\": 1.5, \"C1\": $I4, \"V1\": $V1_0, \"q\": $Q_0}"
expect_error "order -1 in the JSON" 2 "{\"order\": -1, \"C1\": $I4, \"V1\": $V1_0, \"q\": $Q_0}"
expect_error "order 11 on the command line" 2 "{\"C1\": $I4, \"V1\": $V1_0, \"q\": $Q_0}" --order 11
expect_error "C1 and p1 + R1 together" 2 \
  "{\"C1\": $I4, \"p1\": [0,0,0], \"R1\": [[1,0,0],[0,1,0],[0,0,1]], \"V1\": $V1_0, \"q\": $Q_0}"
expect_error "p1 without R1" 2 "{\"p1\": [0,0,0], \"V1\": $V1_0, \"q\": $Q_0}"
expect_error "C1's last row" 2 \
  "{\"C1\": [[1,0,0,0],[0,1,0,0],[0,0,1,0],[0,0,1,1]], \"V1\": $V1_0, \"q\": $Q_0}"
expect_error "C1 of 3 rows" 2 "{\"C1\": [[1,0,0,0],[0,1,0,0],[0,0,1,0]], \"V1\": $V1_0, \"q\": $Q_0}"
expect_error "gravity as a string" 2 "{\"gravity\": \"9.81\", \"C1\": $I4, \"V1\": $V1_0, \"q\": $Q_0}"
expect_error "comment not a string" 2 "{\"comment\": 5, \"C1\": $I4, \"V1\": $V1_0, \"q\": $Q_0}"
expect_error "empty file" 2 ""

# A missing file: one line naming it, exit 2, stdout empty.
"$EVAL" "$WORK/no_such_state.json" >"$WORK/nf.out" 2>"$WORK/nf.err"
rc=$?
if [ "$rc" -eq 2 ] && [ ! -s "$WORK/nf.out" ] && [ "$(wc -l <"$WORK/nf.err")" -eq 1 ] &&
  grep -q "cannot open '$WORK/no_such_state.json'" "$WORK/nf.err"; then
  pass "missing file -> exit 2: $(cat "$WORK/nf.err")"
else
  fail "missing file (exit $rc)"; cat "$WORK/nf.out" "$WORK/nf.err"
fi

# Usage errors: exit 2, the error first (the usage follows), stdout empty.
expect_usage_error() {  # <words in the first line> <args...>
  local words=$1
  shift
  "$EVAL" "$@" >"$WORK/u.out" 2>"$WORK/u.err"
  local rc=$?
  if [ "$rc" -eq 2 ] && [ ! -s "$WORK/u.out" ] && head -n1 "$WORK/u.err" | grep -qF -- "$words"; then
    pass "$* -> exit 2: $(head -n1 "$WORK/u.err")"
  else
    fail "$* (exit $rc)"; cat "$WORK/u.out" "$WORK/u.err"
  fi
}
expect_usage_error "--order: expected an integer, got 'x'" --order x "$ROOT/examples/state_hover.json"
expect_usage_error "--order needs a value" --order
expect_usage_error "more than one input file" "$ROOT/examples/state_hover.json" "$ROOT/examples/state_hover.json"
expect_usage_error "only one of --demo" --demo --sizes
expect_usage_error "take no input file" --sizes "$ROOT/examples/state_hover.json"

# A failed write of the result: exit 1, one line (not a silent success).
if [ -w /dev/full ]; then
  "$EVAL" "$ROOT/examples/state_hover.json" >/dev/full 2>"$WORK/full.err"
  rc=$?
  if [ "$rc" -eq 1 ] && grep -q "writing to stdout failed" "$WORK/full.err"; then
    pass "stdout on a full device -> exit 1"
  else
    fail "stdout on a full device (exit $rc)"; cat "$WORK/full.err"
  fi
fi

# --forward with --demo: a usage error.
"$EVAL" --demo --forward >/dev/null 2>"$WORK/opt.err"
rc=$?
if [ "$rc" -eq 2 ] && head -n1 "$WORK/opt.err" | grep -q "evaluate a state file"; then
  pass "--demo --forward -> exit 2"
else
  fail "--demo --forward (exit $rc)"; cat "$WORK/opt.err"
fi

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
