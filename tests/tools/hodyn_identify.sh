#!/usr/bin/env bash
# ctest hodyn_identify: hodyn-identify end to end (issue 18 item 5,
# docs/identification.md). hodyn-demo flies the `mismatch` scenario (plant
# masses and inertias ±10 %) for a short log; hodyn-identify estimates the base
# parameters from it and compares them with that scenario's plant. The log
# is recorded at every control step (--record-every 1: 1 kHz, 30 000 rows)
# and identified with 0.2 s windows. Checked
# here, not copied from the tool: the wrist's Izz (a base parameter alone)
# is Table 3's 0.001 kg m² nominal and 0.0009 in the plant (depth 3: −10 %);
# every parameter whose plant value differs from the nominal by more than
# 5 % is estimated nearer the plant than the nominal; every nonzero base
# parameter within the given error (default 2 %, the issue's target) of the
# plant's, except the base's Iyy combination (measured 22 %: checked < 30 %,
# docs/identification.md); the estimate is physically consistent as it is;
# the total mass (4.2 kg in the plant) within 0.01 %; errors are
# recomputed from the printed values; bad logs give one line, exit 1, no stdout.
# Usage: hodyn_identify.sh <hodyn-identify> <hodyn-demo> [duration s] [max relative error]
set -uo pipefail

IDENTIFY=${1:?usage: hodyn_identify.sh <hodyn-identify> <hodyn-demo> [duration] [max error]}
DEMO=${2:?usage: hodyn_identify.sh <hodyn-identify> <hodyn-demo> [duration] [max error]}
DURATION=${3:-30}
MAX_ERROR=${4:-0.02}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

failures=0
pass() { echo "ok   $1"; }
fail() { echo "FAIL $1"; failures=$((failures + 1)); }

if ! "$DEMO" --scenario mismatch --duration "$DURATION" --record-every 1 --no-plots --out "$WORK/demo" >/dev/null; then
  echo "FAIL hodyn-demo --scenario mismatch"; exit 1
fi
LOG="$WORK/demo/closed_loop_mismatch.csv"
if "$IDENTIFY" --window 0.2 --truth mismatch "$LOG" >"$WORK/out.json" 2>"$WORK/err"; then
  pass "hodyn-identify --truth mismatch exits 0"
else
  fail "hodyn-identify exit $?: $(cat "$WORK/err")"; exit 1
fi

python3 - "$WORK/out.json" "$MAX_ERROR" <<'PY' || failures=$((failures + 1))
import json, sys
out = json.load(open(sys.argv[1]))
max_error = float(sys.argv[2])
bad = 0
def check(ok, what):
    global bad
    print(("ok   " if ok else "FAIL ") + what)
    bad += 0 if ok else 1
check(out["rank"] == 52, "rank 52 (10 + 6*7)")
wrist = [p for p in out["base_parameters"] if p["name"] == "body3.Izz"]
check(len(wrist) == 1 and abs(wrist[0]["nominal"] - 0.001) < 1e-12
      and abs(wrist[0]["reference"] - 0.0009) < 1e-12,
      "body3.Izz: nominal 0.001, plant 0.0009 (Table 3, depth 3 -10 %)")
total = [p for p in out["base_parameters"] if p["name"].startswith("body0.m + 1*body1.m")]
# Plant masses: base 2.5 kg +10 %, links 0.25 kg at depths 1, 2, 3: -10, +10, -10 %, two arms.
plant_mass = 2.5 * 1.1 + 2 * 0.25 * (0.9 + 1.1 + 0.9)
check(len(total) == 1 and abs(total[0]["reference"] - plant_mass) < 1e-12
      and abs(total[0]["estimate"] - plant_mass) < 1e-4 * plant_mass,
      "total mass: plant %.4g kg, estimated within 0.01 %%" % plant_mass)
worst, moved, nearer, weak = 0.0, 0, 0, None
for p in out["base_parameters"]:
    ref, est, nom = p["reference"], p["estimate"], p["nominal"]
    if p["relative_error"] is not None:
        if abs(p["relative_error"] - abs(est - ref) / abs(ref)) > 1e-6 * max(1.0, p["relative_error"]):
            check(False, "relative error of %s recomputed" % p["name"])
    if abs(ref) < 1e-9:
        continue
    err = abs(est - ref) / abs(ref)
    print("     %-60.60s plant %+.6g est %+.6g err %.3g%%" % (p["name"], ref, est, 100 * err))
    if p["name"].startswith("body0.Iyy"):
        weak = err
    else:
        worst = max(worst, err)
    if abs(ref - nom) > 0.05 * abs(ref):
        moved += 1
        nearer += abs(est - ref) < abs(nom - ref)
print("     well determined %d of %d, residual_relative %.3g"
      % (out["well_determined"], out["rank"], out["residual_relative"]))
check(out["consistent"], "the estimate is realised by a physically consistent pi as it is")
check(moved > 0 and nearer == moved, "%d of %d mismatched parameters estimated nearer the plant" % (nearer, moved))
check(worst <= max_error, "every nonzero base parameter but the base's Iyy combination within %.3g %% (worst %.3g %%)"
      % (100 * max_error, 100 * worst))
check(weak is not None and weak < 0.30, "the base's Iyy combination within 30 %% (%.3g %%)" % (100 * (weak or 0)))
sys.exit(1 if bad else 0)
PY

# Bad logs: one line on stderr, exit 1, nothing on stdout.
bad_log() {  # name, file
  "$IDENTIFY" "$2" >"$WORK/bad.out" 2>"$WORK/bad.err"
  local rc=$?
  if [ $rc -eq 1 ] && [ ! -s "$WORK/bad.out" ] && [ "$(wc -l <"$WORK/bad.err")" -eq 1 ]; then
    pass "$1: exit 1, one line: $(cat "$WORK/bad.err")"
  else
    fail "$1: exit $rc, $(wc -l <"$WORK/bad.err") lines, stdout $(wc -c <"$WORK/bad.out") bytes"
  fi
}
bad_log "missing file" "$WORK/none.csv"
head -c 0 "$LOG" >"$WORK/empty.csv"; bad_log "empty file" "$WORK/empty.csv"
python3 - "$LOG" "$WORK" <<'PY'
import sys
src, work = sys.argv[1], sys.argv[2]
lines = open(src).read().splitlines()
header = lines[0].split(",")
# no tau3 column
k = header.index("tau3")
open(work + "/nocol.csv", "w").write("\n".join(",".join(f for i, f in enumerate(l.split(",")) if i != k) for l in lines) + "\n")
# NaN in qd2 at row 5
rows = [l.split(",") for l in lines]
rows[5][header.index("qd2")] = "nan"
open(work + "/nan.csv", "w").write("\n".join(",".join(r) for r in rows) + "\n")
# a short row
open(work + "/short.csv", "w").write("\n".join(lines[:10] + [lines[10][:20]]) + "\n")
# the demo's columns before the identification ones only
k = header.index("qw")
open(work + "/old.csv", "w").write("\n".join(",".join(l.split(",")[:k]) for l in lines) + "\n")
# one sample
open(work + "/one.csv", "w").write("\n".join(lines[:2]) + "\n")
PY
bad_log "missing column tau3" "$WORK/nocol.csv"
bad_log "NaN in qd2" "$WORK/nan.csv"
bad_log "truncated row" "$WORK/short.csv"
bad_log "log without the identification columns" "$WORK/old.csv"
bad_log "one sample" "$WORK/one.csv"
# Usage errors: exit 2.
"$IDENTIFY" >/dev/null 2>&1; rc=$?; [ $rc -eq 2 ] && pass "no log: exit 2" || fail "no log: exit $rc"
"$IDENTIFY" --window -1 "$LOG" >/dev/null 2>&1; rc=$?
[ $rc -eq 2 ] && pass "--window -1: exit 2" || fail "--window -1: exit $rc"
"$IDENTIFY" --robot nope "$LOG" >/dev/null 2>&1; rc=$?
[ $rc -eq 2 ] && pass "--robot nope: exit 2" || fail "--robot nope: exit $rc"
"$IDENTIFY" --help >/dev/null 2>&1; rc=$?; [ $rc -eq 0 ] && pass "--help: exit 0" || fail "--help: exit $rc"

[ $failures -eq 0 ] && echo "all hodyn_identify checks pass" || echo "$failures failed"
exit $((failures > 0))
