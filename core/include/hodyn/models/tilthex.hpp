// hodyn/models/tilthex.hpp — propeller geometry of the TiltHex base (seed 000 eq. 28).
//
// Propeller i = 1..6 sits at C^{B1}_{p_i} = R_z((2−i)π/3) T_x(a) R_x(α_i) R_y(β)
// in the base frame and produces, in its own frame, the wrench
// (0, 0, c_{d,i}, 0, 0, c_f) ω_i². In the base frame that is
// Ad_{C_{p_i}}⁻ᵀ (0,0,c_{d,i}, 0,0,c_f) ω_i², so the body-frame propulsion
// wrench is W_prop = A · (ω_1², …, ω_6²) with the 6x6 allocation matrix A.
//
// The paper gives no numbers for a, α, β, c_f, c_d, and read literally (equal
// α, β and c_d for all i) A has rank 3 (digest 000, erratum E5). hodyn's
// defaults are those of the TiltHex literature: a = 0.4 m, α_i = (−1)^(i+1) 20°
// (alternating tilt), β = 10°, c_f = 1.1e-5 N s², and c_{d,i} = (−1)^(i+1)
// 1.8e-7 N m s² (drag torque alternating with the spin direction: odd
// propellers spin clockwise seen from above). This gives a full-rank A;
// docs/aerial-manipulator.md reports its singular values and condition number.
//
// As rotors (models/rotor_set.hpp, docs/rotors.md): propeller i is the rotor at
// the translation of C_{p_i} with thrust axis its third column a_i and spin
// s_i = −sign(c_{d,i}) — odd propellers clockwise (s = −1) — since
// Ad_{C_{p_i}}⁻ᵀ (0,0,c_{d,i}, 0,0,c_f) = (p_i × c_f a_i + c_{d,i} a_i ; c_f a_i).
// tilthex_allocation() computes A through those rotors; the full rotor set
// with speed limits and time constant is tilthex_rotor_set()
// (models/tilthex_rotor_set.hpp).
#pragma once

#include <cmath>

#include <Eigen/Geometry>

#include "hodyn/models/rotor_set.hpp"
#include "hodyn/pose.hpp"
#include "hodyn/spatial_algebra.hpp"

namespace hodyn {

struct TiltHexParameters {
  double arm_length = 0.4;              ///< a (m)
  double tilt_alpha = 20.0 * 3.14159265358979323846 / 180.0;  ///< |α| (rad)
  double tilt_beta = 10.0 * 3.14159265358979323846 / 180.0;   ///< β (rad)
  double thrust_coefficient = 1.1e-5;   ///< c_f (N s²)
  double drag_coefficient = 1.8e-7;     ///< |c_d| (N m s²)
  bool alternate_tilt = true;           ///< α_i = (−1)^(i+1) α; false: the literal eq. 28
  bool alternate_drag = true;           ///< c_{d,i} = (−1)^(i+1) c_d; false: the literal eq. 28
};

/// Pose of propeller i (1..6) in the base frame, C^{B1}_{p_i} of eq. 28.
template <class Scalar = double>
Pose<Scalar> tilthex_propeller_pose(const TiltHexParameters& p, int i) {
  const double pi = 3.14159265358979323846;
  const double sign = (i % 2 == 1) ? 1.0 : -1.0;
  const double alpha = p.alternate_tilt ? sign * p.tilt_alpha : p.tilt_alpha;
  const double psi = (2 - i) * pi / 3.0;
  const auto rot = [](int axis, double angle) {
    Pose<Scalar> c;
    c.rotation = Eigen::AngleAxis<double>(angle, Eigen::Vector3d::Unit(axis))
                     .toRotationMatrix()
                     .template cast<Scalar>();
    return c;
  };
  const Pose<Scalar> tx = Pose<Scalar>::from_translation(
      Vector3<Scalar>(Scalar(p.arm_length), Scalar(0), Scalar(0)));
  return rot(2, psi) * tx * rot(0, alpha) * rot(1, p.tilt_beta);
}

/// Propeller i (1..6) as a Rotor: position and thrust axis from the eq. 28
/// pose, spin −1 where c_{d,i} = +c_d (odd i, or every i when !alternate_drag)
/// and +1 where c_{d,i} = −c_d, coefficients c_f and c_d. The speed limits and
/// time constant are not geometry and stay zero (tilthex_rotor_set() sets them).
template <class Scalar = double>
Rotor<Scalar> tilthex_rotor(const TiltHexParameters& p, int i) {
  const Pose<Scalar> c = tilthex_propeller_pose<Scalar>(p, i);
  Rotor<Scalar> r;
  r.position = c.translation;
  r.axis = c.rotation.col(2);
  r.spin = (p.alternate_drag && i % 2 == 0) ? 1 : -1;
  r.thrust_coefficient = Scalar(p.thrust_coefficient);
  r.drag_coefficient = Scalar(p.drag_coefficient);
  return r;
}

/// The allocation matrix A: base-frame propulsion wrench (moment; force) = A ω².
/// Column i−1 is rotor_wrench_per_speed_squared(tilthex_rotor(p, i)), which
/// equals Ad_{C_{p_i}}⁻ᵀ (0,0,c_{d,i}, 0,0,c_f) operation for operation.
template <class Scalar = double>
Matrix6<Scalar> tilthex_allocation(const TiltHexParameters& p = {}) {
  Matrix6<Scalar> a;
  for (int i = 1; i <= 6; ++i)
    a.col(i - 1) = rotor_wrench_per_speed_squared(tilthex_rotor<Scalar>(p, i));
  return a;
}

}  // namespace hodyn
