#!/usr/bin/env bash
# ctest firmware_hil_<board>: the controller firmware under QEMU against the
# native hodyn-sim, lockstep, over a pseudo-terminal (docs/firmware.md,
# "Firmware HIL"):
#
#   hodyn-sim --serial /dev/pts/N ── pty ── qemu -serial pty ── CMSDK UART0 ── firmware
#
# QEMU runs with -icount shift=0 (one instruction = 1 ns of virtual time), so
# the firmware's SysTick cycles around update() convert to instructions
# (core clock 25 MHz: 40 instructions per cycle). Checks the tracking, the
# link and the firmware's own summary ("FC key=value" lines on semihosting),
# and writes the measured figures to --out (JSON) for firmware_budget.py.
#
# --robot NAME: the robot the image is built for (default aerial_manipulator);
# hodyn-sim flies the same robot (--robot NAME), and the firmware's summary
# must name it. A prismatic joint's error is in metres (hodyn-sim's
# joint_error_rms_m; null in joint_error_rms_rad) and gets the closed-loop
# target's bound, 0.087 mm (0.05 deg at a 0.1 m lever, tests/closed_loop).
#
# --key-file FILE: a signed run (docs/link-security.md): the image must be
# provisioned with the same key (provision_link_key.sh); hodyn-sim gets the
# file, and the firmware must report a signed link with nothing rejected.
# --state-dir DIR: QEMU's working directory, where the firmware keeps its boot
# counter (hodyn-fc-boot-counter.bin, through semihosting) from run to run
# (default: a new temporary directory). Both write the link's own cost per
# step (parse, checks, MAC, encode; not the UART, not update()) to --out.
#
# Usage: firmware_hil.sh --qemu Q --machine M --image IMAGE.elf --sim HODYN_SIM
#          --python PY --duration S --rate HZ --precision DOUBLE|FLOAT
#          [--robot NAME] [--key-file FILE] [--state-dir DIR] [--reference-every N]
#          [--wire-float 64|32] --out OUT.json
# --reference-every N: hodyn-sim sends a REFERENCE frame every N-th period
# (default 1); the firmware must carry it forward in between, never stale.
# --wire-float 32: binary32 values both ways (hodyn-sim --wire-float; default 64).
# --scenario S: hodyn-sim's scenario (default nominal); --payload-estimation 1:
# the image must say it estimates the payload (FC payload_estimation=1; the
# hodyn_fc_payload_<board> images, docs/payload-estimation.md), and the
# tracking bounds below then hold with the plant's unknown payload.
set -uo pipefail

QEMU=qemu-system-arm MACHINE= IMAGE= SIM= PY=python3 DURATION=1 RATE=1000 PRECISION=DOUBLE OUT=
ROBOT=aerial_manipulator KEY_FILE= STATE_DIR= REFERENCE_EVERY=1 WIRE_FLOAT=64
SCENARIO=nominal PAYLOAD_ESTIMATION=0 SETTLE=0.1 TRACKING_SCALE=1
while [[ $# -gt 0 ]]; do
  case "$1" in
    --qemu) QEMU=$2 ;;
    --machine) MACHINE=$2 ;;
    --image) IMAGE=$2 ;;
    --sim) SIM=$2 ;;
    --python) PY=$2 ;;
    --duration) DURATION=$2 ;;
    --rate) RATE=$2 ;;
    --precision) PRECISION=$2 ;;
    --robot) ROBOT=$2 ;;
    --key-file) KEY_FILE=$2 ;;
    --state-dir) STATE_DIR=$2 ;;
    --reference-every) REFERENCE_EVERY=$2 ;;
    --wire-float) WIRE_FLOAT=$2 ;;
    --scenario) SCENARIO=$2 ;;
    --payload-estimation) PAYLOAD_ESTIMATION=$2 ;;
    --settle) SETTLE=$2 ;;
    --tracking-scale) TRACKING_SCALE=$2 ;;
    --out) OUT=$2 ;;
    *) echo "firmware_hil.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift 2
done
[[ -n $MACHINE && -n $IMAGE && -n $SIM && -n $OUT ]] || { echo "firmware_hil.sh: missing options" >&2; exit 2; }
if [[ ! -x $SIM ]]; then
  echo "FAIL: the native hodyn-sim is not at $SIM."
  echo "      Build it first (cmake --preset test && cmake --build build/test --target hodyn-sim),"
  echo "      or point the firmware build at one: -DHODYN_HOST_HIL_SIM=/path/to/hodyn-sim."
  exit 1
fi
[[ -f $IMAGE ]] || { echo "FAIL: no firmware image $IMAGE"; exit 1; }
IMAGE=$(realpath "$IMAGE")  # QEMU runs in STATE_DIR
if ! "$SIM" --list-robots | grep -qx -- "$ROBOT"; then
  echo "FAIL: the native hodyn-sim at $SIM does not fly $ROBOT (its --list-robots:" \
    "$("$SIM" --list-robots 2>&1 | tr '\n' ' '))"
  exit 1
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/hodyn-fw-hil.XXXXXX")
[[ -n $STATE_DIR ]] || STATE_DIR=$WORK/state
mkdir -p "$STATE_DIR"
SIM_KEY=()
[[ -n $KEY_FILE ]] && SIM_KEY=(--key-file "$KEY_FILE")
SIM_PID= QEMU_PID= HOLDER_PID=
cleanup() {
  [[ -n $HOLDER_PID ]] && kill "$HOLDER_PID" 2>/dev/null
  [[ -n $QEMU_PID ]] && kill "$QEMU_PID" 2>/dev/null
  [[ -n $SIM_PID ]] && kill "$SIM_PID" 2>/dev/null
  rm -rf "$WORK"
}
trap cleanup EXIT

start_ns=$(date +%s%N)
# QEMU creates the pty pair (-serial pty) and prints the slave's path; the
# simulator opens the slave. (The other way round, the simulator's exit would
# hang up the pty before QEMU read its end-of-run frames.)
# (In STATE_DIR: the firmware's semihosting files, its boot counter, are there.)
(cd "$STATE_DIR" && exec "$QEMU" -M "$MACHINE" -display none -monitor none -serial pty \
  -semihosting-config enable=on,target=native -icount shift=0 \
  -kernel "$IMAGE" </dev/null >"$WORK/qemu.out" 2>&1) &
QEMU_PID=$!
PTY=
for _ in $(seq 200); do
  PTY=$(grep -o '/dev/pts/[0-9]*' "$WORK/qemu.out" | head -1)
  [[ -n $PTY ]] && break
  sleep 0.05
done
[[ -n $PTY ]] || { echo "FAIL: QEMU did not create its pty"; cat "$WORK/qemu.out"; exit 1; }

# Hold the slave open for the whole run (never reading it): QEMU's pty backend
# notices a connected slave only by polling (about once a second) and drops
# what it would send before; and the simulator's exit then does not hang up
# the pty before QEMU has read the end-of-run frames.
"$PY" -c 'import os, sys, time
fd = os.open(sys.argv[1], os.O_RDWR | os.O_NOCTTY)
while True: time.sleep(3600)' "$PTY" &
HOLDER_PID=$!
sleep 1.5

# The simulator waits (--start-timeout) for the firmware's answer to period 0;
# each period it waits up to --command-timeout-ms for the COMMAND (QEMU's UART
# is slow: docs/firmware.md, "Firmware HIL").
"$SIM" --serial "$PTY" --robot "$ROBOT" --scenario "$SCENARIO" --duration "$DURATION" --settle "$SETTLE" \
  --rate "$RATE" --reference-every "$REFERENCE_EVERY" --wire-float "$WIRE_FLOAT" \
  --start-timeout 120 --command-timeout-ms 10000 "${SIM_KEY[@]}" \
  --summary-json "$WORK/sim.json" >"$WORK/sim.out" 2>&1 &
SIM_PID=$!

wait "$SIM_PID"
SIM_RC=$?
SIM_PID=
# The firmware ends on the simulator's end-of-run frame (or 5 s of silence).
for _ in $(seq 300); do kill -0 "$QEMU_PID" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$QEMU_PID" 2>/dev/null; then
  echo "firmware did not end within 30 s after hodyn-sim: killing QEMU"
  kill "$QEMU_PID"
fi
wait "$QEMU_PID"
QEMU_RC=$?
QEMU_PID=
end_ns=$(date +%s%N)
WALL_MS=$(((end_ns - start_ns) / 1000000))

echo "---- hodyn-sim (exit $SIM_RC)"; cat "$WORK/sim.out"
echo "---- firmware under $MACHINE (QEMU exit $QEMU_RC)"; cat "$WORK/qemu.out"
echo "---- wall time $((WALL_MS / 1000)).$(printf %03d $((WALL_MS % 1000))) s"
[[ $SIM_RC -eq 0 && $QEMU_RC -eq 0 ]] || { echo "FAIL: exit codes hodyn-sim $SIM_RC, QEMU $QEMU_RC"; exit 1; }

"$PY" - "$WORK/sim.json" "$WORK/qemu.out" "$OUT" "$WALL_MS" "$PRECISION" "$DURATION" "$RATE" \
  "$ROBOT" "$REFERENCE_EVERY" "${KEY_FILE:+signed}" "$SCENARIO" "$PAYLOAD_ESTIMATION" \
  "$TRACKING_SCALE" <<'PYEOF'
import json, math, re, sys
(sim_path, fw_path, out_path, wall_ms, precision, duration, rate, robot, reference_every,
 signed, scenario, payload_estimation, tracking_scale) = sys.argv[1:]
payload_estimation = payload_estimation == "1"
reference_every = int(reference_every)
signed = signed == "signed"
sim = json.load(open(sim_path))
fw = {}
for line in open(fw_path, errors="replace"):
    m = re.match(r"FC (\w+)=(.*)$", line.strip())
    if m:
        v = m.group(2)
        fw[m.group(1)] = int(v) if re.fullmatch(r"\d+", v) else v
failed = []
def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond: failed.append(what)
check("steps" in fw, "the firmware printed its summary")
if "steps" not in fw:
    sys.exit(1)
t = sim["tracking"]
deg = math.pi / 180
# Revolute joints in rad (null for a prismatic joint), prismatic ones in m
# (joint_error_rms_m, present only when the robot has one).
revolute = [e for e in t["joint_error_rms_rad"] if e is not None]
prismatic = [e for e in t.get("joint_error_rms_m", []) if e is not None]
pos, att = t["base_position_error_rms_m"], t["attitude_error_rms_rad"]
joints, slide = max(revolute, default=0.0), max(prismatic, default=0.0)
print(f"tracking ({robot}): position RMS {pos*1e3:.4f} mm, attitude RMS {att/deg:.5f} deg, "
      f"worst revolute joint RMS {joints/deg:.5f} deg"
      + (f", worst prismatic joint RMS {slide*1e3:.5f} mm" if prismatic else "")
      + f" over {sim['periods']} periods")
check(fw.get("robot") == robot, f"the firmware flies {robot} (it says {fw.get('robot')})")
check((fw.get("payload_estimation") == 1) == payload_estimation,
      f"payload estimation {'on' if payload_estimation else 'off'} in the firmware "
      f"(scenario {scenario})")
check(fw.get("handshake") == "agreed" and fw.get("peer_robot_id") == fw.get("robot_id"),
      "the handshake agreed on the robot id")
link = "signed" if signed else "unsigned"
check(fw.get("link_security") == link and sim.get("link_security") == link,
      f"a {link} link on both sides (firmware: {fw.get('link_security')}, "
      f"boot counter {fw.get('boot_counter')}, sessions {fw.get('sessions')})")
if signed:
    check(fw.get("boot_counter", 0) >= 1 and fw.get("sessions") == 1,
          "the firmware's boot counter keyed one session")
check(all(fw.get(k, 0) == 0 for k in ("rx_rejected_mac", "rx_rejected_replay",
                                      "rx_rejected_unsigned", "rx_rejected_no_key")) and
      sim.get("rx_rejected_foreign", 0) == 0, "no MAC, replay, unsigned or no-key rejection")
check(len(revolute) + len(prismatic) == len(t["joint_error_rms_rad"]),
      "every joint's error reported, in rad or in m")
# The desktop lockstep pair asserts 1 mm / 0.05 deg (tests/tools/hil_pair.sh);
# the float controller gets 2 mm / 0.1 deg. A prismatic joint: 0.087 mm, the
# closed-loop target (0.05 deg at a 0.1 m lever), doubled in float.
scale = (2.0 if precision.upper() == "FLOAT" else 1.0) * float(tracking_scale)
check(pos <= 1e-3 * scale, f"position RMS <= {scale:g} mm")
check(att <= 0.05 * deg * scale, f"attitude RMS <= {0.05*scale:g} deg")
check(joints <= 0.05 * deg * scale, f"revolute joints RMS <= {0.05*scale:g} deg")
if prismatic:
    check(slide <= 0.087e-3 * scale, f"prismatic joints RMS <= {0.087*scale:g} mm")
check(sim["periods"] == round(float(duration) * float(rate)), "every period simulated")
check(fw["steps"] == sim["periods"], f"one firmware update per period ({fw['steps']} for {sim['periods']})")
check(sim["missed_commands"] == 0 and sim["command_timeouts"] == 0, "every period got its command")
check(sim["rx_rejected_total"] == 0 and fw["rx_rejected_total"] == 0, "no rejected frames either way")
check(fw["uart_overruns"] == 0, "no UART receive overruns")
# The firmware's watchdog counts control periods of line silence in virtual
# time, which under -icount runs at QEMU's speed while the firmware polls: a
# host stall of a few hundred ms (the simulator descheduled on a loaded
# machine) is an outage for it. Allowed, as long as it recovered and the
# safe commands were the watchdog's (not the plugin refusing frames).
print(f"watchdog: {fw['watchdog_engagements']} engagements, {fw['watchdog_recoveries']} recoveries, "
      f"{fw['watchdog_commands']} safe commands")
check(fw["watchdog_recoveries"] == fw["watchdog_engagements"], "the watchdog released after every engagement")
check(fw["plugin_rejected_frames"] == 0 and fw["safe_mode_commands"] == fw["watchdog_commands"],
      "no frame refused by the plugin, safe commands only from the watchdog")
check(fw["end"] == "end-of-run frame", "the firmware ended on the end-of-run frame")
# REFERENCE frames: one per period, or one every --reference-every periods
# (and after a period without a command); between them the firmware carries
# the newest one forward. Stale references only in the watchdog's updates.
extrapolated = fw.get("updates_with_extrapolated_reference", 0)
print(f"references: every {reference_every} periods, {sim['reference_frames']} sent, "
      f"{fw['reference_frames_received']} received; {extrapolated} updates with one carried "
      f"forward, {fw['updates_without_matching_reference']} stale")
check(fw["updates_without_matching_reference"] <= fw["watchdog_commands"],
      "every control update had its reference (its own or one carried forward)")
if reference_every > 1:
    check(sim["reference_frames"] <= sim["periods"] // reference_every + 1 +
          sim["missed_commands"] + sim["command_timeouts"],
          f"a REFERENCE frame only every {reference_every} periods")
    check(extrapolated > 0, "the firmware carried the references forward in between")
# Instructions: -icount shift=0 makes 1 instruction = 1 ns; SysTick counts the
# 25 MHz core clock, so one cycle is 1e9 / clock instructions.
per_cycle = 1e9 / fw["core_clock_hz"]
n = fw["update_count"]
expected = 2 * (fw["calibration_long_iterations"] - fw["calibration_short_iterations"])
measured = (fw["calibration_long_cycles"] - fw["calibration_short_cycles"]) * per_cycle
cal = {"expected_instructions": expected, "measured_instructions": measured,
       "ratio": measured / expected, "instructions_per_cycle": per_cycle,
       "long_loop_expected": 2 * fw["calibration_long_iterations"],
       "long_loop_measured": fw["calibration_long_cycles"] * per_cycle}
print(f"calibration: {expected} instructions (loop difference) measured as {measured:.0f} "
      f"(ratio {measured/expected:.5f}); long loop {cal['long_loop_expected']} -> {cal['long_loop_measured']:.0f}")
check(abs(cal["ratio"] - 1) <= 0.01, "calibration within 1 %")
# Motor outputs (boards that have them, the STM32F405): every COMMAND went to
# them, and what the hardware holds now (its compare registers, read back by
# the firmware) is the last command's speeds through the ESC mapping
# 1000 us + 1000 us * w / w_full, clamped to [1000, 2000] (stop for w <= 0
# and for the outputs past the robot's rotors).
motor = None
if "motor_channels" in fw:
    full = fw["motor_full_scale_mrad_s"] / 1000.0
    rotors = fw["motor_last_rotors"]
    expected, held, speeds = [], [], []
    for i in range(fw["motor_channels"]):
        w = fw.get(f"motor_speed_mrad_s_{i}", 0) / 1000.0 if i < rotors else 0.0
        e = 1000 if w <= 0 else 2000 if w >= full else 1000 + round(1000 * w / full)
        expected.append(e)
        held.append(fw[f"motor_output_us_{i}"])
        speeds.append(w)
    print("motor outputs: last command " + ", ".join(f"{w:.1f}" for w in speeds) +
          f" rad/s -> compare registers {held} us (expected {expected})")
    check(fw["motor_commands"] == fw["commands_sent"],
          f"every COMMAND went to the motor outputs ({fw['motor_commands']} of {fw['commands_sent']})")
    check(0 < rotors <= fw["motor_channels"], f"the last command drove {rotors} rotors")
    check(all(abs(h - e) <= 1 for h, e in zip(held, expected)),
          "compare registers = 1000 + 1000 w / w_full us (+-1) for the last command")
    check(any(1000 < h < 2000 for h in held[:rotors]), "the rotors run between stop and full scale")
    motor = {"commands": fw["motor_commands"], "last_speeds_rad_s": speeds,
             "compare_us": held, "expected_us": expected}
steps = fw["steps"] or 1
period_parts = {
    "update": fw["update_cycles_sum"] / steps * per_cycle,
    "link": fw["link_cycles_sum"] / steps * per_cycle,
    "send": fw.get("send_cycles_sum", 0) / steps * per_cycle,
    "uart_interrupt": fw.get("uart_interrupt_cycles_sum", 0) / steps * per_cycle,
    "motor_outputs": fw.get("motor_cycles_sum", 0) / steps * per_cycle,
}
period = sum(period_parts.values())
entries = fw.get("uart_interrupt_entries", 0)
result = {
    "motor_outputs": motor,
    # The whole control period's work per step: update(), the link's parse/
    # checks/encode, the UART driver's send, its interrupt handler (receive
    # and transmit), the motor outputs. The interrupt cycles are counted
    # inside the other parts too when they preempt them (an upper bound).
    "period_instructions_per_step_mean": period,
    "period_instructions_parts": period_parts,
    "uart_interrupt_entries_per_step": entries / steps,
    "uart_interrupt_instructions_per_entry":
        fw.get("uart_interrupt_cycles_sum", 0) * per_cycle / entries if entries else None,
    "cpu_load_at_rate_cpi_1": period * float(rate) / fw["core_clock_hz"],
    "cpu_load_at_rate_cpi_1_25": 1.25 * period * float(rate) / fw["core_clock_hz"],
    "plugin": fw.get("plugin"), "board": fw.get("board"), "precision": precision.lower(),
    "robot": robot, "scenario": scenario, "payload_estimation": payload_estimation,
    "reference_every": reference_every, "reference_frames_sent": sim["reference_frames"],
    "wire_float": sim["wire_float"],
    "hil_steps": fw["steps"], "hil_periods": sim["periods"], "hil_rate_hz": float(rate),
    "hil_position_rms_m": pos, "hil_attitude_rms_rad": att, "hil_worst_joint_rms_rad": joints,
    "hil_worst_prismatic_rms_m": slide if prismatic else None,
    "hil_wall_s": int(wall_ms) / 1000.0,
    "instructions_per_step_mean": fw["update_cycles_sum"] / n * per_cycle if n else None,
    # The link's own cost per controller step, besides update(): receiving
    # (parse, CRC, MAC and replay checks), encoding and signing the COMMAND.
    "link_security": fw.get("link_security"),
    "link_instructions_per_step_mean":
        fw["link_cycles_sum"] / fw["steps"] * per_cycle if fw.get("steps") else None,
    "instructions_per_step_min": fw["update_cycles_min"] * per_cycle,
    "instructions_per_step_max": fw["update_cycles_max"] * per_cycle,
    "calibration": cal,
    "stack_update_measured_bytes": fw["stack_high_water"] - fw["stack_depth_at_update_call"],
    "stack_high_water_bytes": fw["stack_high_water"],
    "stack_startup_high_water_bytes": fw.get("stack_startup_high_water"),
    "stack_region_bytes": fw["stack_size"],
    "firmware": fw,
}
print(f"link ({link}): {result['link_instructions_per_step_mean']:.0f} instructions per step "
      "besides update() (parse, checks, MAC, encode)")
print(f"instructions per step: mean {result['instructions_per_step_mean']:.0f}, "
      f"min {result['instructions_per_step_min']:.0f}, max {result['instructions_per_step_max']:.0f}; "
      f"stack below the update() call {result['stack_update_measured_bytes']} B "
      f"(high water {fw['stack_high_water']} of {fw['stack_size']} B; start-up "
      f"{fw.get('stack_startup_high_water')} B); wall {result['hil_wall_s']:.1f} s")
if entries:
    print("period: " + ", ".join(f"{k} {v:.0f}" for k, v in period_parts.items()) +
          f" = {period:.0f} instructions per step; UART interrupt {entries / steps:.0f} entries "
          f"of {result['uart_interrupt_instructions_per_entry']:.1f} instructions per step; "
          f"CPU load at {float(rate):g} Hz and {fw['core_clock_hz'] / 1e6:g} MHz: "
          f"{100 * result['cpu_load_at_rate_cpi_1']:.1f} % (1 cycle per instruction), "
          f"{100 * result['cpu_load_at_rate_cpi_1_25']:.1f} % (1.25)")
json.dump(result, open(out_path, "w"), indent=2, sort_keys=True)
sys.exit(1 if failed else 0)
PYEOF
