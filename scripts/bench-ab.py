#!/usr/bin/env python3
"""Interleaved A/B of Google Benchmark binaries: old against new in one run.

    scripts/bench-ab.py [--rounds N] [--copies K] [--cpu C] [--min-time S] FILTER BINARY...

Copies each BINARY K times (default 3) into a temporary directory, under
paths of the same length (<tmp>/<binary>/<copy>/bench). The same executable
measured 7-19 % apart when copied elsewhere; hard links of one file under
paths of 32 lengths did not differ, while fresh copies of one old binary
took 1.39-1.96 us: where a file's pages sit in memory is what matters
(docs/linearization.md, "Cost"). So every copy is a fresh file, and the
times of a binary pool its K copies. Then runs the binaries' copies
in turn, pinned to one core (taskset), for N rounds of
--benchmark_min_time=S each, and prints per benchmark the median of the
N x K round times (real time, in ns whatever the benchmark's unit) of every
binary, then their minima. Nothing is written outside the temporary
directory, which is removed.
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
    parser.add_argument("--copies", type=int, default=3, help="fresh copies of each binary")
    parser.add_argument("--cpu", default="1", help="core for taskset (default 1)")
    parser.add_argument("--min-time", default="0.2", help="--benchmark_min_time per round")
    args = parser.parse_args()
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    if args.copies < 1:
        parser.error("--copies must be at least 1")
    for b in args.binaries:
        if not (os.path.isfile(b) and os.access(b, os.X_OK)):
            parser.error(f"not an executable: {b}")
    if shutil.which("taskset") is None:
        parser.error("taskset not found (util-linux)")

    times: list[dict[str, list[float]]] = [{} for _ in args.binaries]
    with tempfile.TemporaryDirectory(prefix="hodyn-ab-") as tmp:
        copies = []  # (binary index, path of a fresh copy)
        for i, b in enumerate(args.binaries):
            for k in range(args.copies):
                os.makedirs(os.path.join(tmp, str(i), str(k)))
                copies.append((i, shutil.copy2(b, os.path.join(tmp, str(i), str(k), "bench"))))
        to_ns = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}
        for _ in range(args.rounds):
            for i, exe in copies:
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
                    unit = to_ns.get(bm.get("time_unit", "ns"), 1.0)
                    times[i].setdefault(bm["name"], []).append(float(bm["real_time"]) * unit)
    names = [n for n in times[0] if all(n in t for t in times)]
    if not names:
        print("no benchmark matched the filter in every binary", file=sys.stderr)
        return 1
    n_bin = len(args.binaries)
    print(f"{'benchmark':45s} " + " ".join(f"{'median ' + str(i):>10s}" for i in range(n_bin))
          + "   " + " ".join(f"{'min ' + str(i):>9s}" for i in range(n_bin)))
    for n in names:
        medians = " ".join(f"{statistics.median(t[n]):10.0f}" for t in times)
        minima = " ".join(f"{min(t[n]):9.0f}" for t in times)
        print(f"{n:45s} {medians}   {minima}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
