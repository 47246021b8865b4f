// hodyn/closed_loop/identification_reference.hpp — an exciting reference for
// identifying the inertial parameters (hodyn-demo --scenario identification;
// docs/identification.md, "An exciting trajectory"), any robot type, with
// exact time derivatives of any order up to kMaxDerivative:
//
//   base position  x(t) = c + Σ_axes a_i sin(2π f_i t) e_i,
//   base attitude  R(t) = R_z(ψ) R_y(θ) R_x(φ)  (yaw ψ, pitch θ, roll φ),
//   joint j        q_j(t) = m_j + s_j(t),
//
// each of φ, θ, ψ, s_j a two-sine "multisine" A (0.6 sin(2π f₁ t) + 0.4
// sin(2π f₂ t + ϕ₂)), so |·| ≤ A. The frequencies are f₀ √p for distinct
// primes p (pairwise incommensurate: no two channels ever repeat their
// relative phase, so the stacked regressor does not lose rank to a
// coincidence); the channels' first sines take the small primes, their
// second sines the next ones (ϕ₂ spreads them in phase).
//
// Defaults (IdentificationShape): roll and pitch 5°, yaw 10°, joints 0.5 rad
// (29°) around the middle of their range, f₀ = 0.15 Hz — for the 12-DoF
// robot the sines run from 0.21 Hz (roll, √2) to 1.17 Hz (joint 6, √61);
// base ±0.3 m in x and y, ±0.1 m in z at 0.07–0.11 Hz. Roll and pitch rates
// reach up to 0.25 rad/s and 1 rad/s². Those amplitudes are the largest of a sweep
// that keep every rotor command of the `identification` scenario inside its
// limits for 60 s (8° roll/pitch saturated 1–10 % of the commands: a tilted
// TiltHex holds its position with the rotors' tilt, which runs out).
//
// Why it excites what Table 3 does not: Table 3 keeps roll = pitch = 0, so
// the base turns about z only and its angular momentum about its x and y
// axes (I_xx ω_x, I_yy ω_y) stays near zero: the base's Ixx and Iyy
// combinations enter the momentum balance only through the small motion the
// closed loop adds (on the `mismatch` log the Iyy one came out 22 % off).
// Here ω_x, ω_y swing, and every joint swings about its own axis at two
// frequencies while the others move, which varies the links' inertias seen
// about every axis.
//
// ω (world) of the ZYX angles: ω = ψ̇ e_z + θ̇ R_z e_y + φ̇ R_z R_y e_x
//   = (−sψ θ̇ + cψ cθ φ̇,  cψ θ̇ + sψ cθ φ̇,  ψ̇ − sθ φ̇);
// its derivatives come from running that formula on TaylorSeries
// (hodyn/taylor_series.hpp) built from the angles' exact derivatives
// (dᵏ/dtᵏ sin(wt + ϕ) = wᵏ sin(wt + ϕ + kπ/2)). The twist (ω; v), v = ẋ −
// ω × x, is differentiated the same way.
#pragma once

#include <array>
#include <cmath>
#include <cstddef>
#include <limits>

#include "hodyn/closed_loop/robot_reference.hpp"
#include "hodyn/closed_loop/sine_derivative.hpp"
#include "hodyn/models/robot.hpp"
#include "hodyn/plugin/abi.h"
#include "hodyn/plugin/frames.hpp"
#include "hodyn/pose.hpp"
#include "hodyn/spatial_algebra.hpp"
#include "hodyn/taylor_series.hpp"

namespace hodyn {
namespace closed_loop {

/// How identification_reference() shapes the exciting reference (SI, rad).
struct IdentificationShape {
  static constexpr double kPi = 3.14159265358979323846;
  std::array<double, 3> centre{0.0, 0.0, 1.0};              ///< c (m)
  std::array<double, 3> position_amplitude{0.3, 0.3, 0.1};  ///< a_x, a_y, a_z (m)
  double position_frequency_base = 0.05;       ///< f of axis i: this · √(2, 3, 5)_i (Hz)
  double roll_amplitude = 5.0 * kPi / 180.0;   ///< A_φ (rad)
  double pitch_amplitude = 5.0 * kPi / 180.0;  ///< A_θ (rad)
  double yaw_amplitude = 10.0 * kPi / 180.0;   ///< A_ψ (rad)
  double frequency_base = 0.15;                ///< f₀ (Hz) of the attitude and joint sines
  /// A_j of a joint: min(joint_fraction · half-range, cap) for a bounded
  /// joint, the cap for an unbounded one (revolute rad, prismatic m).
  double joint_fraction = 0.5;
  double revolute_cap = 0.5;    ///< rad (29°)
  double prismatic_cap = 0.04;  ///< m
};

/// The exciting reference of a robot with NumJoints joints (see the file comment).
template <int NumJoints>
struct IdentificationReference {
  static constexpr int kNumJoints = NumJoints;
  /// Highest order answered (base_twist and base_angular_velocity: k + 1 ≤
  /// this); above: NaN.
  static constexpr int kMaxDerivative = 8;
  static constexpr int kNumChannels = 3 + NumJoints;  ///< roll, pitch, yaw, joints
  static constexpr double kPi = 3.14159265358979323846;
  using JointVector = Eigen::Matrix<double, NumJoints, 1>;
  using Series = TaylorSeries<double, kMaxDerivative>;

  /// Two sines A (w₁ · sin(2π f₁ t) + w₂ · sin(2π f₂ t + ϕ₂)).
  struct Multisine {
    double amplitude = 0.0, f1 = 0.0, f2 = 0.0, phase2 = 0.0;
    static constexpr double kWeight1 = 0.6, kWeight2 = 0.4;
    /// dᵏ/dtᵏ at t.
    double derivative(double t, int k) const {
      return amplitude * (kWeight1 * sine_derivative(2.0 * kPi * f1, t, k) +
                          kWeight2 * sine_derivative(2.0 * kPi * f2, t, k, phase2));
    }
  };

  std::array<double, 3> centre{}, position_amplitude{}, position_frequency{};
  Multisine roll, pitch, yaw;
  std::array<double, NumJoints> joint_middle{};
  std::array<Multisine, NumJoints> joint_motion{};

  /// x^(k)(t) (m/sᵏ).
  Vector3<double> base_position(double t, int k = 0) const {
    if (!order_ok(k)) return Vector3<double>::Constant(nan());
    Vector3<double> x;
    for (int i = 0; i < 3; ++i) {
      const auto ii = static_cast<std::size_t>(i);
      x(i) =
          position_amplitude[ii] * sine_derivative(2.0 * kPi * position_frequency[ii], t, k);
      if (k == 0) x(i) += centre[ii];
    }
    return x;
  }

  /// R(t) = R_z(ψ) R_y(θ) R_x(φ).
  Matrix3<double> base_rotation(double t) const {
    const double cf = std::cos(roll.derivative(t, 0)), sf = std::sin(roll.derivative(t, 0));
    const double ct = std::cos(pitch.derivative(t, 0)), st = std::sin(pitch.derivative(t, 0));
    const double cp = std::cos(yaw.derivative(t, 0)), sp = std::sin(yaw.derivative(t, 0));
    Matrix3<double> rz, ry, rx;
    rz << cp, -sp, 0.0, sp, cp, 0.0, 0.0, 0.0, 1.0;
    ry << ct, 0.0, st, 0.0, 1.0, 0.0, -st, 0.0, ct;
    rx << 1.0, 0.0, 0.0, 0.0, cf, -sf, 0.0, sf, cf;
    return rz * ry * rx;
  }

  /// C₁(t) = (R(t), x(t)).
  Pose<double> base_pose(double t) const {
    Pose<double> pose;
    pose.rotation = base_rotation(t);
    pose.translation = base_position(t, 0);
    return pose;
  }

  /// ω^(k)(t), world axes (k + 1 ≤ kMaxDerivative).
  Vector3<double> base_angular_velocity(double t, int k = 0) const {
    if (k < 0 || k + 1 > kMaxDerivative) return Vector3<double>::Constant(nan());
    const std::array<Series, 3> w = angular_velocity_series(t);
    return Vector3<double>(w[0].derivative_value(k), w[1].derivative_value(k),
                           w[2].derivative_value(k));
  }

  /// V₁^(k)(t), the spatial base twist (ω; ẋ − ω × x) differentiated k times
  /// (k + 1 ≤ kMaxDerivative).
  Twist<double> base_twist(double t, int k = 0) const {
    if (k < 0 || k + 1 > kMaxDerivative) return Twist<double>::Constant(nan());
    const std::array<Series, 3> w = angular_velocity_series(t);
    std::array<Series, 3> x, xd;
    for (int i = 0; i < 3; ++i) {
      std::array<double, kMaxDerivative + 1> d{}, dd{};
      for (int m = 0; m <= kMaxDerivative; ++m) {
        d[static_cast<std::size_t>(m)] = base_position(t, m)(i);
        dd[static_cast<std::size_t>(m)] = base_position(t, m + 1)(i);
      }
      x[static_cast<std::size_t>(i)] = Series::from_derivatives(d);
      xd[static_cast<std::size_t>(i)] = Series::from_derivatives(dd);
    }
    // v = ẋ − ω × x, component by component.
    const Series v0 = xd[0] - (w[1] * x[2] - w[2] * x[1]);
    const Series v1 = xd[1] - (w[2] * x[0] - w[0] * x[2]);
    const Series v2 = xd[2] - (w[0] * x[1] - w[1] * x[0]);
    Twist<double> twist;
    twist(0) = w[0].derivative_value(k);
    twist(1) = w[1].derivative_value(k);
    twist(2) = w[2].derivative_value(k);
    twist(3) = v0.derivative_value(k);
    twist(4) = v1.derivative_value(k);
    twist(5) = v2.derivative_value(k);
    return twist;
  }

  /// q_j^(k)(t), j = 0..NumJoints−1 (rad/sᵏ or m/sᵏ).
  double joint(int j, double t, int k = 0) const {
    if (!order_ok(k) || j < 0 || j >= NumJoints) return nan();
    const auto jj = static_cast<std::size_t>(j);
    const double s = joint_motion[jj].derivative(t, k);
    return k == 0 ? joint_middle[jj] + s : s;
  }

  JointVector joints(double t, int k = 0) const {
    JointVector q;
    for (int j = 0; j < NumJoints; ++j) q(j) = joint(j, t, k);
    return q;
  }

  /// ω(t + s) as series in s, degree kMaxDerivative (see the file comment).
  std::array<Series, 3> angular_velocity_series(double t) const {
    const auto series = [t](const Multisine& m, int first) {
      std::array<double, kMaxDerivative + 1> d{};
      for (int k = 0; k <= kMaxDerivative; ++k)
        d[static_cast<std::size_t>(k)] = m.derivative(t, k + first);
      return Series::from_derivatives(d);
    };
    const Series phi_dot = series(roll, 1);
    const Series theta = series(pitch, 0), theta_dot = series(pitch, 1);
    const Series psi = series(yaw, 0), psi_dot = series(yaw, 1);
    Series st, ct, sp, cp;
    sincos(theta, st, ct);
    sincos(psi, sp, cp);
    return {-sp * theta_dot + cp * ct * phi_dot, cp * theta_dot + sp * ct * phi_dot,
            psi_dot - st * phi_dot};
  }

 private:
  static constexpr bool order_ok(int k) { return k >= 0 && k <= kMaxDerivative; }
  static double nan() { return std::numeric_limits<double>::quiet_NaN(); }
};

/// The first primes: the frequencies f₀ √p of the exciting reference's sines.
inline constexpr std::array<int, 40> kIdentificationPrimes{
    2,  3,  5,  7,  11, 13,  17,  19,  23,  29,  31,  37,  41,  43,  47,  53,  59,  61,  67,  71,
    73, 79, 83, 89, 97, 101, 103, 107, 109, 113, 127, 131, 137, 139, 149, 151, 157, 163, 167, 173};

/// The exciting reference of robot `robot` shaped by `shape`: channel c =
/// roll, pitch, yaw, joint 1, …, joint n (C = 3 + n channels) has
/// f₁ = f₀ √p_c, f₂ = f₀ √p_{C+c} and ϕ₂ = 2π c / C; a joint's middle is the
/// middle of its range (0 unbounded), its amplitude as IdentificationShape says.
template <class Robot>
IdentificationReference<Robot::Tree::kNumBodies - 1> identification_reference(
    const DescriptionOf<Robot, double>& robot, const IdentificationShape& shape = {}) {
  constexpr int nj = Robot::Tree::kNumBodies - 1;
  using Reference = IdentificationReference<nj>;
  constexpr int channels = Reference::kNumChannels;
  static_assert(2 * channels <= static_cast<int>(kIdentificationPrimes.size()),
                "too many joints for the prime table");
  Reference r;
  for (std::size_t i = 0; i < 3; ++i) {
    r.centre[i] = shape.centre[i];
    r.position_amplitude[i] = shape.position_amplitude[i];
    r.position_frequency[i] =
        shape.position_frequency_base * std::sqrt(static_cast<double>(kIdentificationPrimes[i]));
  }
  const auto multisine = [&shape](int c, double amplitude) {
    typename Reference::Multisine m;
    m.amplitude = amplitude;
    m.f1 = shape.frequency_base *
           std::sqrt(static_cast<double>(kIdentificationPrimes[static_cast<std::size_t>(c)]));
    m.f2 = shape.frequency_base *
           std::sqrt(
               static_cast<double>(kIdentificationPrimes[static_cast<std::size_t>(channels + c)]));
    m.phase2 = 2.0 * Reference::kPi * static_cast<double>(c) / static_cast<double>(channels);
    return m;
  };
  r.roll = multisine(0, shape.roll_amplitude);
  r.pitch = multisine(1, shape.pitch_amplitude);
  r.yaw = multisine(2, shape.yaw_amplitude);
  for (int j = 0; j < nj; ++j) {
    const auto jj = static_cast<std::size_t>(j);
    const JointLimits& l = robot.limits[jj];
    const double cap = joint_is_prismatic<Robot>(j) ? shape.prismatic_cap : shape.revolute_cap;
    r.joint_middle[jj] = l.bounded ? 0.5 * (l.lower + l.upper) : 0.0;
    r.joint_motion[jj] = multisine(
        3 + j, l.bounded ? std::fmin(shape.joint_fraction * 0.5 * (l.upper - l.lower), cap) : cap);
  }
  return r;
}

/// The reference frame (plugin/abi.h) at time t: x_d^(0..4), R_d, ω_d^(0..3), q_d^(0..4).
template <int NumJoints>
void reference_frame(const IdentificationReference<NumJoints>& r, double t, hodyn_reference& out) {
  static_assert(NumJoints <= HODYN_MAX_JOINTS, "the robot does not fit the plugin ABI");
  static_assert(HODYN_REFERENCE_ORDER < IdentificationReference<NumJoints>::kMaxDerivative,
                "raise IdentificationReference::kMaxDerivative");
  out = hodyn_reference{};
  out.time = t;
  out.num_joints = NumJoints;
  for (int k = 0; k <= HODYN_REFERENCE_ORDER; ++k) {
    const Vector3<double> x = r.base_position(t, k);
    for (int i = 0; i < 3; ++i) out.base_position[k][i] = x(i);
    for (int j = 0; j < NumJoints; ++j) out.joint_position[k][j] = r.joint(j, t, k);
  }
  const auto w = r.angular_velocity_series(t);
  for (int k = 0; k < HODYN_REFERENCE_ORDER; ++k)
    for (int i = 0; i < 3; ++i)
      out.base_angular_velocity[k][i] = w[static_cast<std::size_t>(i)].derivative_value(k);
  plugin::quaternion_from_rotation(r.base_rotation(t), out.base_orientation);
}

}  // namespace closed_loop
}  // namespace hodyn
