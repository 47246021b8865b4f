#!/usr/bin/env python3
"""Seed 001 Fig. 1 (right) to Fig. 5-style plots of the hodyn-panda-sim CSV.

Usage: plot_panda_sim.py CSV OUTDIR

Writes into OUTDIR:
  panda_trajectory.png        joint positions and velocities along Gaz et al.'s
                              exciting trajectory (seed 001 Fig. 1, right)
  panda_inverse_dynamics.png  Q, Q', Q'', Q''' of the 7 joints (seed 001 Figs. 2-5)
  panda_errors.png            per sample, the largest difference between the
                              recursive Q^(k) and the closed form, central
                              differences of Q, and of Q^(k-1), relative to
                              max_t |Q^(k)|, with the --check bounds

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

JOINTS = range(1, 8)
ORDERS = range(4)
DPI = 90
# Bounds of hodyn-panda-sim --check (tools/panda-simulation/panda_simulation.cpp).
BOUND_CLOSED_FORM = [1e-13, 1e-13, 1e-13, 1e-13]
BOUND_DIFF_Q = [None, 2e-7, 1e-6, 4e-5]
BOUND_CHAIN = [None, 1e-6, 1e-6, 1e-6]
TITLES = ["Q (N m)", "Q' (N m/s)", "Q'' (N m/s²)", "Q''' (N m/s³)"]


def load(path):
    with open(path) as f:
        names = f.readline().strip().split(",")
    data = np.loadtxt(path, delimiter=",", skiprows=1, ndmin=2)
    return {name: data[:, i] for i, name in enumerate(names)}


def style(ax, title, xlabel=False):
    ax.set_title(title, fontsize=9)
    ax.grid(True, alpha=0.3)
    ax.tick_params(labelsize=7)
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


def plot_trajectory(d, outdir):
    t = d["t"]
    fig, axes = plt.subplots(2, 1, figsize=(8, 6), sharex=True)
    for j in JOINTS:
        axes[0].plot(t, d[f"q0_{j}"], lw=1, label=f"q{j}")
        axes[1].plot(t, d[f"q1_{j}"], lw=1, label=f"q{j}")
    style(axes[0], "joint positions q (rad) — Gaz et al. 2019, Table II")
    style(axes[1], "joint velocities q' (rad/s)", xlabel=True)
    axes[0].legend(fontsize=7, ncol=7, loc="upper center")
    fig.tight_layout()
    save(fig, outdir, "panda_trajectory.png")


def plot_inverse_dynamics(d, outdir):
    t = d["t"]
    fig, axes = plt.subplots(2, 2, figsize=(12, 7.5), sharex=True)
    for k, ax in zip(ORDERS, axes.flat):
        for j in JOINTS:
            ax.plot(t, d[f"Q{k}_{j}"], lw=1, label=f"joint {j}")
        style(ax, f"{TITLES[k]} — recursive inverse dynamics of order 3", xlabel=k >= 2)
    axes[0, 0].legend(fontsize=7, ncol=4)
    fig.tight_layout()
    save(fig, outdir, "panda_inverse_dynamics.png")


def plot_errors(d, outdir):
    t = d["t"]
    fig, axes = plt.subplots(1, 3, figsize=(15, 4.2), sharex=True)
    tiny = 1e-18  # exact agreement would vanish from a log axis
    panels = [
        ("closed form − recursive", "err_closed_form_", ORDERS, BOUND_CLOSED_FORM),
        ("central differences of Q − recursive", "err_diff_q_", ORDERS[1:], BOUND_DIFF_Q),
        ("central differences of Q^(k−1) − recursive", "err_diff_chain_", ORDERS[1:], BOUND_CHAIN),
    ]
    for ax, (title, prefix, orders, bounds) in zip(axes, panels):
        for k in orders:
            scale = max(np.abs(d[f"Q{k}_{j}"]).max() for j in JOINTS)
            line, = ax.semilogy(t, np.maximum(d[f"{prefix}{k}"] / scale, tiny), lw=0.8,
                                label=f"k = {k}")
            ax.axhline(bounds[k], color=line.get_color(), ls="--", lw=0.8)
        style(ax, f"{title} (relative to max |Q^(k)|)", xlabel=True)
        ax.legend(fontsize=7)
    fig.tight_layout()
    save(fig, outdir, "panda_errors.png")


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    d = load(sys.argv[1])
    os.makedirs(sys.argv[2], exist_ok=True)
    plot_trajectory(d, sys.argv[2])
    plot_inverse_dynamics(d, sys.argv[2])
    plot_errors(d, sys.argv[2])
    return 0


if __name__ == "__main__":
    sys.exit(main())
