#!/usr/bin/env python3
"""Fig. 3-style plots of the hodyn-paper-sim CSV (seed 000 Sec. 7).

Usage: plot_paper_sim.py CSV OUTDIR

Writes into OUTDIR:
  paper-sim-inputs.png     reference base position, yaw and joints, derivative orders 0..5
  paper-sim-outputs.png    inverse dynamics: Q1^(r) moment and force, tau^(r), r = 0..5
  paper-sim-recovered.png  forward dynamics: recovered V1^(r+1), q^(r+2) (dashed) over
                           the reference (solid), r = 0..5
  paper-sim-errors.png     relative round-trip error per order on a log axis

Needs python3 with numpy and matplotlib (Debian: python3-matplotlib).
"""
import io
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from PIL import Image  # noqa: E402  (Pillow, a dependency of matplotlib)

ORDERS = range(6)
DPI = 90
JOINT_LABELS = [f"q{j + 2}" for j in range(6)]  # paper numbering: q2..q7
SUFFIX = ["", "/s", "/s²", "/s³", "/s⁴", "/s⁵", "/s⁶", "/s⁷"]
# Bounds of hodyn-paper-sim --check (tools/paper-simulation/paper_simulation.cpp).
BOUNDS = [3e-10, 3e-10, 5e-7, 5e-7, 1e-4, 1e-4]


def load(path):
    with open(path) as f:
        names = f.readline().strip().split(",")
    data = np.loadtxt(path, delimiter=",", skiprows=1, ndmin=2)
    return {name: data[:, i] for i, name in enumerate(names)}


def thin(d, points=750):
    """Every n-th sample, for the smooth curves (keeps the PNGs small)."""
    step = max(1, len(d["t"]) // points)
    return {name: column[::step] for name, column in d.items()}


def deriv(k):
    return "" if k == 0 else f"^({k})"


def dname(base, k):
    return base if k == 0 else f"{base}_d{k}"


def style(ax, title, ylabel=None, xlabel=False):
    ax.set_title(title, fontsize=9)
    ax.grid(True, alpha=0.3)
    ax.tick_params(labelsize=7)
    ax.yaxis.get_offset_text().set_fontsize(7)
    if ylabel:
        ax.set_ylabel(ylabel, fontsize=8)
    if xlabel:
        ax.set_xlabel("t (s)", fontsize=8)


def save(fig, outdir, name):
    """PNG with a 256-colour palette: the plots are meant to be committed (< 200 KB)."""
    path = os.path.join(outdir, name)
    buffer = io.BytesIO()
    fig.savefig(buffer, dpi=DPI, format="png")
    plt.close(fig)
    buffer.seek(0)
    image = Image.open(buffer).convert("RGB")
    image.quantize(colors=256, method=Image.Quantize.MEDIANCUT).save(path, optimize=True)
    print(f"  wrote {path} ({os.path.getsize(path) // 1024} KiB)")


def plot_inputs(d, outdir):
    t = d["t"]
    fig, axes = plt.subplots(3, 6, figsize=(18, 8.5), sharex=True)
    for k in ORDERS:
        ax = axes[0, k]
        for c, color in zip("xyz", ["C0", "C1", "C2"]):
            ax.plot(t, d[dname(c, k)], color=color, lw=1.2, label=c)
        style(ax, f"base position x{deriv(k)}", f"m{SUFFIX[k]}")
        ax = axes[1, k]
        ax.plot(t, np.degrees(d[dname("yaw", k)]), color="C3", lw=1.2, label="ψ")
        style(ax, f"base yaw ψ{deriv(k)}", f"deg{SUFFIX[k]}")
        ax = axes[2, k]
        for j in range(6):
            ax.plot(t, np.degrees(d[dname(f"q{j + 1}", k)]), lw=1.0, label=JOINT_LABELS[j])
        style(ax, f"joints q{deriv(k)}", f"deg{SUFFIX[k]}", xlabel=True)
    axes[0, 0].legend(fontsize=7, loc="lower left")
    axes[1, 0].legend(fontsize=7, loc="lower left")
    axes[2, 0].legend(fontsize=7, loc="upper left", ncol=2)
    fig.suptitle("Inputs: Table 3 reference motion and its time derivatives, orders 0..5 "
                 "(roll = pitch = 0)", fontsize=12)
    fig.tight_layout(rect=(0, 0, 1, 0.96))
    save(fig, outdir, "paper-sim-inputs.png")


def plot_outputs(d, outdir):
    t = d["t"]
    fig, axes = plt.subplots(3, 6, figsize=(18, 8.5), sharex=True)
    for r in ORDERS:
        ax = axes[0, r]
        for c in ["nx", "ny", "nz"]:
            ax.plot(t, d[f"Q1_r{r}_{c}"], lw=1.2, label=c)
        style(ax, f"Q1{deriv(r)} moment (world, about origin)", f"N·m{SUFFIX[r]}")
        ax = axes[1, r]
        for c in ["fx", "fy", "fz"]:
            ax.plot(t, d[f"Q1_r{r}_{c}"], lw=1.2, label=c)
        style(ax, f"Q1{deriv(r)} force (world)", f"N{SUFFIX[r]}")
        ax = axes[2, r]
        for j in range(6):
            ax.plot(t, d[f"tau_r{r}_{j + 1}"], lw=1.0, label=f"τ{j + 2}")
        style(ax, f"joint torques τ{deriv(r)}", f"N·m{SUFFIX[r]}", xlabel=True)
    for row in range(3):
        axes[row, 0].legend(fontsize=7, loc="best", ncol=2 if row == 2 else 1)
    fig.suptitle("Outputs of inverse dynamics (H-GRNE-FBS) of order 5: spatial base wrench Q1^(r) "
                 "and joint torques τ^(r)", fontsize=12)
    fig.tight_layout(rect=(0, 0, 1, 0.96))
    save(fig, outdir, "paper-sim-outputs.png")


def plot_recovered(d, outdir):
    t = d["t"]
    fig, axes = plt.subplots(3, 6, figsize=(18, 8.5), sharex=True)
    groups = [
        (["wx", "wy", "wz"], "V1 angular ω", "rad"),  # V1^(k): rad/s^(k+1), m/s^(k+1)
        (["vx", "vy", "vz"], "V1 linear v", "m"),
    ]
    for r in ORDERS:
        k = r + 1
        for row, (comps, label, unit) in enumerate(groups):
            ax = axes[row, r]
            for i, c in enumerate(comps):
                color = f"C{i}"
                ax.plot(t, d[f"V1_d{k}_{c}"], color=color, lw=3.0, alpha=0.35,
                        label=f"{c} reference")
                ax.plot(t, d[f"V1rec_d{k}_{c}"], color=color, lw=1.0, ls="--",
                        label=f"{c} forward dyn.")
            style(ax, f"{label}{deriv(k)}", f"{unit}{SUFFIX[k + 1]}")
        ax = axes[2, r]
        for j in range(6):
            color = f"C{j}"
            ax.plot(t, np.degrees(d[f"q{j + 1}_d{r + 2}"]), color=color, lw=3.0, alpha=0.35)
            ax.plot(t, np.degrees(d[f"q{j + 1}rec_d{r + 2}"]), color=color, lw=1.0, ls="--",
                    label=JOINT_LABELS[j])
        style(ax, f"joints q^({r + 2})", f"deg{SUFFIX[r + 2]}", xlabel=True)
    axes[0, 0].legend(fontsize=6, loc="best", ncol=1)
    axes[2, 0].legend(fontsize=7, loc="best", ncol=2)
    fig.suptitle("Forward dynamics (H-GABI-FBS) of order 5 fed with the inverse-dynamics outputs: "
                 "recovered (dashed) over reference (solid, wide), column r = order", fontsize=12)
    fig.tight_layout(rect=(0, 0, 1, 0.96))
    save(fig, outdir, "paper-sim-recovered.png")


def plot_errors(d, outdir):
    t = d["t"]
    fig, axes = plt.subplots(1, 2, figsize=(14, 5), sharey=True)
    for ax, frame, title in [(axes[0], "world", "world-frame input Q1^(k)"),
                             (axes[1], "base", "base-frame input d^k/dt^k (Ad_C1^T Q1)")]:
        for r in ORDERS:
            e = np.maximum(d[f"err_{frame}_r{r}"], 1e-18)
            ax.semilogy(t, e, lw=0.8, color=f"C{r}", label=f"r = {r}")
        for r in (0, 2, 4):  # one bound per pair of orders
            ax.axhline(BOUNDS[r], color="k", lw=0.8, ls=":")
            ax.text(t[-1], BOUNDS[r] * 1.3, f"bound r = {r}, {r + 1}", fontsize=7, ha="right",
                    va="bottom", bbox={"facecolor": "white", "alpha": 0.8, "linewidth": 0})
        ax.set_ylim(1e-13, 1e-3)
        style(ax, f"Round-trip error, {title}", "relative error", xlabel=True)
        ax.tick_params(labelsize=8)
    axes[0].legend(fontsize=8, loc="upper left", ncol=3, title="order r (dotted: --check bounds)",
                   title_fontsize=8)
    fig.suptitle("|FD(ID(x))^(r) − x^(r)| / |x^(r)| with x^(r) = (V1^(r+1), q^(r+2)), "
                 "per sample, along the Table 3 motion", fontsize=11)
    fig.tight_layout(rect=(0, 0, 1, 0.94))
    save(fig, outdir, "paper-sim-errors.png")


def main(argv):
    if len(argv) != 3 or argv[1] in ("-h", "--help"):
        print(__doc__)
        return 0 if len(argv) == 2 else 2
    csv, outdir = argv[1], argv[2]
    os.makedirs(outdir, exist_ok=True)
    d = load(csv)
    smooth = thin(d)
    plot_inputs(smooth, outdir)
    plot_outputs(smooth, outdir)
    plot_recovered(smooth, outdir)
    plot_errors(d, outdir)  # every sample: the worst case must show
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
