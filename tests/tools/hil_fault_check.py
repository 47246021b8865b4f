#!/usr/bin/env python3
"""Checks of the HIL process-fault cases (tests/tools/hil_process_faults.sh,
docs/hil.md "Process faults"): reads hodyn-sim's --trace CSV, its and
hodyn-fc's summary JSONs and hodyn-fc's --events, measures the safe-mode entry
and the recovery after each fault, prints the numbers and fails when a bound
is not met.

Usage: hil_fault_check.py CASE WORKDIR [KEY=VALUE ...]
Bounds (docs/hil.md): the safe command within the watchdog time, tracking
back within 1 cm at most 2 s after the fault ends.
"""
import csv
import json
import os
import sys

TRACK_M = 0.01       # "tracking back within 1 cm"
RECOVERY_S = 2.0     # "... in at most 2 s after the fault ends"
RATE = 1000.0        # control rate of the cases (hodyn-sim --rate default)
WATCHDOG_PERIODS = 20  # hodyn-fc --watchdog-periods default
# Wall time the watchdog's 20 control periods may take on a loaded machine:
# each lockstep iteration of hodyn-fc waits one period (1 ms) for a frame; a
# busy 2-core machine stretches an iteration (measured: see docs/hil.md).
WATCHDOG_WALL_S = 0.2

failed = False


def check(cond, what):
    global failed
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failed = True


def load_json(path):
    with open(path) as f:
        return json.load(f)


def load_trace(path):
    rows = []
    with open(path) as f:
        for r in csv.DictReader(f):
            rows.append((int(r["k"]), float(r["t"]), float(r["position_error_m"]), int(r["source"]),
                         int(r["mode"]), int(r["watchdog"])))
    return rows


def load_events(path):
    events = []
    if not os.path.exists(path):
        return events
    with open(path) as f:
        for line in f:
            wall, what, seq, since_ms = line.split()
            events.append((float(wall), what, int(seq), float(since_ms)))
    return events


def recovery(rows, t_end):
    """Seconds after t_end until the position error stays within 1 cm (0 when
    it never left it; infinity when the trace ends outside 1 cm), and the
    largest error after t_end."""
    last_out = None
    worst = 0.0
    last_e = 0.0
    for _, t, e, _, _, _ in rows:
        if t < t_end:
            continue
        worst = max(worst, e)
        last_e = e
        if e > TRACK_M:
            last_out = t
    if last_e > TRACK_M:
        return float("inf"), worst
    return (0.0 if last_out is None else last_out + 1.0 / RATE - t_end), worst


def worst_in(rows, t0, t1):
    return max((e for _, t, e, _, _, _ in rows if t0 <= t < t1), default=0.0)


def check_watchdog(events, label):
    """hodyn-fc's watchdog engaged (the plugin's hold), then hover, then released."""
    engaged = [e for e in events if e[1] == "watchdog_engaged"]
    hover = [e for e in events if e[1] == "hover"]
    released = [e for e in events if e[1] == "watchdog_released"]
    check(len(engaged) >= 1, f"{label}: hodyn-fc's watchdog engaged ({len(engaged)}x)")
    if not engaged:
        return None
    since = engaged[0][3] * 1e-3
    print(f"     safe command (hold) {since * 1e3:.1f} ms after the last control update "
          f"(watchdog {WATCHDOG_PERIODS} periods = {WATCHDOG_PERIODS / RATE * 1e3:.0f} ms)")
    check(since <= WATCHDOG_WALL_S,
          f"{label}: safe command within the watchdog time ({since * 1e3:.1f} ms <= "
          f"{WATCHDOG_WALL_S * 1e3:.0f} ms wall for {WATCHDOG_PERIODS} periods)")
    if hover:
        print(f"     hover command {(hover[0][0] - engaged[0][0]) * 1e3:.1f} ms after the engagement")
    check(len(hover) >= 1, f"{label}: the plugin's hold became hover")
    check(len(released) >= 1 and released[-1][0] > engaged[0][0], f"{label}: watchdog released")
    return engaged[0]


def main():
    case, work = sys.argv[1], sys.argv[2]
    opts = dict(a.split("=", 1) for a in sys.argv[3:])
    sim = load_json(os.path.join(work, "sim.json"))
    fc = load_json(os.path.join(work, "fc.json")) if os.path.exists(os.path.join(work, "fc.json")) else None
    rows = load_trace(os.path.join(work, "trace.csv"))
    events = load_events(os.path.join(work, "events.txt"))
    check(sim["handshake"] == "agreed", "hodyn-sim: handshake agreed")
    check(len(rows) == sim["periods"] and sim["periods"] > 0,
          f"trace has every period ({len(rows)} rows, {sim['periods']} periods)")
    t = sim["tracking"]
    print(f"tracking: position RMS {t['base_position_error_rms_m'] * 1e3:.3f} mm over the run")

    if case == "sim_restart":
        # The new simulator's run: the controller resynchronised on its numbers
        # from period 0 (an answer to every period), and tracks from the start.
        check_watchdog(events, "simulator killed")
        runs = [e for e in events if e[1] == "new_run"]
        check(len(runs) == 1, "hodyn-fc saw one new simulator run")
        engaged = [e for e in events if e[1] == "watchdog_engaged"]
        if runs and engaged:
            check(runs[0][0] > engaged[0][0], "the new run came after the engagement")
        check(fc["simulator_runs"] == 2, f"hodyn-fc: 2 simulator runs ({fc['simulator_runs']})")
        if opts.get("signed") == "1":
            check(fc["sessions"] == 2, f"hodyn-fc: 2 signed sessions ({fc['sessions']})")
            check(fc["rx_rejected_replay"] == 0 and fc["rx_rejected_mac"] == 0,
                  "no frame of the new run rejected as replayed or forged")
        check(sim["missed_commands"] == 0 and sim["command_timeouts"] == 0,
              "the new run: every period got its command (resynchronised from sequence 0)")
        rec, worst = recovery(rows, 0.0)
        print(f"     new run: worst position error {worst * 1e3:.3f} mm, recovery {rec:.3f} s")
        check(rec <= RECOVERY_S, f"within 1 cm {rec:.3f} s after the restart (<= 2 s)")

    elif case == "fc_restart":
        # Fault: from the last command of the first controller to the first of
        # the new one. The plant: the last command held for the hold time,
        # then the safe input.
        # The longest run of periods without a command is the kill (a
        # controller held up by the OS makes shorter ones).
        src = [r[3] for r in rows]
        first_gap, longest, i = None, 0, 0
        while i < len(src):
            if src[i] == 0:
                i += 1
                continue
            j = i
            while j < len(src) and src[j] != 0:
                j += 1
            if j - i > longest:
                first_gap, longest = i, j - i
            i = j
        check(first_gap is not None and longest >= 50,
              f"the controller's commands stopped ({longest} periods)")
        if first_gap is None:
            return
        back = next((i for i in range(first_gap, len(src)) if src[i] == 0), None)
        check(back is not None, "the new controller's commands came")
        if back is None:
            return
        safe = next((i for i in range(first_gap, back) if src[i] == 2), None)
        hold_s = float(opts.get("hold_s", "0.1"))
        t_fault, t_back = rows[first_gap][1], rows[back][1]
        print(f"     controller gone at t = {t_fault:.3f} s, the new one's first command at "
              f"{t_back:.3f} s ({t_back - t_fault:.3f} s simulated)")
        check(safe is not None, "the plant got the safe input")
        if safe is not None:
            held = rows[safe][1] - t_fault
            print(f"     last command held {held * 1e3:.1f} ms, then the safe input")
            check(abs(held - hold_s) <= 1.5 / RATE,
                  f"held for the hold time ({held * 1e3:.1f} ms, --command-hold-ms "
                  f"{hold_s * 1e3:.0f})")
            check(all(s == 2 for s in src[safe:back]), "the safe input until the new controller")
        print(f"     worst position error while gone {worst_in(rows, t_fault, t_back) * 1e3:.2f} mm")
        rec, worst = recovery(rows, t_back)
        print(f"     after the takeover: worst {worst * 1e3:.2f} mm, within 1 cm after {rec:.3f} s")
        check(rec <= RECOVERY_S, f"tracking within 1 cm {rec:.3f} s after the takeover (<= 2 s)")
        check(sim["controller_sessions"] == 2, f"hodyn-sim: 2 controllers ({sim['controller_sessions']})")
        check(sim["safe_input_failures"] == 0, "the safe input was always computed")
        check(fc is not None and fc["steps"] > 0 and fc["watchdog_engagements"] <= sim["send_silences"],
              "the new controller flew (updates; a watchdog only in a silence of the simulator)")

    elif case in ("link_loss", "corrupt_burst", "serial_garbage"):
        start, length = float(opts["start"]), float(opts["length"])
        end = start + length
        if case == "link_loss":
            check_watchdog(events, "2 s link loss")
            check(sim["outage_periods"] == round(length * RATE),
                  f"{sim['outage_periods']} outage periods")
            src = [r[3] for r in rows if start <= r[1] < end]
            safe_at = next((i for i, s in enumerate(src) if s == 2), None)
            check(safe_at is not None, "the plant got the safe input during the loss")
            if safe_at is not None:
                print(f"     plant: last command held {safe_at / RATE * 1e3:.1f} ms, then the safe input")
        else:
            # Sensor frames keep coming (the fault loses no run of 20 periods):
            # the watchdog may engage only in a silence of the simulator itself
            # (the OS holding it up >= 15 ms; docs/hil.md, "The flake").
            check(fc["watchdog_engagements"] <= sim["send_silences"],
                  f"no watchdog but in a silence of the simulator ({fc['watchdog_engagements']} "
                  f"engagements, {sim['send_silences']} silences >= 15 ms)")
        if case == "corrupt_burst":
            # Outside the burst no frame is corrupted: the counts are the burst's.
            # sim->fc: REFERENCE + SENSORS each period of the burst; fc->sim:
            # the commands submitted then (one a period outside the burst).
            p = float(opts["p"])
            sent = 2 * round(length * RATE)
            back = sim["rx_injector_submitted"] - (sim["periods"] - 1 - round(length * RATE))
            for direction, corrupted, n in (("sim->fc", sim["tx_injector_corrupted"], sent),
                                            ("fc->sim", sim["rx_injector_corrupted"], back)):
                sigma = (n * p * (1 - p)) ** 0.5
                print(f"     corrupted in the burst {direction}: {corrupted} of {n} ({corrupted / n:.3f})")
                check(abs(corrupted - n * p) <= 5 * sigma,
                      f"{direction}: {p:.0%} corrupted within 5 sigma ({corrupted} vs {n * p:.0f})")
            check(sim["tx_corrupted_released"] == fc["rx_rejected_total"] and
                  sim["rx_corrupted_released"] == sim["rx_rejected_total"],
                  "every corrupted frame rejected, nothing else")
        if case == "serial_garbage":
            chunks = sim["garbage_chunks"]
            print(f"     {chunks} garbage chunks ({sim['garbage_bytes']} bytes); hodyn-fc rejected "
                  f"{fc['rx_rejected_total']} frames")
            check(chunks > 100, "garbage was written")
            check(fc["rx_rejected_total"] == chunks, "every garbage chunk rejected, once")
            check(fc["sensor_gaps"] == 0 and sim["missed_commands"] == 0,
                  "no frame lost: no sequence gap, every period got its command")
        during = worst_in(rows, start, end)
        rec, worst = recovery(rows, end)
        print(f"     worst position error during the fault {during * 1e3:.2f} mm; after it: "
              f"worst {worst * 1e3:.2f} mm, within 1 cm after {rec:.3f} s")
        # recovery_s: a looser bound for a case that needs one (none now:
        # octo_arm's link loss needed 4.2 s on the open-loop hover speeds; it
        # runs with --safe-input hold; docs/hil.md, "octo_arm").
        bound = float(opts.get("recovery_s", RECOVERY_S))
        check(rec <= bound, f"tracking within 1 cm {rec:.3f} s after the fault (<= {bound:g} s)")
    else:
        print("unknown case " + case)
        sys.exit(2)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
