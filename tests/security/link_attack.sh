#!/usr/bin/env bash
# ctest security_link_attack (labels security, hil): a third process on the
# loopback attacks a signed lockstep HIL run (docs/link-security.md).
#
#   hodyn-sim <-> link_attacker.py (relays, and attacks) <-> hodyn-fc
#
# 1. clean:  a signed run through the relay, which records every datagram.
# 2. attack: the same run while the relay injects, at the controller and at the
#    simulator: replays of this session's frames, frames of run 1 (another
#    session), forgeries signed with a wrong key, unsigned copies, garbage, and
#    copies sent from another address or port. The plant's trajectory and every
#    COMMAND (--record) must equal run 1's bit for bit, and each end's rejection
#    counters must equal exactly what the relay sent it (>= 10 000 frames in all).
# 3. replay: run 1's whole session, every datagram the simulator sent, replayed
#    from the controller's peer address to a newly started hodyn-fc: it must not
#    arm (no update, no tracking command), every session frame failing its MAC.
# The key's bytes must appear in no output and no summary.
#
# The controller's watchdog is set to 5000 periods and the simulator's command
# timeout to 5 s in both runs: the comparison is of what the frames do, not of
# how the shared 2-core machine schedules the three processes.
#
# Usage: link_attack.sh <hodyn-fc> <hodyn-sim> <python3>
set -uo pipefail
FC=${1:?usage: link_attack.sh <hodyn-fc> <hodyn-sim> <python3>}
SIM=${2:?usage}
PY=${3:-python3}
HERE=$(cd "$(dirname "$0")" && pwd)
ATTACKER=$HERE/link_attacker.py
WORK=$(mktemp -d)
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null; done
  rm -rf "$WORK"
}
trap cleanup EXIT

PERIODS=2000  # --duration 2 at 1 kHz
head -c 32 /dev/urandom >"$WORK/key"
chmod 600 "$WORK/key"

# Four free UDP ports (tests/tools/free_udp_ports.py: below the ephemeral range).
free_ports() { "$PY" "$(dirname "${BASH_SOURCE[0]}")/../tools/free_udp_ports.py" 4; }

# start_fc <name> <extra args...>: hodyn-fc on P_FC with peer R_FC (new ports
# and another try when a port was taken meanwhile by another process).
start_fc() {
  local name=$1
  shift
  for attempt in 1 2 3; do
    "$FC" --udp "$P_FC:127.0.0.1:$R_FC" --key-file "$WORK/key" --idle-timeout 1 \
      --summary-json "$WORK/$name-fc.json" "$@" >"$WORK/$name-fc.out" 2>&1 &
    FC_PID=$!
    PIDS+=("$FC_PID")
    sleep 0.2
    kill -0 "$FC_PID" 2>/dev/null && return 0
    echo "hodyn-fc did not start (attempt $attempt): $(cat "$WORK/$name-fc.out")"
    read -r P_FC P_SIM R_FC R_SIM < <(free_ports)
  done
  return 1
}

# run <name> <relay options...>: hodyn-fc, the relay, hodyn-sim; exit codes in RC_*.
run() {
  local name=$1
  shift
  read -r P_FC P_SIM R_FC R_SIM < <(free_ports)
  start_fc "$name" --watchdog-periods 5000 --record "$WORK/$name-fc.rec" ||
    { echo "FAIL: hodyn-fc did not start"; exit 1; }
  "$PY" "$ATTACKER" relay --fc-port "$P_FC" --sim-port "$P_SIM" --relay-fc-port "$R_FC" \
    --relay-sim-port "$R_SIM" --check-key "$WORK/key" --report "$WORK/$name-relay.json" "$@" \
    >"$WORK/$name-relay.out" 2>&1 &
  local relay=$!
  PIDS+=("$relay")
  sleep 0.3
  "$SIM" --udp "$P_SIM:127.0.0.1:$R_SIM" --key-file "$WORK/key" --scenario nominal \
    --duration 2 --seed 5 --command-timeout-ms 5000 --summary-json "$WORK/$name-sim.json" \
    --record "$WORK/$name-sim.rec" >"$WORK/$name-sim.out" 2>&1
  RC_SIM=$?
  wait "$FC_PID"
  RC_FC=$?
  wait "$relay"
  RC_RELAY=$?
  echo "---- $name: hodyn-sim exit $RC_SIM, hodyn-fc exit $RC_FC, relay exit $RC_RELAY"
  if [[ $RC_SIM -ne 0 || $RC_FC -ne 0 || $RC_RELAY -ne 0 ]]; then
    cat "$WORK/$name-sim.out" "$WORK/$name-fc.out" "$WORK/$name-relay.out"
    echo "FAIL: $name run"
    exit 1
  fi
}

start=$(date +%s%N)
run clean --record "$WORK/capture.jsonl"
run attack --attack --old "$WORK/capture.jsonl" --periods "$PERIODS"

# 3. The whole recorded session to a controller started afresh.
read -r P_FC P_SIM R_FC R_SIM < <(free_ports)
start_fc replay || { echo "FAIL: hodyn-fc did not start"; exit 1; }
"$PY" "$ATTACKER" replay --capture "$WORK/capture.jsonl" --fc-port "$P_FC" \
  --relay-fc-port "$R_FC" --report "$WORK/replay-sent.json" >"$WORK/replay.out" 2>&1
RC_REPLAY=$?
wait "$FC_PID"
RC_FC=$?
end=$(date +%s%N)
echo "---- replay: replayer exit $RC_REPLAY, hodyn-fc exit $RC_FC"
[[ $RC_REPLAY -eq 0 && $RC_FC -eq 0 ]] || { cat "$WORK/replay.out" "$WORK/replay-fc.out"; echo "FAIL: replay run"; exit 1; }

cat "$WORK/attack-sim.out" "$WORK/attack-fc.out" "$WORK/replay-fc.out"
failures=0
for pair in fc sim; do
  if cmp -s "$WORK/clean-$pair.rec" "$WORK/attack-$pair.rec"; then
    echo "ok   $pair record identical with and without the attack ($(wc -c <"$WORK/attack-$pair.rec") bytes)"
  else
    echo "FAIL $pair record differs under attack"; failures=$((failures + 1))
  fi
done
# The key's bytes, in hex or raw, in no output and no summary.
hex=$(od -An -tx1 -v "$WORK/key" | tr -d ' \n')
for f in "$WORK"/*.out "$WORK"/*.json; do
  if grep -qi "$hex" "$f"; then
    echo "FAIL the key appears in $(basename "$f")"; failures=$((failures + 1))
  fi
  if "$PY" -c 'import sys; k=open(sys.argv[1],"rb").read(); sys.exit(0 if k in open(sys.argv[2],"rb").read() else 1)' \
    "$WORK/key" "$f"; then
    echo "FAIL the key's raw bytes appear in $(basename "$f")"; failures=$((failures + 1))
  fi
done
echo "ok   the key appears in no output or summary (checked $(ls "$WORK"/*.out "$WORK"/*.json | wc -l) files)"

"$PY" - "$WORK" "$PERIODS" "$(( (end - start) / 1000000 ))" <<'PYEOF'
import json, sys
work, periods, wall_ms = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
load = lambda name: json.load(open(f"{work}/{name}.json"))
failed = []
def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond: failed.append(what)
STRUCTURAL = ["overflow", "cobs_error", "too_short", "bad_crc", "bad_magic", "bad_version",
              "unknown_type", "bad_length", "bad_value"]
for run in ("clean", "attack"):
    relay = load(f"{run}-relay")
    check(relay["nonces_seen"], f"{run}: the relay saw both HELLO nonces")
    tc = relay["tag_check"]
    check(tc.get("frames", 0) >= 300 and tc.get("tag_ok") == tc.get("frames"),
          f"{run}: the attacker's SipHash and key derivation verify the genuine tags "
          f"({tc.get('tag_ok')} of {tc.get('frames')}): its wrong-key forgeries fail for the key only")
    for end in ("fc", "sim"):
        s = load(f"{run}-{end}")
        check(s["link_security"] == "signed" and s["handshake"] == "agreed",
              f"{run} {end}: signed link, handshake agreed")
sim, fc = load("clean-sim"), load("clean-fc")
check(sim["periods"] == periods and fc["steps"] == periods, f"clean: {periods} periods, {periods} updates")
check(fc["rx_rejected_total"] == 0 and sim["rx_rejected_total"] == 0 and
      fc["rx_rejected_foreign"] == 0 and sim["rx_rejected_foreign"] == 0, "clean: nothing rejected")

relay, sim, fc = load("attack-relay"), load("attack-sim"), load("attack-fc")
sent_total = 0
for end, s, sent in (("controller", fc, relay["to_fc"]), ("simulator", sim, relay["to_sim"])):
    attack = {k: v for k, v in sent.items() if k != "genuine"}
    sent_total += sum(attack.values())
    print(f"attack at the {end}: sent {attack}, genuine {sent['genuine']}")
    got = {"replay": s["rx_rejected_replay"], "mac": s["rx_rejected_mac"],
           "unsigned": s["rx_rejected_unsigned"],
           "garbage": sum(s["rx_rejected_" + r] for r in STRUCTURAL),
           "foreign": s["rx_rejected_foreign"]}
    print(f"  counted: {got}, frames accepted {s['rx_frames_ok']}, no key {s['rx_rejected_no_key']}")
    for what in ("replay", "mac", "unsigned", "garbage", "foreign"):
        check(got[what] == sent.get(what, 0) and sent.get(what, 0) > 0,
              f"{end}: {what} rejected {got[what]} = sent {sent.get(what, 0)}")
    check(s["rx_frames_ok"] == sent["genuine"],
          f"{end}: frames accepted {s['rx_frames_ok']} = genuine frames relayed {sent['genuine']} "
          "(0 of the attacker's accepted)")
    check(s["rx_rejected_no_key"] == 0, f"{end}: no 'no key' rejections")
check(sent_total >= 10000, f"the attacker sent {sent_total} frames (>= 10 000)")
check(sim["periods"] == periods and fc["steps"] == periods and sim["missed_commands"] == 0,
      f"attack: {periods} periods, {periods} updates, no missed command")
check(fc["watchdog_engagements"] == 0, "attack: the watchdog never engaged")

sent, fc = load("replay-sent"), load("replay-fc")
print(f"replayed to a restarted controller: {sent}; it counted {fc['rx_frames_ok']} accepted, "
      f"{fc['rx_rejected_mac']} MAC, {fc['rx_rejected_replay']} replay")
check(not fc["armed"] and fc["steps"] == 0 and fc["control_commands_sent"] == 0,
      "the replayed session did not arm the controller (0 updates, 0 tracking commands)")
check(fc["rx_rejected_mac"] == sent["session"] and sent["session"] > 1000,
      f"every replayed session frame failed its MAC ({fc['rx_rejected_mac']} of {sent['session']})")
check(fc["hellos_received"] == sent["hello"] and fc["sessions"] == sent["hello"],
      "its old HELLO got a new session (with the controller's new nonce), nothing more")
print(f"wall time {wall_ms / 1000:.1f} s")
sys.exit(1 if failed else 0)
PYEOF
rc=$?
[[ $rc -eq 0 && $failures -eq 0 ]] || { echo "FAIL"; exit 1; }
echo "PASS"
