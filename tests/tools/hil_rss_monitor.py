#!/usr/bin/env python3
"""Samples the resident memory (VmRSS of /proc/PID/status) of two processes
every 0.25 s until the first of them ends; writes CSV wall_s,sim_kb,fc_kb.
Usage: hil_rss_monitor.py OUT.csv SIM_PID FC_PID (tests/tools/hil_process_faults.sh soak)."""
import sys
import time


def rss_kb(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def main():
    out, sim, fc = sys.argv[1], sys.argv[2], sys.argv[3]
    start = time.monotonic()
    with open(out, "w") as f:
        f.write("wall_s,sim_kb,fc_kb\n")
        while True:
            a, b = rss_kb(sim), rss_kb(fc)
            if a is None or b is None:
                break
            f.write(f"{time.monotonic() - start:.3f},{a},{b}\n")
            f.flush()
            time.sleep(0.25)


if __name__ == "__main__":
    main()
