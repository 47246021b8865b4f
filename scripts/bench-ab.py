#!/usr/bin/env python3
"""Interleaved A/B of Google Benchmark binaries: old against new in one run.

    scripts/bench-ab.py [--rounds N] [--cpu C] [--min-time S] FILTER BINARY...

Copies each BINARY into a temporary directory under paths of the same
length (<tmp>/0/bench, <tmp>/1/bench, ...): the same executable measured up
to 7-19 % apart when run from two paths of different lengths on this
project's machine (the path and the environment shift the initial stack,
and with it the alignment of the stack temporaries; docs/linearization.md,
"Cost"). Then runs the binaries in turn, pinned to one core (taskset), for
N rounds of --benchmark_min_time=S each, and prints per benchmark the median
of the round times (real time, ns) of every binary, then their minima.
Nothing is written outside the temporary directory, which is removed.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("filter", help="--benchmark_filter regular expression")
    parser.add_argument("binaries", nargs="+", help="benchmark executables, old first")
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--cpu", default="1", help="core for taskset (default 1)")
    parser.add_argument("--min-time", default="0.2", help="--benchmark_min_time per round")
    args = parser.parse_args()
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    for b in args.binaries:
        if not (os.path.isfile(b) and os.access(b, os.X_OK)):
            parser.error(f"not an executable: {b}")
    if shutil.which("taskset") is None:
        parser.error("taskset not found (util-linux)")

    times: list[dict[str, list[float]]] = [{} for _ in args.binaries]
    with tempfile.TemporaryDirectory(prefix="hodyn-ab-") as tmp:
        copies = []
        for i, b in enumerate(args.binaries):
            os.mkdir(os.path.join(tmp, str(i)))
            copies.append(shutil.copy2(b, os.path.join(tmp, str(i), "bench")))
        for _ in range(args.rounds):
            for i, exe in enumerate(copies):
                run = subprocess.run(
                    ["taskset", "-c", args.cpu, exe, f"--benchmark_filter={args.filter}",
                     f"--benchmark_min_time={args.min_time}", "--benchmark_format=json"],
                    capture_output=True, text=True)
                if run.returncode != 0:
                    print(f"{args.binaries[i]} failed:\n{run.stderr}", file=sys.stderr)
                    return 1
                try:
                    report = json.loads(run.stdout)
                except json.JSONDecodeError:
                    print(f"{args.binaries[i]}: no benchmark matched {args.filter!r}",
                          file=sys.stderr)
                    return 1
                for bm in report.get("benchmarks", []):
                    if bm.get("error_occurred"):
                        print(f"{args.binaries[i]}: {bm['name']}: {bm.get('error_message')}",
                              file=sys.stderr)
                        return 1
                    times[i].setdefault(bm["name"], []).append(float(bm["real_time"]))
    names = [n for n in times[0] if all(n in t for t in times)]
    if not names:
        print("no benchmark matched the filter in every binary", file=sys.stderr)
        return 1
    print(f"{'benchmark':45s} " + " ".join(f"{'median ' + str(i):>10s}" for i in range(len(copies)))
          + "   " + " ".join(f"{'min ' + str(i):>9s}" for i in range(len(copies))))
    for n in names:
        medians = " ".join(f"{statistics.median(t[n]):10.0f}" for t in times)
        minima = " ".join(f"{min(t[n]):9.0f}" for t in times)
        print(f"{n:45s} {medians}   {minima}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
