#!/usr/bin/env python3
"""Plots of one hodyn-demo closed-loop run.

Usage: plot_closed_loop.py CSV OUTDIR SCENARIO [--rotor-limits MIN MAX]
                           [--torque-limit U] [--prismatic J[,J...]]

Any number of joints (columns q1.., u1..) and rotors (rotor1..). Without
options the limits drawn are the 12-DoF robot's; --prismatic names the
1-based joints plotted in mm (the others in deg).

Writes into OUTDIR:
  closed_loop_SCENARIO_tracking.png    base path (x-y), z, yaw and joints: reference vs actual
  closed_loop_SCENARIO_errors.png      base position, attitude and joint errors (log axis)
  closed_loop_SCENARIO_propellers.png  propeller speeds (actual, commanded) and the limits
  closed_loop_SCENARIO_torques.png     motor torques and the limit

Needs python3 with numpy and matplotlib (Debian: python3-matplotlib).
"""
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

DPI = 90
DEG = 180.0 / np.pi
ROTOR_LIMITS = (100.0, 1200.0)  # rad/s, models/actuation.hpp defaults
TORQUE_LIMIT = 5.0  # N m


def count(names, stem):
    n = 0
    while f"{stem}{n + 1}" in names:
        n += 1
    return n


def main():
    args = sys.argv[1:]
    if len(args) < 3:
        print(__doc__)
        return 2
    csv, outdir, scenario = args[:3]
    rotor_limits, torque_limit, prismatic = ROTOR_LIMITS, TORQUE_LIMIT, set()
    rest = args[3:]
    try:
        while rest:
            if rest[0] == "--rotor-limits":
                rotor_limits, rest = (float(rest[1]), float(rest[2])), rest[3:]
            elif rest[0] == "--torque-limit":
                torque_limit, rest = float(rest[1]), rest[2:]
            elif rest[0] == "--prismatic":
                prismatic, rest = {int(j) for j in rest[1].split(",")}, rest[2:]
            else:
                raise ValueError(rest[0])
    except (IndexError, ValueError) as e:
        print(f"plot_closed_loop.py: bad option {e}", file=sys.stderr)
        return 2
    if len(args) == 3:
        torque_limit = TORQUE_LIMIT
    elif "--torque-limit" not in args:
        torque_limit = None
    d = np.genfromtxt(csv, delimiter=",", names=True)
    t = d["t"]
    nj, nr = count(d.dtype.names, "q"), count(d.dtype.names, "rotor")
    scale = {j: (1e3 if j in prismatic else DEG) for j in range(1, nj + 1)}
    unit = "deg; " + ", ".join(f"q{j} mm" for j in sorted(prismatic)) if prismatic else "deg"
    prefix = os.path.join(outdir, f"closed_loop_{scenario}")

    fig, ax = plt.subplots(2, 2, figsize=(11, 7.5))
    ax[0, 0].plot(d["x_ref"], d["y_ref"], "k-", lw=2.5, alpha=0.35, label="reference")
    ax[0, 0].plot(d["x"], d["y"], "C0-", lw=1.0, label="actual")
    ax[0, 0].set_aspect("equal")
    ax[0, 0].set(xlabel="x (m)", ylabel="y (m)", title="base path")
    ax[0, 0].legend()
    ax[0, 1].plot(t, d["z_ref"] * 1e3, "k-", lw=2.5, alpha=0.35, label="z reference")
    ax[0, 1].plot(t, d["z"] * 1e3, "C0-", lw=1.0, label="z")
    ax[0, 1].set(xlabel="t (s)", ylabel="z (mm)", title="base height")
    ax[0, 1].legend()
    ax[1, 0].plot(t, d["yaw_ref"] * DEG, "k-", lw=2.5, alpha=0.35, label="reference")
    ax[1, 0].plot(t, d["yaw"] * DEG, "C0-", lw=1.0, label="actual")
    ax[1, 0].set(xlabel="t (s)", ylabel="yaw (deg)", title="base yaw")
    ax[1, 0].legend()
    for j in range(1, nj + 1):
        ax[1, 1].plot(t, d[f"q{j}_ref"] * scale[j], "k-", lw=2.5, alpha=0.3)
        ax[1, 1].plot(t, d[f"q{j}"] * scale[j], lw=1.0, label=f"q{j}")
    ax[1, 1].set(xlabel="t (s)", ylabel=f"joint ({unit})", title="joints (grey: reference)")
    ax[1, 1].legend(ncol=3, fontsize=8)
    fig.suptitle(f"hodyn closed loop, scenario {scenario}: reference vs actual")
    fig.tight_layout()
    fig.savefig(prefix + "_tracking.png", dpi=DPI)
    plt.close(fig)

    floor = 1e-9
    fig, ax = plt.subplots(3, 1, figsize=(10, 8.5), sharex=True)
    pos = np.sqrt((d["x_ref"] - d["x"]) ** 2 + (d["y_ref"] - d["y"]) ** 2 + (d["z_ref"] - d["z"]) ** 2)
    att = np.sqrt(d["att_err_x"] ** 2 + d["att_err_y"] ** 2 + d["att_err_z"] ** 2)
    ax[0].semilogy(t, np.maximum(pos * 1e3, floor), "C0")
    ax[0].set(ylabel="|x_d − x| (mm)", title="base position error")
    ax[1].semilogy(t, np.maximum(att * DEG, floor), "C1")
    ax[1].set(ylabel="|log(R_d Rᵀ)| (deg)", title="attitude error")
    for j in range(1, nj + 1):
        ax[2].semilogy(t, np.maximum(np.abs(d[f"q{j}_ref"] - d[f"q{j}"]) * scale[j], floor), lw=0.8,
                       label=f"q{j}")
    ax[2].set(xlabel="t (s)", ylabel=f"|q_d − q| ({unit})", title="joint errors")
    ax[2].legend(ncol=6, fontsize=8)
    for a in ax:
        a.grid(True, which="both", alpha=0.3)
    fig.suptitle(f"hodyn closed loop, scenario {scenario}: tracking errors")
    fig.tight_layout()
    fig.savefig(prefix + "_errors.png", dpi=DPI)
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(10, 5))
    for i in range(1, nr + 1):
        line = ax.plot(t, d[f"rotor{i}"], lw=1.0, label=f"ω{i}")[0]
        ax.plot(t, d[f"rotor{i}_cmd"], lw=0.5, ls=":", color=line.get_color())
    for lim in rotor_limits:
        ax.axhline(lim, color="r", lw=0.8, ls="--")
    ax.set(xlabel="t (s)", ylabel="propeller speed (rad/s)",
           title=f"scenario {scenario}: propeller speeds (dotted: commanded; red: limits)")
    ax.legend(ncol=6, fontsize=8)
    fig.tight_layout()
    fig.savefig(prefix + "_propellers.png", dpi=DPI)
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(10, 5))
    for j in range(1, nj + 1):
        ax.plot(t, d[f"u{j}"], lw=1.0, label=f"u{j}" + (" (N)" if j in prismatic else ""))
    if torque_limit is not None:
        for lim in (-torque_limit, torque_limit):
            ax.axhline(lim, color="r", lw=0.8, ls="--")
    ax.set(xlabel="t (s)", ylabel="motor torque (N m" + ("; N if prismatic)" if prismatic else ")"),
           title=f"scenario {scenario}: motor torques")
    ax.legend(ncol=6, fontsize=8)
    fig.tight_layout()
    fig.savefig(prefix + "_torques.png", dpi=DPI)
    plt.close(fig)
    return 0


if __name__ == "__main__":
    sys.exit(main())
