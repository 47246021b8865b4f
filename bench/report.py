#!/usr/bin/env python3
"""bench/report.py — plots and bench/RESULTS.md from the Google Benchmark JSON
files that scripts/bench.sh writes (build/release/bench/<suite>.json).

    python3 bench/report.py [--bench-dir build/release/bench] [--out-dir bench]
                            [--cpu 'taskset -c 1']

Reads the median aggregates (10 repetitions in bench.sh), writes
bench/img/*.png (matplotlib, Agg backend) and bench/RESULTS.md: the machine,
a table of medians, and the ratios the "desktop timing benchmarks" issue asks
for, each marked met / missed against its target. Ratios use CPU-time medians
(the machine is a shared 2-core VM: CPU time leaves out the time the pinned
thread waited for the core); the table lists real time too. Missing suites or
benchmarks (e.g. bench_mujoco without MuJoCo, or a --benchmark_filter run) are
reported as "not measured". Standard library + matplotlib only.
"""
import argparse
import datetime
import json
import math
import os
import platform
import re
import subprocess
import sys

SUITES = ["bench_inverse_dynamics", "bench_dynamics", "bench_controller", "bench_baselines",
          "bench_mujoco"]
MAX_ORDER = 5


def load_suite(path):
    """{run_name: {'real': ns, 'cpu': ns, 'counters': {...}}} of the median aggregates."""
    if not os.path.exists(path):
        return None, None
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    scale = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}
    medians = {}
    plain = {}
    skip = {"name", "family_index", "per_family_instance_index", "run_name", "run_type",
            "repetitions", "repetition_index", "threads", "aggregate_name", "aggregate_unit",
            "iterations", "real_time", "cpu_time", "time_unit", "error_occurred",
            "error_message"}
    for b in data.get("benchmarks", []):
        if b.get("error_occurred"):
            continue
        unit = scale.get(b.get("time_unit", "ns"), 1.0)
        entry = {"real": b["real_time"] * unit, "cpu": b["cpu_time"] * unit,
                 "counters": {k: v for k, v in b.items() if k not in skip}}
        run_name = b.get("run_name", b["name"])
        if b.get("run_type") == "aggregate":
            if b.get("aggregate_name") == "median":
                medians[run_name] = entry
        else:
            plain.setdefault(run_name, entry)  # a run without repetitions
    for name, entry in plain.items():
        medians.setdefault(name, entry)
    return medians, data.get("context", {})


def cpu_model():
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def compiler(build_dir):
    cache = os.path.join(build_dir, "CMakeCache.txt")
    path = None
    if os.path.exists(cache):
        with open(cache, encoding="utf-8", errors="replace") as f:
            for line in f:
                if line.startswith("CMAKE_CXX_COMPILER:"):
                    path = line.split("=", 1)[1].strip()
    try:
        out = subprocess.run([path or "c++", "--version"], capture_output=True, text=True,
                             check=False).stdout
        return out.splitlines()[0] if out else (path or "unknown")
    except OSError:
        return path or "unknown"


def fmt_ns(x):
    if x is None:
        return "–"
    if x >= 1e6:
        return f"{x / 1e6:.2f} ms"
    if x >= 1e4:
        return f"{x / 1e3:.1f} µs"
    if x >= 1e3:
        return f"{x / 1e3:.2f} µs"
    return f"{x:.0f} ns"


def fit_exponent(orders, times):
    """Least-squares p in t ≈ a (r + 1)^p (log-log)."""
    pts = [(math.log(r + 1), math.log(t)) for r, t in zip(orders, times) if t]
    if len(pts) < 3:
        return None
    n = len(pts)
    mx = sum(p[0] for p in pts) / n
    my = sum(p[1] for p in pts) / n
    sxx = sum((p[0] - mx) ** 2 for p in pts)
    sxy = sum((p[0] - mx) * (p[1] - my) for p in pts)
    return sxy / sxx


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(here)
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bench-dir", default=os.path.join(root, "build", "release", "bench"))
    ap.add_argument("--out-dir", default=here)
    ap.add_argument("--cpu", default="taskset -c 1", help="how the runs were pinned (for the report)")
    args = ap.parse_args()

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    suites, contexts = {}, {}
    for s in SUITES:
        med, ctx = load_suite(os.path.join(args.bench_dir, s + ".json"))
        if med is not None:
            suites[s], contexts[s] = med, ctx
    if not suites:
        sys.exit(f"report: no benchmark JSON in {args.bench_dir} (run scripts/bench.sh)")

    def get(suite, name, field="cpu"):
        e = suites.get(suite, {}).get(name)
        return None if e is None else e[field]

    def counter(suite, name, key):
        e = suites.get(suite, {}).get(name)
        return None if e is None else e["counters"].get(key)

    img_dir = os.path.join(args.out_dir, "img")
    os.makedirs(img_dir, exist_ok=True)
    images = []

    # ---- time vs N (Table 4 family) --------------------------------------------------
    branched = {}
    for name, e in suites.get("bench_inverse_dynamics", {}).items():
        m = re.match(r"BM_InverseDynamicsBranched<(\d+)>/(\d+)$", name)
        if m:
            n_bodies = 1 + 5 * int(m.group(1))
            branched.setdefault(int(m.group(2)), []).append((n_bodies, e["cpu"]))
    if branched:
        fig, ax = plt.subplots(figsize=(6, 4.2))
        for r in sorted(branched):
            pts = sorted(branched[r])
            ax.loglog([p[0] for p in pts], [p[1] / 1e3 for p in pts], "o-", label=f"r = {r}")
        ax.set_xlabel("bodies N (5 chains of n links, N = 1 + 5n)")
        ax.set_ylabel("CPU time per call (µs)")
        ax.set_title("hodyn inverse dynamics vs tree size")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend()
        fig.tight_layout()
        fig.savefig(os.path.join(img_dir, "time_vs_bodies.png"), dpi=120)
        plt.close(fig)
        images.append(("time_vs_bodies.png", "Inverse dynamics vs number of bodies N, per order r"))

    # ---- time vs r (analytic algorithms) --------------------------------------------
    orders = list(range(MAX_ORDER + 1))
    analytic = [get("bench_baselines", f"BM_InverseDynamicsAnalytic/{r}") for r in orders]
    analytic_source = "bench_baselines"
    if not any(analytic):
        analytic = [get("bench_inverse_dynamics", f"BM_InverseDynamics/{r}") for r in orders]
        analytic_source = "bench_inverse_dynamics"
    forward = [get("bench_dynamics", f"BM_ForwardDynamics/{r}") for r in orders]
    hybrid = [get("bench_dynamics", f"BM_HybridDynamics/{r}") for r in orders]
    series = [("inverse dynamics", analytic), ("forward dynamics", forward),
              ("hybrid dynamics", hybrid)]
    if any(any(s) for _, s in series):
        fig, ax = plt.subplots(figsize=(6, 4.2))
        for label, ts in series:
            pts = [(r, t) for r, t in zip(orders, ts) if t]
            if pts:
                ax.plot([p[0] for p in pts], [p[1] / 1e3 for p in pts], "o-", label=label)
        ax.set_xlabel("order r (one call computes orders 0..r)")
        ax.set_ylabel("CPU time per call (µs)")
        ax.set_title("hodyn, 12-DoF aerial manipulator")
        ax.grid(True, alpha=0.3)
        ax.legend()
        fig.tight_layout()
        fig.savefig(os.path.join(img_dir, "time_vs_order.png"), dpi=120)
        plt.close(fig)
        images.append(("time_vs_order.png", "Analytic algorithms vs order r"))

    # ---- analytic vs baselines -------------------------------------------------------
    taylor = [get("bench_baselines", f"BM_InverseDynamicsTaylorAD/{r}") for r in orders]
    duals = [get("bench_baselines", f"BM_InverseDynamicsNestedDual/{r}") for r in orders]
    differences = [get("bench_baselines", f"BM_InverseDynamicsCentralDifference/{r}")
                   for r in orders]
    if any(taylor) or any(duals) or any(differences):
        fig, ax = plt.subplots(figsize=(6.4, 4.4))
        for label, ts, style in [("hodyn analytic, order r", analytic, "o-"),
                                 ("Taylor-mode AD (order 0 in Taylor<double, r>)", taylor, "s--"),
                                 ("nested duals (order 0, 2^r doubles)", duals, "^--"),
                                 ("central differences (order 0, O(h²))", differences, "d:")]:
            pts = [(r, t) for r, t in zip(orders, ts) if t]
            if pts:
                ax.semilogy([p[0] for p in pts], [p[1] for p in pts], style, label=label)
        ax.set_xlabel("derivative order r")
        ax.set_ylabel("CPU time per call (ns, log)")
        ax.set_title("r-th derivative of inverse dynamics, aerial manipulator")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
        fig.tight_layout()
        fig.savefig(os.path.join(img_dir, "baselines_time.png"), dpi=120)
        plt.close(fig)
        images.append(("baselines_time.png", "Analytic vs Taylor AD, nested duals, central differences"))

        fd_err = [counter("bench_baselines", f"BM_InverseDynamicsCentralDifference/{r}",
                          "fd_max_rel_error") for r in orders]
        an_err = [counter("bench_baselines", f"BM_InverseDynamicsCentralDifference/{r}",
                          "analytic_max_rel_error") for r in orders]
        if any(fd_err):
            fig, ax = plt.subplots(figsize=(6, 4.2))
            for label, es, style in [("central differences (best h)", fd_err, "d:"),
                                     ("hodyn analytic", an_err, "o-")]:
                pts = [(r, e) for r, e in zip(orders, es) if e]
                if pts:
                    ax.semilogy([p[0] for p in pts], [p[1] for p in pts], style, label=label)
            ax.set_xlabel("derivative order r")
            ax.set_ylabel("max relative error vs long-double reference")
            ax.set_title("Accuracy along the Table 3 trajectory")
            ax.grid(True, which="both", alpha=0.3)
            ax.legend()
            fig.tight_layout()
            fig.savefig(os.path.join(img_dir, "baselines_accuracy.png"), dpi=120)
            plt.close(fig)
            images.append(("baselines_accuracy.png", "Accuracy: central differences vs analytic"))

    # ---- MuJoCo bars -----------------------------------------------------------------
    mj = suites.get("bench_mujoco", {})
    if mj:
        bars = [("hodyn ID r=0", "BM_InverseDynamicsAnalytic/0"),
                ("mj_inverse", "BM_MujocoInverse"),
                ("hodyn FD r=0", "BM_ForwardDynamicsAnalytic/0"),
                ("mj_forward", "BM_MujocoForward"),
                ("mj_fwd* stages", "BM_MujocoForwardStages")]
        bars = [(label, mj[name]["cpu"]) for label, name in bars if name in mj]
        fig, ax = plt.subplots(figsize=(6.4, 4.2))
        colors = ["tab:blue" if lbl.startswith("hodyn") else "tab:orange" for lbl, _ in bars]
        ax.bar([b[0] for b in bars], [b[1] for b in bars], color=colors)
        for i, (_, t) in enumerate(bars):
            ax.text(i, t, f"{t:.0f}", ha="center", va="bottom", fontsize=8)
        ax.set_ylabel("CPU time per call (ns)")
        ax.set_title("hodyn vs MuJoCo 2.2.2, aerial manipulator, r = 0")
        ax.tick_params(axis="x", labelsize=8)
        fig.tight_layout()
        fig.savefig(os.path.join(img_dir, "mujoco.png"), dpi=120)
        plt.close(fig)
        images.append(("mujoco.png", "hodyn vs MuJoCo at order 0"))

    # ---- ratios against the targets -------------------------------------------------
    def ratio(a, b):
        return None if (a is None or b is None or b == 0) else a / b

    checks = []  # (what, value text, target text, met: True/False/None)

    def add(what, value, target, ok, fmt="{:.2f}x"):
        checks.append((what, "not measured" if value is None else fmt.format(value), target,
                       None if value is None else ok(value)))

    add("Taylor AD / analytic, r = 2", ratio(taylor[2], analytic[2]), "≥ 3x", lambda v: v >= 3)
    add("nested duals / analytic, r = 4", ratio(duals[4], analytic[4]), "≥ 30x",
        lambda v: v >= 30)
    gap = counter("bench_baselines", "BM_InverseDynamicsCentralDifference/3", "accuracy_gap_orders")
    add("central differences: accuracy gap at r = 3 (orders of magnitude)", gap, "≥ 6",
        lambda v: v >= 6, "{:.1f}")
    add("mj_inverse / hodyn inverse dynamics, r = 0",
        ratio(get("bench_mujoco", "BM_MujocoInverse"),
              get("bench_mujoco", "BM_InverseDynamicsAnalytic/0")), "≥ 5x", lambda v: v >= 5)
    add("mj_forward / hodyn forward dynamics, r = 0",
        ratio(get("bench_mujoco", "BM_MujocoForward"),
              get("bench_mujoco", "BM_ForwardDynamicsAnalytic/0")), "≥ 2.5x", lambda v: v >= 2.5)
    add("N = 501 / N = 101, inverse dynamics r = 0",
        ratio(get("bench_inverse_dynamics", "BM_InverseDynamicsBranched<100>/0"),
              get("bench_inverse_dynamics", "BM_InverseDynamicsBranched<20>/0")), "4.5–5.5x",
        lambda v: 4.5 <= v <= 5.5)
    exponent = fit_exponent(orders, analytic) if all(analytic) else None
    add("fitted exponent p of t ≈ a (r+1)^p, analytic inverse dynamics r = 0..5", exponent,
        "≤ 2 (at most quadratic)", lambda v: v <= 2.0, "{:.2f}")

    # ---- RESULTS.md ------------------------------------------------------------------
    ctx = next(iter(contexts.values()))
    build_dir = os.path.dirname(os.path.abspath(args.bench_dir))
    lines = []
    w = lines.append
    w("# Benchmark results")
    w("")
    w("Generated by `bench/report.py` from the JSON files of one `./scripts/bench.sh` run")
    w("(Google Benchmark, 10 repetitions, medians). Re-run `./scripts/bench.sh` to")
    w("regenerate this file and the plots in `bench/img/`.")
    w("")
    w("## Machine")
    w("")
    w(f"- CPU: {cpu_model()}, {ctx.get('num_cpus', os.cpu_count())} cores "
      f"({ctx.get('mhz_per_cpu', '?')} MHz reported); runs pinned with `{args.cpu}`")
    w(f"- Compiler: {compiler(build_dir)}; `release` preset (`-O3 -march=native`)")
    w(f"- Google Benchmark library build type: {ctx.get('library_build_type', '?')} "
      "(the Debian package; it only affects the harness, not the timed code)")
    dates = sorted(c.get("date", "") for c in contexts.values() if c.get("date"))
    w(f"- Date: {dates[0] if dates else datetime.datetime.now().isoformat()}"
      f"{' – ' + dates[-1] if len(dates) > 1 else ''}")
    loads = [c.get("load_avg") for c in contexts.values() if c.get("load_avg")]
    if loads:
        w("- Load average at the start of each suite: " +
          ", ".join(f"{s}: {c['load_avg'][0]:.2f}" for s, c in contexts.items()
                    if c.get("load_avg")) +
          " (a shared 2-core VM; other work ran at the same time)")
    w("")
    w("Ratios use **CPU-time medians** (the time the pinned thread actually ran; on a")
    w("shared VM real time also counts waiting for the core). Each ratio compares")
    w("benchmarks of the same binary and run.")
    w("")
    w("## Targets")
    w("")
    w("| Comparison | Measured | Target | |")
    w("|---|---|---|---|")
    for what, value, target, ok in checks:
        mark = "not measured" if ok is None else ("**met**" if ok else "**missed**")
        w(f"| {what} | {value} | {target} | {mark} |")
    w("")
    extra = []
    for r in range(1, MAX_ORDER + 1):
        t, d = ratio(taylor[r], analytic[r]), ratio(duals[r], analytic[r])
        parts = ([f"Taylor AD {t:.2f}x"] if t else []) + ([f"nested duals {d:.1f}x"] if d else [])
        if parts:
            extra.append(f"r = {r}: " + ", ".join(parts))
    if extra:
        w("Baseline / analytic at every order: " + "; ".join(extra) + ".")
        w("")
    mjs = ratio(get("bench_mujoco", "BM_MujocoForwardStages"),
                get("bench_mujoco", "BM_ForwardDynamicsAnalytic/0"))
    if mjs:
        w(f"mj_fwdPosition + mj_fwdVelocity + mj_fwdActuation + mj_fwdAcceleration called one "
          f"by one / hodyn forward dynamics r = 0: {mjs:.2f}x.")
        w("")
    w("## Medians")
    w("")
    w("| Suite | Benchmark | CPU time | Real time | Counters |")
    w("|---|---|---|---|---|")
    shown = {"order", "bodies", "rates"}
    for s in SUITES:
        for name, e in suites.get(s, {}).items():
            cs = ", ".join(f"{k} = {v:.3g}" for k, v in e["counters"].items()
                           if k not in shown and isinstance(v, (int, float)))
            w(f"| {s} | `{name}` | {fmt_ns(e['cpu'])} | {fmt_ns(e['real'])} | {cs} |")
    w("")
    w("## What is timed")
    w("")
    w("- `BM_InverseDynamicsAnalytic/<r>` (bench_baselines): `hodyn::inverse_dynamics` of order r")
    w(f"  (orders 0..r in one call) on 64 random states (the analytic column above is from "
      f"{analytic_source}).")
    w("- `BM_InverseDynamicsTaylorAD/<r>`: the order-0 inverse dynamics with the scalar")
    w("  `Taylor<double, r>` (tests/support/taylor.hpp, r + 1 coefficients), inputs seeded as")
    w("  series outside the timed loop; its r-th coefficient × r! is checked against the")
    w("  analytic order-r result (counter max_rel_error).")
    w("- `BM_InverseDynamicsNestedDual/<r>`: the same with `Dual` (bench/dual_number.hpp)")
    w("  nested r times (2^r doubles per scalar).")
    w("- `BM_InverseDynamicsCentralDifference/<r>`: r-th derivative by the O(h²) central")
    w("  stencil (2, 3, 4, 5 order-0 calls for r = 1..4) along the Table 3 trajectory, states")
    w("  precomputed; h = the best of a scan (counter h_seconds). Accuracy of the stencil and of")
    w("  the analytic order r against an independent long-double reference (order 0 in")
    w("  `Taylor<long double, r>`): counters fd_max_rel_error, analytic_max_rel_error,")
    w("  accuracy_gap_orders = log10 of their ratio (max over 64 times of the relative error")
    w("  of the 12 outputs Q₁^(r), τ^(r)).")
    w("- `BM_MujocoInverse`: `mj_inverse` (MuJoCo 2.2.2, bench/aerial_manipulator.xml; it")
    w("  includes kinematics, the CRB mass matrix and its factorization); `BM_MujocoForward`:")
    w("  `mj_forward` with contact, constraint, passive and sensor stages disabled;")
    w("  `BM_MujocoForwardStages`: mj_fwdPosition + mj_fwdVelocity + mj_fwdActuation +")
    w("  mj_fwdAcceleration. Each MuJoCo iteration copies the state into mjData. The MJCF")
    w("  is checked against hodyn's model before timing (mass, hover force, mj_inverse and")
    w("  mj_forward vs hodyn at random states, 1e-6; ctest label bench_model).")
    w("")
    if images:
        w("## Plots")
        w("")
        for fname, caption in images:
            w(f"![{caption}](img/{fname})")
            w("")
    with open(os.path.join(args.out_dir, "RESULTS.md"), "w", encoding="utf-8") as f:
        f.write("\n".join(lines))
    print(f"report: wrote {os.path.join(args.out_dir, 'RESULTS.md')} and {len(images)} plots "
          f"in {img_dir}")
    for what, value, target, ok in checks:
        mark = "not measured" if ok is None else ("met" if ok else "MISSED")
        print(f"  {what}: {value} (target {target}) {mark}")


if __name__ == "__main__":
    main()
