#!/usr/bin/env bash
# ctest hil_*: hodyn-fc and hodyn-sim as two processes over a real link
# (docs/hil.md). hodyn-fc runs in the background, hodyn-sim in the
# foreground; both stop by themselves; their summary JSONs are checked.
# Usage: hil_pair.sh <hodyn-fc> <hodyn-sim>
#          <case: options|udp|pty|faults|realtime|robot_mismatch|bad_command|key_one_side|
#                 reference_every|wire_float32|octo_arm_udp|octo_arm_faults|cross_robot>
# robot_mismatch: hodyn-sim claims another robot id (--robot-id-override, a
# test hook); the HELLO handshake must refuse the run on both sides.
# octo_arm_*: both tools with --robot octo_arm (skipped, exit 77, when the
# tools are built without it). cross_robot: hodyn-sim --robot octo_arm
# against hodyn-fc --robot aerial_manipulator: both refuse (exit 3).
# bad_command: a relay (hil_command_mangler.py) between the two spoils one
# COMMAND (a NaN, other counts); hodyn-sim must stop with the plant's status.
# key_one_side: a --key-file on one side only; the pair must never start.
# reference_every: the udp case with a REFERENCE frame every 10th period
# (hodyn-sim --reference-every 10): hodyn-fc carries each one forward in
# between (docs/hil.md, "Reference rate"); the udp case's bounds.
# wire_float32: the udp case with binary32 values both ways (hodyn-sim
# --wire-float 32; hodyn-fc answers in the format it receives).
# robot_udp ROBOT: a NAME-fc / NAME-sim pair of hodyn_add_robot() for the one
# robot ROBOT (both list only it), lockstep over UDP, the udp case's bounds.
set -uo pipefail

FC=${1:?usage: hil_pair.sh <hodyn-fc> <hodyn-sim> <case>}
SIM=${2:?usage}
CASE=${3:?usage}
ROBOT=${4:-}
WORK=$(mktemp -d)
FC_PID=
cleanup() {
  [ -n "$FC_PID" ] && kill "$FC_PID" 2>/dev/null
  rm -rf "$WORK"
}
trap cleanup EXIT
PY=python3
[ -x /usr/bin/python3 ] && PY=/usr/bin/python3

# Two free UDP ports (bound and released here), below the kernel's
# ephemeral range (32768-60999 here): a released ephemeral port can be handed
# to any other process's socket before our programs bind it (seen in
# hil_process_faults.sh under load: "Address already in use"); below the
# range only an explicit bind takes one.
free_ports() { "$PY" "$(dirname "${BASH_SOURCE[0]}")/free_udp_ports.py" 2; }
read -r P1 P2 < <(free_ports)

FC_JSON=$WORK/fc.json
SIM_JSON=$WORK/sim.json
run_udp_pair() {  # extra fc args..., --, extra sim args...
  local fc_args=() sim_args=()
  while [ "$1" != "--" ]; do fc_args+=("$1"); shift; done
  shift
  sim_args=("$@")
  for attempt in 1 2 3; do
    "$FC" --udp "$P1:127.0.0.1:$P2" --idle-timeout 1 --summary-json "$FC_JSON" "${fc_args[@]}" \
      >"$WORK/fc.out" 2>&1 &
    FC_PID=$!
    sleep 0.2
    kill -0 "$FC_PID" 2>/dev/null && break
    echo "hodyn-fc did not start (attempt $attempt):"; cat "$WORK/fc.out"
    read -r P1 P2 < <(free_ports)
  done
  "$SIM" --udp "$P2:127.0.0.1:$P1" --summary-json "$SIM_JSON" "${sim_args[@]}" >"$WORK/sim.out" 2>&1
  SIM_RC=$?
  wait "$FC_PID"
  FC_RC=$?
  FC_PID=
}

case "$CASE" in
  options)
    # --help works, bad options and values give one line on stderr and exit 2.
    failures=0
    for exe in "$FC" "$SIM"; do
      "$exe" --help >"$WORK/h.out" 2>&1 && grep -q "usage:" "$WORK/h.out" ||
        { echo "FAIL $exe --help"; failures=$((failures + 1)); }
    done
    check_bad() {  # exe args...
      local exe=$1; shift
      "$exe" "$@" >"$WORK/b.out" 2>"$WORK/b.err"
      local rc=$?
      if [ "$rc" -eq 2 ] && [ "$(wc -l <"$WORK/b.err")" -eq 1 ]; then
        echo "ok   $(basename "$exe") rejects $*"
      else
        echo "FAIL $(basename "$exe") $* (exit $rc)"; cat "$WORK/b.err"; failures=$((failures + 1))
      fi
    }
    check_bad "$FC" --bogus
    check_bad "$FC" --udp 1:2
    check_bad "$FC" --watchdog-periods 0
    check_bad "$FC" --mode fast
    check_bad "$SIM" --bogus
    check_bad "$SIM" --rate 0
    check_bad "$SIM" --udp nonsense
    check_bad "$SIM" --drop 2
    check_bad "$SIM" --delay-ms 3:1
    check_bad "$SIM" --scenario bogus
    check_bad "$SIM" --robot-id-override xyz
    check_bad "$SIM" --robot-id-override 123456789
    check_bad "$FC" --robot bogus
    check_bad "$SIM" --robot bogus
    check_bad "$FC" --robot
    check_bad "$SIM" --robot
    # The rest of the flag families (docs/robustness.md): rates, real-time
    # options, the baud rate, faults, numbers that are not numbers.
    check_bad "$FC" --rate 50
    # inside 100..10000 but outside the plugin's rate_hz 500..4000: refused before the port opens
    check_bad "$FC" --rate 200 --udp "$P1:127.0.0.1:$P2"
    # --param NAME=VALUE: malformed, or refused by the plugin (an unknown
    # name, a value outside its range) before any frame is exchanged.
    check_bad "$FC" --param max_position_error
    check_bad "$FC" --param max_position_error=abc
    check_bad_param() {  # message-regex args...
      local regex=$1; shift
      check_bad "$FC" --udp "$P1:127.0.0.1:$P2" "$@"
      grep -q -- "$regex" "$WORK/b.err" ||
        { echo "FAIL hodyn-fc $*: expected '$regex'"; cat "$WORK/b.err"; failures=$((failures + 1)); }
    }
    check_bad_param "refused the --param values: invalid argument" --param no_such_parameter=1
    check_bad_param "refused the --param values: invalid argument" --param max_position_error=20
    check_bad "$FC" --idle-timeout abc
    check_bad "$FC" --max-steps -3
    check_bad "$FC" --baud 12345
    check_bad "$SIM" --baud 0
    check_bad "$FC" --fifo 100
    check_bad "$SIM" --cpu -1
    # Whole numbers within their integer's range (docs/robustness.md, gap 3):
    # a fraction or a value beyond the range is refused, not truncated.
    check_bad "$FC" --watchdog-periods 0.5
    check_bad "$FC" --max-steps 1e30
    check_bad "$FC" --cpu 1e20
    check_bad "$FC" --fifo 0
    check_bad "$FC" --baud 9600.7
    check_bad "$SIM" --seed 1e30
    check_bad "$SIM" --seed 1.5
    # A value that is itself an option (the file name forgotten) is refused,
    # not taken as the name (docs/robustness.md, gap 3).
    # (Before, `--summary-json --udp P` took "--udp" as the file and then
    # refused P as an unknown option: the message must name the real mistake.)
    check_bad_says() {  # message-regex exe args...
      local regex=$1; shift
      check_bad "$@"
      grep -q -- "$regex" "$WORK/b.err" ||
        { echo "FAIL $(basename "$1") $*: expected '$regex'"; cat "$WORK/b.err"; failures=$((failures + 1)); }
    }
    check_bad_says "needs a value, got the option '--udp'" "$FC" --summary-json --udp "$P1:127.0.0.1:$P2"
    check_bad_says "needs a value, got the option '--udp'" "$FC" --plugin --udp "$P1:127.0.0.1:$P2"
    check_bad_says "needs a value, got the option '--udp'" "$SIM" --record --udp "$P2:127.0.0.1:$P1"
    check_bad_says "needs a value, got the option '--udp'" "$FC" --key-file --udp "$P1:127.0.0.1:$P2"
    check_bad "$SIM" --plant-rate 1500
    check_bad "$SIM" --duration nan
    check_bad "$SIM" --settle -1
    check_bad "$SIM" --outage 3
    check_bad "$SIM" --delay-ms -1:2
    check_bad "$SIM" --corrupt inf
    # Process-fault options (docs/hil.md, "Process faults").
    check_bad "$SIM" --corrupt-burst 1:2
    check_bad "$SIM" --garbage 1:1:2
    check_bad "$SIM" --garbage -1:1:0.5
    check_bad "$SIM" --command-hold-ms 0
    check_bad_says "--safe-input needs hold or hover, got 'level'" "$SIM" --safe-input level
    check_bad_says "needs a value, got the option '--udp'" "$SIM" --trace --udp "$P2:127.0.0.1:$P1"
    check_bad_says "needs a value, got the option '--udp'" "$FC" --events --udp "$P1:127.0.0.1:$P2"
    check_bad "$SIM" --mode fast
    check_bad "$SIM" --udp 70000:127.0.0.1:1
    check_bad "$FC" --summary-json
    # Link choice and devices: exit 1, one line, before any link is opened.
    check_fails_to_start() {  # <words> exe args...
      local words=$1 exe=$2; shift 2
      "$exe" "$@" >"$WORK/b.out" 2>"$WORK/b.err"
      local rc=$?
      if [ "$rc" -eq 1 ] && [ "$(wc -l <"$WORK/b.err")" -eq 1 ] && grep -qF -- "$words" "$WORK/b.err"; then
        echo "ok   $(basename "$exe") $*: $(cat "$WORK/b.err")"
      else
        echo "FAIL $(basename "$exe") $* (exit $rc)"; cat "$WORK/b.err"; failures=$((failures + 1))
      fi
    }
    # No link or two links: a usage error, exit 2 (docs/robustness.md).
    for args in "$FC" "$SIM --udp 1:127.0.0.1:2 --serial-pty"; do
      # shellcheck disable=SC2086
      $args >"$WORK/b.out" 2>"$WORK/b.err"
      rc=$?
      if [ "$rc" -eq 2 ] && [ "$(wc -l <"$WORK/b.err")" -eq 1 ] &&
        grep -qF -- "give exactly one of --udp, --serial, --serial-pty" "$WORK/b.err"; then
        echo "ok   $(basename "${args%% *}") link choice: $(cat "$WORK/b.err")"
      else
        echo "FAIL link choice: $args (exit $rc)"; cat "$WORK/b.err"; failures=$((failures + 1))
      fi
    done
    check_fails_to_start "cannot open $WORK/no_such_tty" "$FC" --serial "$WORK/no_such_tty"
    check_fails_to_start "cannot load $WORK/no_such.so" "$FC" --udp 0:127.0.0.1:9 --plugin "$WORK/no_such.so"
    # --list-robots: only robot names, one a line, the default first; each
    # name is accepted by --robot (its --help runs).
    for exe in "$FC" "$SIM"; do
      if "$exe" --list-robots >"$WORK/l.out" 2>"$WORK/l.err" && [ ! -s "$WORK/l.err" ] &&
        [ "$(head -n 1 "$WORK/l.out")" = aerial_manipulator ] &&
        ! grep -qvE '^[a-z][a-z0-9_]*$' "$WORK/l.out"; then
        echo "ok   $(basename "$exe") --list-robots: $(tr '\n' ' ' <"$WORK/l.out")"
      else
        echo "FAIL $(basename "$exe") --list-robots"; cat "$WORK/l.out" "$WORK/l.err"
        failures=$((failures + 1))
      fi
      while read -r name; do
        "$exe" --robot "$name" --help >/dev/null 2>&1 ||
          { echo "FAIL $(basename "$exe") --robot $name --help"; failures=$((failures + 1)); }
      done <"$WORK/l.out"
    done
    cmp -s <("$FC" --list-robots) <("$SIM" --list-robots) ||
      { echo "FAIL hodyn-fc and hodyn-sim list different robots"; failures=$((failures + 1)); }
    exit "$failures" ;;
  udp)
    run_udp_pair -- --scenario nominal --duration 10 ;;
  pty)
    # hodyn-sim creates the pty pair and writes the slave path; hodyn-fc opens it.
    "$SIM" --serial-pty --pty-path-file "$WORK/pty" --baud 921600 --scenario nominal --duration 5 \
      --summary-json "$SIM_JSON" >"$WORK/sim.out" 2>&1 &
    SIM_PID=$!
    for _ in $(seq 100); do [ -s "$WORK/pty" ] && break; sleep 0.05; done
    "$FC" --serial "$(cat "$WORK/pty")" --baud 921600 --idle-timeout 1 \
      --summary-json "$FC_JSON" >"$WORK/fc.out" 2>&1
    FC_RC=$?
    wait "$SIM_PID"
    SIM_RC=$? ;;
  reference_every)
    run_udp_pair -- --scenario nominal --duration 5 --reference-every 10 ;;
  wire_float32)
    run_udp_pair -- --scenario nominal --duration 5 --wire-float 32 ;;
  faults)
    run_udp_pair -- --scenario nominal --duration 10 --seed 7 --drop 0.05 --delay-ms 1:3 \
      --corrupt 0.01 --outage 3:0.2 --duplicate 0.01 --reorder 0.01 ;;
  realtime)
    run_udp_pair --mode realtime -- --mode realtime --scenario nominal --duration 3 ;;
  robot_mismatch)
    run_udp_pair -- --scenario nominal --duration 2 --robot-id-override DEADBEEF ;;
  bad_command)
    # A COMMAND the link accepts but the plant cannot take (docs/robustness.md,
    # "The plant"): a relay between the two spoils the 20th one. hodyn-sim
    # stops the run with one line naming the status and exit 1; hodyn-fc
    # hears the end of the run and exits 0.
    failures=0
    for spoil in nan:non-finite counts:'invalid argument'; do
      read -r P1 P2 < <(free_ports)
      read -r R1 R2 < <(free_ports)
      "$PY" "$(dirname "$0")/hil_command_mangler.py" --fc-port "$P1" --sim-port "$P2" \
        --fc-side "$R1" --sim-side "$R2" --after 20 --spoil "${spoil%%:*}" >"$WORK/relay.out" 2>&1 &
      relay=$!
      sleep 0.2
      "$FC" --udp "$P1:127.0.0.1:$R1" --max-steps 20 --idle-timeout 5 >"$WORK/fc.out" 2>&1 &
      FC_PID=$!
      "$SIM" --udp "$P2:127.0.0.1:$R2" --scenario nominal --duration 0.1 >"$WORK/sim.out" 2>"$WORK/sim.err"
      SIM_RC=$?
      wait "$FC_PID"
      FC_RC=$?
      FC_PID=
      wait "$relay"
      relay_rc=$?
      if [ "$SIM_RC" -eq 1 ] && [ "$relay_rc" -eq 0 ] && [ "$(wc -l <"$WORK/sim.err")" -eq 1 ] &&
        grep -q "simulator error: ${spoil#*:}" "$WORK/sim.err" && [ "$FC_RC" -eq 0 ]; then
        echo "ok   ${spoil%%:*}: $(cat "$WORK/relay.out"); $(cat "$WORK/sim.err"); hodyn-fc exit 0"
      else
        echo "FAIL ${spoil%%:*}: hodyn-sim exit $SIM_RC, hodyn-fc exit $FC_RC, relay exit $relay_rc"
        cat "$WORK/relay.out" "$WORK/sim.err"; tail -n 5 "$WORK/sim.out" "$WORK/fc.out"
        failures=$((failures + 1))
      fi
    done
    exit "$failures" ;;
  key_one_side)
    # A --key-file on one side only (docs/robustness.md; docs/hil.md): the
    # pair never starts. hodyn-sim: "no HELLO answer …" and exit 1 (with the
    # key, a hint to give the same --key-file); hodyn-fc hears nothing it
    # accepts — every frame rejected as unsigned (key at hodyn-fc) or no key
    # (key at hodyn-sim), no HELLO, no command sent — and exits 0 when idle.
    failures=0
    (umask 077 && head -c 32 /dev/urandom >"$WORK/link.key")
    for side in fc:unsigned sim:no_key; do
      fc_key=() sim_key=()
      if [ "${side%%:*}" = fc ]; then fc_key=(--key-file "$WORK/link.key"); else sim_key=(--key-file "$WORK/link.key"); fi
      rm -f "$FC_JSON"
      run_udp_pair --idle-timeout 0.3 "${fc_key[@]}" -- --duration 0.5 --start-timeout 0.5 "${sim_key[@]}"
      if [ "$SIM_RC" -eq 1 ] && grep -q "no HELLO answer from the controller" "$WORK/sim.out" &&
        { [ "${side%%:*}" = fc ] || grep -qF "(is it given the same --key-file?)" "$WORK/sim.out"; } &&
        [ "$FC_RC" -eq 0 ] && "$PY" - "$FC_JSON" "${side#*:}" <<'PYEOF'; then
import json, sys
fc = json.load(open(sys.argv[1]))
reason = "rx_rejected_" + sys.argv[2]
assert fc["rx_rejected_total"] > 0 and fc[reason] == fc["rx_rejected_total"], fc
assert fc["rx_frames_ok"] == 0 and fc["hellos_received"] == 0 and fc["commands_sent"] == 0, fc
assert fc["handshake"] == "waiting", fc["handshake"]
print(f"{reason} {fc[reason]}", end="")
PYEOF
        echo " -> ok   key at ${side%%:*} only: $(grep "no HELLO" "$WORK/sim.out")"
      else
        echo "FAIL key at ${side%%:*} only: hodyn-sim exit $SIM_RC, hodyn-fc exit $FC_RC"
        cat "$WORK/sim.out"; tail -n 5 "$WORK/fc.out"
        failures=$((failures + 1))
      fi
    done
    exit "$failures" ;;
  robot_udp)
    for exe in "$FC" "$SIM"; do
      [ "$("$exe" --list-robots)" = "${ROBOT:?robot_udp needs the robot name}" ] ||
        { echo "FAIL: $(basename "$exe") --list-robots is not exactly '$ROBOT'"; exit 1; }
    done
    run_udp_pair --robot "$ROBOT" -- --robot "$ROBOT" --scenario nominal --duration 5 ;;
  octo_arm_udp | octo_arm_faults | cross_robot)
    for exe in "$FC" "$SIM"; do
      "$exe" --list-robots | grep -qx octo_arm ||
        { echo "SKIP: $(basename "$exe") is built without octo_arm"; exit 77; }
    done
    case "$CASE" in
      octo_arm_udp)
        run_udp_pair --robot octo_arm -- --robot octo_arm --scenario nominal --duration 10 ;;
      octo_arm_faults)
        if [ "${HODYN_HIL_UNOPTIMIZED:-0}" = 1 ]; then
          echo "SKIP: octo_arm_faults needs a controller that answers within a period;"
          echo "      this build's tools are unoptimized (-O0; tests/CMakeLists.txt)"
          exit 77
        fi
        # The faults case's mix with 0-1 ms delays instead of 1-3 ms: with 1-3 ms
        # octo_arm loses the reference (the first, elastic-wrist octo_arm
        # diverged; the rigid-wrist one tracks to 110 mm RMS, measured
        # 2026-11-26; docs/hil.md) — an open question of the law under delay.
        run_udp_pair --robot octo_arm -- --robot octo_arm --scenario nominal --duration 10 \
          --seed 7 --drop 0.05 --delay-ms 0:1 --corrupt 0.01 --outage 3:0.2 --duplicate 0.01 \
          --reorder 0.01 ;;
      cross_robot)
        run_udp_pair --robot aerial_manipulator -- --robot octo_arm --scenario nominal \
          --duration 2 ;;
    esac ;;
  *) echo "unknown case $CASE"; exit 2 ;;
esac

echo "---- hodyn-sim (exit $SIM_RC)"; cat "$WORK/sim.out"
echo "---- hodyn-fc (exit $FC_RC)"; cat "$WORK/fc.out"
if [ "$CASE" = robot_mismatch ] || [ "$CASE" = cross_robot ]; then
  # Both refuse: exit status 3 (robot mismatch) and say so on stderr.
  [ "$SIM_RC" -eq 3 ] && [ "$FC_RC" -eq 3 ] ||
    { echo "FAIL: exit codes $SIM_RC / $FC_RC (expected 3 / 3)"; exit 1; }
  grep -q "hodyn-sim: robot mismatch" "$WORK/sim.out" && grep -q "hodyn-fc: robot mismatch" "$WORK/fc.out" ||
    { echo "FAIL: no 'robot mismatch' message"; exit 1; }
else
  [ "$SIM_RC" -eq 0 ] && [ "$FC_RC" -eq 0 ] || { echo "FAIL: exit codes $SIM_RC / $FC_RC"; exit 1; }
fi

"$PY" - "$CASE" "$SIM_JSON" "$FC_JSON" <<'PYEOF'
import json, math, sys
case, sim, fc = sys.argv[1], json.load(open(sys.argv[2])), json.load(open(sys.argv[3]))
deg = math.pi / 180
def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond: check.failed = True
check.failed = False
if case == "robot_mismatch":
    check(sim["handshake"] == "robot mismatch" and fc["handshake"] == "robot mismatch",
          "both sides report the robot mismatch")
    check(sim["controller_verdict"] == "robot mismatch", "the controller's HELLO answer says so too")
    check(fc["peer_robot_id"] == 0xDEADBEEF and sim["robot_id"] == 0xDEADBEEF, "the claimed id arrived")
    check(sim["controller_robot_id"] == fc["robot_id"] != 0xDEADBEEF, "the controller named its own robot")
    check(fc["hello_answers_sent"] >= 1 and sim["hellos_received"] >= 1, "the HELLO was answered")
    check(fc["control_commands_sent"] == 0 and fc["steps"] == 0, "the plugin never ran, no tracking command")
    check(sim["sensor_frames"] == 0 and sim["commands_received"] == 0 and sim["periods"] == 0,
          "no sensor frame sent, no command received, no period simulated")
    sys.exit(1 if check.failed else 0)
if case == "cross_robot":
    # hodyn-sim flies octo_arm, hodyn-fc the 12-DoF robot's plugin: each names its own.
    check(sim["handshake"] == "robot mismatch" and fc["handshake"] == "robot mismatch",
          "both sides report the robot mismatch")
    check(sim["controller_verdict"] == "robot mismatch", "the controller's HELLO answer says so too")
    check(fc["peer_robot_id"] == sim["robot_id"] and sim["controller_robot_id"] == fc["robot_id"],
          "each side got the other's robot id")
    check(sim["robot_id"] != fc["robot_id"], "the two robot ids differ")
    check(fc["hello_answers_sent"] >= 1 and sim["hellos_received"] >= 1, "the HELLO was answered")
    check(fc["control_commands_sent"] == 0 and fc["steps"] == 0, "the plugin never ran, no tracking command")
    check(sim["sensor_frames"] == 0 and sim["commands_received"] == 0 and sim["periods"] == 0,
          "no sensor frame sent, no command received, no period simulated")
    sys.exit(1 if check.failed else 0)
# Every other case: the handshake agreed.
check(sim["handshake"] == "agreed" and fc["handshake"] == "agreed", "HELLO handshake agreed")
check(fc["refused_sensor_frames"] == 0, "no sensor frame refused by the handshake")
check(sim["robot_id"] == fc["robot_id"] == fc["peer_robot_id"] == sim["controller_robot_id"],
      "both sides name the same robot")
t = sim["tracking"]
# Joint errors: the _rad list holds the revolute joints (null for a prismatic
# one), the _m list (only with a prismatic joint) the prismatic ones.
revolute = [e for e in t["joint_error_rms_rad"] if e is not None]
prismatic = [e for e in t.get("joint_error_rms_m", []) if e is not None]
pos, att = t["base_position_error_rms_m"], t["attitude_error_rms_rad"]
joints, slide = max(revolute, default=0.0), max(prismatic, default=0.0)
print(f"tracking: position RMS {pos*1e3:.4f} mm, attitude RMS {att/deg:.5f} deg, worst joint RMS {joints/deg:.5f} deg"
      + (f", worst prismatic joint RMS {slide*1e3:.4f} mm" if prismatic else ""))
if case == "octo_arm_udp":
    check(len(t["joint_error_rms_rad"]) == 4 and len(prismatic) == 1, "octo_arm: 4 joints, one prismatic")
    check(fc["robot_id"] != 0 and sim["robot_id"] == fc["robot_id"], "octo_arm's robot id on both sides")
    case = "udp"  # the same checks as the 12-DoF robot's lockstep run
    check(slide <= 1e-3, "prismatic joint RMS <= 1 mm")
if case == "robot_udp":
    check(fc["robot_id"] != 0 and sim["robot_id"] == fc["robot_id"], "the robot's id on both sides")
    check(slide <= 1e-3, "prismatic joints RMS <= 1 mm")
    case = "udp"
if case == "octo_arm_faults":
    # Measured (seed 7): position RMS 0.33 mm, worst revolute joint 1.4 deg,
    # prismatic 0.19 mm (three runs within 0.5 %); the bounds leave 4-15x for the
    # wall-clock watchdog's
    # run-to-run spread (the 12-DoF case varies 1.9-2.9 mm).
    check(pos <= 0.005, "octo_arm: position RMS <= 5 mm")
    check(joints <= 5 * deg and slide <= 0.003, "octo_arm: revolute joints RMS <= 5 deg, prismatic <= 3 mm")
    case = "faults"
if case == "wire_float32":
    check(sim["wire_float"] == 32, "binary32 values (--wire-float 32) in the summary")
    check(sim["commands_applied"] == sim["periods"], "every command (binary32 too) applied")
    case = "udp"
if case == "reference_every":
    # Period 0 and every 10th after it (more only after a period without a command).
    periods = sim["periods"]
    check(sim["reference_every"] == 10, "--reference-every 10 in the summary")
    check(periods // 10 <= sim["reference_frames"] <= periods // 10 + 1 + sim["missed_commands"],
          f"a REFERENCE frame every 10th period ({sim['reference_frames']} for {periods} periods)")
    # (>=: period 0's frames are resent until answered.)
    check(fc["reference_frames_received"] >= sim["reference_frames"], "every REFERENCE frame arrived")
    check(fc["updates_with_extrapolated_reference"] + fc["reference_frames_received"] >= fc["steps"],
          f"every other update carried a reference forward "
          f"({fc['updates_with_extrapolated_reference']} of {fc['steps']})")
    check(fc["updates_without_matching_reference"] <= fc["watchdog_commands"],
          "no control update without a reference (stale only in the watchdog's)")
    case = "udp"
if case in ("udp", "pty"):
    check(pos <= 1e-3, "position RMS <= 1 mm")
    check(att <= 0.05 * deg, "attitude RMS <= 0.05 deg")
    check(joints <= 0.05 * deg, "joints RMS <= 0.05 deg")
    # No fault: the watchdog may engage only where the simulator itself was
    # silent >= 15 ms (the OS holding it up on a busy machine; the lockstep
    # watchdog is 20 periods of 1 ms wall time: docs/hil.md, "The flake").
    check(fc["watchdog_engagements"] <= sim["send_silences"],
          f"watchdog only in a silence of the simulator ({fc['watchdog_engagements']} engagements, "
          f"{sim['send_silences']} silences >= 15 ms, longest {sim['send_gap_max_s'] * 1e3:.1f} ms)")
    check(sim["missed_commands"] == 0 and sim["command_timeouts"] == 0, "every period got its command")
    check(fc["rx_rejected_total"] == 0 and sim["rx_rejected_total"] == 0, "no rejected frames")
    check(fc["steps"] == sim["periods"], "one controller update per period")
if case == "faults":
    check(pos <= 0.03, "position RMS <= 3 cm")
    # Every corrupted copy that reached a parser is rejected (copies still
    # delayed in an injector when the run ends never reach one).
    for direction, corrupted, released, rejected in (
            ("sim->fc", sim["tx_injector_corrupted"], sim["tx_corrupted_released"], fc["rx_rejected_total"]),
            ("fc->sim", sim["rx_injector_corrupted"], sim["rx_corrupted_released"], sim["rx_rejected_total"])):
        check(released > 0 and released == rejected and corrupted - released <= 3,
              f"{direction}: every corrupted frame rejected ({corrupted} corrupted, {released} delivered, "
              f"{rejected} rejected)")
    check(fc["watchdog_engagements"] >= 1, "watchdog engaged")
    check(fc["watchdog_recoveries"] == fc["watchdog_engagements"], "watchdog recovered")
    check(sim["outage_periods"] == 200, "200 outage periods")
    check(sim["tx_injector_dropped"] > 0 and sim["tx_injector_duplicated"] > 0 and
          sim["tx_injector_reordered"] > 0 and sim["tx_injector_outage_lost"] > 0, "every fault happened")
    check(fc["sensor_duplicates"] > 0 and fc["sensor_out_of_order"] > 0 and fc["sensor_gaps"] > 0,
          "the receiver saw duplicates, reordering and gaps")
if case == "realtime":
    check(abs(sim["loop_iterations"] - 3000) <= 300, f"sim loop ran {sim['loop_iterations']} periods (3000 +- 10 %)")
    check(sim["periods"] == 3000, "3000 simulated periods")
    check("loop_period_p99_s" in sim and "loop_period_p99_s" in fc, "jitter statistics in both summaries")
    check(pos < 0.05, "stays on the reference (position RMS < 5 cm)")
sys.exit(1 if check.failed else 0)
PYEOF
