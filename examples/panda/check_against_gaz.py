#!/usr/bin/env python3
"""Checks panda.urdf against the published model of Gaz et al. (RA-L 2019).

Usage: check_against_gaz.py PANDA_URDF GAZ_DYN_MODEL_DIR [SAMPLES]

GAZ_DYN_MODEL_DIR is matlab/dyn_model_panda of
github.com/marcocognetti/FrankaEmikaPandaDynModel (GPL-3.0; not part of
hodyn: give the path of a checkout). Its get_MassMatrix.m and
get_GravityVector.m are closed-form expressions (MATLAB Symbolic Toolbox
output) of the authors' own model; this script evaluates them as arithmetic
(MATLAB operators mapped to numpy) without copying them.

Three independent checks at SAMPLES random configurations within the joint
limits (default 200):
  1. frames: the URDF joint chain (origin xyz/rpy, then a rotation q about z)
     equals the modified (Craig) Denavit-Hartenberg chain of Gaz et al.'s
     Load_Franka_DH.m table, T_i = Rx(alpha_{i-1}) Tx(a_{i-1}) Rz(q_i) Tz(d_i),
     which is the frame convention of their parameters;
  2. M(q) from the URDF's inertials (sum of J_i^T M_i J_i, computed here)
     against get_MassMatrix(q);
  3. g(q) from the URDF's masses and CoMs against get_GravityVector(q).
Gaz et al.'s MATLAB model is built from their least-squares estimate of the
dynamic coefficients (pi-hat), not from the feasible parameters p-hat of
Tables VIII/IX that panda.urdf holds (p-hat reproduces the measured torques
about as well, but not pi-hat exactly: e.g. their M_77 is 0.00127 kg m^2, the
p-hat value I7zz + m7 (c7x^2 + c7y^2) is 0.00491). So checks 2 and 3 agree
only to a few percent; as a control, the same M check with every product of
inertia negated (the other sign convention) is printed and must be worse.
Prints the largest differences; exit status 1 if a bound is exceeded
(frames 1e-12; M 6 %, g 2 % of the largest |entry| over all samples; the
control must be worse).

Needs python3 with numpy (Debian: python3-numpy).
"""
import math
import os
import re
import sys
import xml.etree.ElementTree as ET

import numpy as np

G0 = 9.80665  # the value in Gaz et al.'s files
# Modified DH table of Gaz et al. (Load_Franka_DH.m): a_{i-1}, alpha_{i-1}, d_i.
DH_A = [0, 0, 0, 0.0825, -0.0825, 0, 0.088]
DH_ALPHA = [0, -math.pi / 2, math.pi / 2, math.pi / 2, -math.pi / 2, math.pi / 2, math.pi / 2]
DH_D = [0.333, 0, 0.316, 0, 0.384, 0, 0]


def rot_x(a):
    c, s = math.cos(a), math.sin(a)
    return np.array([[1, 0, 0], [0, c, -s], [0, s, c]])


def rot_z(a):
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])


def homogeneous(r, p):
    t = np.eye(4)
    t[:3, :3] = r
    t[:3, 3] = p
    return t


def rpy_matrix(r, p, y):
    c = [math.cos(v) for v in (r, p, y)]
    s = [math.sin(v) for v in (r, p, y)]
    rx = np.array([[1, 0, 0], [0, c[0], -s[0]], [0, s[0], c[0]]])
    ry = np.array([[c[1], 0, s[1]], [0, 1, 0], [-s[1], 0, c[1]]])
    rz = np.array([[c[2], -s[2], 0], [s[2], c[2], 0], [0, 0, 1]])
    return rz @ ry @ rx  # URDF: fixed axes roll, pitch, yaw


def floats(text):
    return [float(v) for v in text.split()]


def read_urdf(path):
    root = ET.parse(path).getroot()
    links = {l.get("name"): l for l in root.findall("link")}
    chain = []
    for j in root.findall("joint"):
        if j.get("type") != "revolute":
            continue
        origin = j.find("origin")
        axis = floats(j.find("axis").get("xyz"))
        assert axis == [0, 0, 1], "every Panda joint turns about its z axis"
        limit = j.find("limit")
        inertial = links[j.find("child").get("link")].find("inertial")
        inertia = inertial.find("inertia").attrib
        i3 = np.array([[inertia["ixx"], inertia["ixy"], inertia["ixz"]],
                       [inertia["ixy"], inertia["iyy"], inertia["iyz"]],
                       [inertia["ixz"], inertia["iyz"], inertia["izz"]]], dtype=float)
        assert floats(inertial.find("origin").get("rpy")) == [0, 0, 0]
        chain.append({
            "xyz": np.array(floats(origin.get("xyz"))),
            "rpy": floats(origin.get("rpy")),
            "lower": float(limit.get("lower")),
            "upper": float(limit.get("upper")),
            "mass": float(inertial.find("mass").get("value")),
            "com": np.array(floats(inertial.find("origin").get("xyz"))),
            "inertia": i3,
        })
    assert len(chain) == 7
    return chain


def urdf_frames(chain, q):
    t = np.eye(4)
    frames = []
    for joint, qi in zip(chain, q):
        t = t @ homogeneous(rpy_matrix(*joint["rpy"]), joint["xyz"]) @ homogeneous(rot_z(qi), np.zeros(3))
        frames.append(t)
    return frames


def dh_frames(q):
    t = np.eye(4)
    frames = []
    for i, qi in enumerate(q):
        t = (t @ homogeneous(rot_x(DH_ALPHA[i]), np.zeros(3))
             @ homogeneous(np.eye(3), [DH_A[i], 0, 0])
             @ homogeneous(rot_z(qi), np.zeros(3))
             @ homogeneous(np.eye(3), [0, 0, DH_D[i]]))
        frames.append(t)
    return frames


def mass_and_gravity(chain, q):
    """M(q) = sum_i J_i^T diag(m_i I, R I_c R^T) J_i at the CoMs; g(q) = -sum_i m_i J_v,i^T g_vec."""
    frames = urdf_frames(chain, q)
    n = len(chain)
    mass = np.zeros((n, n))
    grav = np.zeros(n)
    g_vec = np.array([0, 0, -G0])
    for i, joint in enumerate(chain):
        r, p = frames[i][:3, :3], frames[i][:3, 3]
        com = p + r @ joint["com"]
        jv = np.zeros((3, n))
        jw = np.zeros((3, n))
        for k in range(i + 1):
            z = frames[k][:3, 2]
            jw[:, k] = z
            jv[:, k] = np.cross(z, com - frames[k][:3, 3])
        inertia_world = r @ joint["inertia"] @ r.T
        mass += joint["mass"] * jv.T @ jv + jw.T @ inertia_world @ jw
        grav -= joint["mass"] * jv.T @ g_vec
    return mass, grav


def matlab_function(path):
    """Evaluates a generated MATLAB function of q (assignments only) as numpy arithmetic."""
    text = open(path).read()
    text = "\n".join(line.split("%")[0] for line in text.splitlines())
    text = re.sub(r"\.\.\.\s*\n", " ", text)
    body = text[text.index(")", text.index("function")) + 1:]
    statements = [s.strip() for s in re.split(r";\s*\n", body) if s.strip()]
    code = []
    for s in statements:
        s = s.rstrip(";")
        name, expr = s.split("=", 1)
        expr = expr.replace(".*", "*").replace(".^", "**").replace("./", "/")
        expr = re.sub(r"\bq\((\d)\)", lambda m: f"q[{int(m.group(1)) - 1}]", expr)
        expr = re.sub(r"(\w+_hat)\((\d+)\)", lambda m: f"{m.group(1)}[{int(m.group(2)) - 1}]", expr)
        if expr.strip().startswith("["):
            inner = expr.strip()[1:-1]
            rows = [r for r in inner.split(";") if r.strip()]
            expr = "np.array([" + ",".join("[" + r + "]" for r in rows) + "],dtype=float)"
            if all("," not in r for r in rows):
                expr += ".ravel()"
        code.append(f"{name.strip()} = {expr}")
    last = statements[-1].split("=", 1)[0].strip()
    compiled = compile("\n".join(code), path, "exec")

    def evaluate(q):
        scope = {"np": np, "cos": np.cos, "sin": np.sin, "q": q}
        exec(compiled, scope)  # noqa: S102 - the published file, arithmetic only
        return scope[last]

    return evaluate


def main():
    if len(sys.argv) not in (3, 4):
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    chain = read_urdf(sys.argv[1])
    gaz_mass = matlab_function(os.path.join(sys.argv[2], "get_MassMatrix.m"))
    gaz_gravity = matlab_function(os.path.join(sys.argv[2], "get_GravityVector.m"))
    samples = int(sys.argv[3]) if len(sys.argv) == 4 else 200
    rng = np.random.default_rng(16)
    worst = {"frames": 0.0, "mass": 0.0, "mass_rel": 0.0, "gravity": 0.0, "gravity_rel": 0.0,
             "mass_negated_products": 0.0}
    negated = [dict(j, inertia=2 * np.diag(np.diag(j["inertia"])) - j["inertia"]) for j in chain]
    for _ in range(samples):
        q = np.array([rng.uniform(j["lower"], j["upper"]) for j in chain])
        for a, b in zip(urdf_frames(chain, q), dh_frames(q)):
            worst["frames"] = max(worst["frames"], np.abs(a - b).max())
        mass, grav = mass_and_gravity(chain, q)
        ref_mass = gaz_mass(q)
        ref_grav = gaz_gravity(q)
        worst["mass"] = max(worst["mass"], np.abs(mass - ref_mass).max())
        worst["mass_negated_products"] = max(worst["mass_negated_products"],
                                             np.abs(mass_and_gravity(negated, q)[0] - ref_mass).max())
        worst["mass_rel"] = max(worst["mass_rel"], np.abs(ref_mass).max())
        worst["gravity"] = max(worst["gravity"], np.abs(grav - ref_grav).max())
        worst["gravity_rel"] = max(worst["gravity_rel"], np.abs(ref_grav).max())
    worst["mass_rel"] = worst["mass"] / worst["mass_rel"]  # relative to the largest entry seen
    worst["gravity_rel"] = worst["gravity"] / worst["gravity_rel"]
    print(f"{samples} configurations within the joint limits")
    print(f"frames:  max |T_urdf - T_dh|          = {worst['frames']:.3e}")
    print(f"M(q):    max |M - M_gaz|              = {worst['mass']:.3e} kg m^2"
          f" ({worst['mass_rel']:.3e} of max |M_gaz| seen)")
    print(f"g(q):    max |g - g_gaz|              = {worst['gravity']:.3e} N m"
          f" ({worst['gravity_rel']:.3e} of max |g_gaz| seen)")
    print(f"control: products of inertia negated: max |M - M_gaz| = {worst['mass_negated_products']:.3e} kg m^2")
    ok = (worst["frames"] < 1e-12 and worst["mass_rel"] < 0.06 and worst["gravity_rel"] < 0.02
          and worst["mass_negated_products"] > worst["mass"])
    print("OK" if ok else "MISMATCH")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
