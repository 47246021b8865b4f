#!/usr/bin/env python3
"""Samples the resident memory of two processes (/proc/PID/status) every
0.25 s until the first of them ends; writes CSV
wall_s,sim_kb,fc_kb,sim_anon_kb,fc_anon_kb: VmRSS (everything resident)
and RssAnon (heap, stacks and other anonymous pages: where a leak shows).
VmRSS also counts the pages of the executable and shared libraries mapped
when a code path first runs (the kernel maps them 64 kB at a time), so it
steps up when a fault path runs for the first time without any allocation.
Usage: hil_rss_monitor.py OUT.csv SIM_PID FC_PID (tests/tools/hil_process_faults.sh soak)."""
import sys
import time


def rss_kb(pid):
    """(VmRSS, RssAnon) in kB, or None once the process is gone."""
    values = {}
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                key = line.split(":", 1)[0]
                if key in ("VmRSS", "RssAnon"):
                    values[key] = int(line.split()[1])
    except OSError:
        return None
    if len(values) != 2:
        return None
    return values["VmRSS"], values["RssAnon"]


def main():
    out, sim, fc = sys.argv[1], sys.argv[2], sys.argv[3]
    start = time.monotonic()
    with open(out, "w") as f:
        f.write("wall_s,sim_kb,fc_kb,sim_anon_kb,fc_anon_kb\n")
        while True:
            a, b = rss_kb(sim), rss_kb(fc)
            if a is None or b is None:
                break
            f.write(f"{time.monotonic() - start:.3f},{a[0]},{b[0]},{a[1]},{b[1]}\n")
            f.flush()
            time.sleep(0.25)


if __name__ == "__main__":
    main()
