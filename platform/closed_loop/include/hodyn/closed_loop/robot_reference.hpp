// hodyn/closed_loop/robot_reference.hpp — the closed loop's own reference for
// any robot (docs/closed-loop.md, "The reference of a robot"), with exact
// time derivatives of any order:
//
//   base position  x(t) = (ρ cos(2πt/T_c), ρ sin(2πt/T_c), h),
//   base yaw       ψ(t) = A_ψ sin(2πt/T_ψ),  roll = pitch = 0,  C₁ = (R_z(ψ), x),
//   joint j        q_j(t) = m_j + a_j sin(2πt/T_j),
//
// m_j the middle of a bounded joint's range (0 for an unbounded joint), a_j =
// min(fraction · half-range, cap) with the cap in rad for a revolute and in m
// for a prismatic joint (an unbounded joint: the cap), T_j = T_q + j ΔT_q.
// Derivatives: dᵏ/dtᵏ sin(wt) = wᵏ sin(wt + kπ/2) (phase taken exactly, k
// mod 4); the spatial twist (ω; v) = (ψ̇ e_z; ẋ − ω × x) differentiates by
// Leibniz: ω^(k) = ψ^(k+1) e_z, v^(k) = x^(k+1) − Σ_{i=0..k} C(k,i) ω^(i) × x^(k−i).
//
// The 12-DoF robot keeps the Table 3 reference (Table3Trajectory); the same
// accessors (base_position, yaw, base_angular_velocity, base_pose,
// base_twist, joints) let the runner and the statistics take either.
#pragma once

#include <array>
#include <cmath>
#include <cstddef>
#include <limits>

#include "hodyn/binomial.hpp"
#include "hodyn/closed_loop/sine_derivative.hpp"
#include "hodyn/models/aerial_manipulator_robot.hpp"
#include "hodyn/models/robot.hpp"
#include "hodyn/plugin/abi.h"
#include "hodyn/plugin/frames.hpp"
#include "hodyn/pose.hpp"
#include "hodyn/reference/table3_trajectory.hpp"
#include "hodyn/spatial_algebra.hpp"
#include "hodyn/tree.hpp"

namespace hodyn {
namespace closed_loop {

/// How robot_reference() shapes a robot's reference (SI units, angles in rad).
struct ReferenceShape {
  static constexpr double kPi = 3.14159265358979323846;
  double circle_radius = 0.5;                 ///< ρ (m)
  double circle_period = 20.0;                ///< T_c (s)
  double altitude = 1.0;                      ///< h (m), the circle's height
  double yaw_amplitude = 15.0 * kPi / 180.0;  ///< A_ψ (rad)
  double yaw_period = 30.0;                   ///< T_ψ (s)
  double joint_fraction = 0.5;                ///< a_j ≤ fraction · half-range
  double revolute_cap = 0.35;                 ///< a_j ≤ this for revolute joints (rad, 20°)
  double prismatic_cap = 0.04;                ///< a_j ≤ this for prismatic joints (m)
  double joint_period = 8.0;                  ///< T_q: joint 1's period (s)
  double joint_period_step = 2.0;  ///< ΔT_q: each further joint's period is this longer (s)
};

/// The reference of a robot with NumJoints joints (see the file comment).
template <int NumJoints>
struct CircleReference {
  static constexpr int kNumJoints = NumJoints;
  static constexpr int kMaxDerivative = 24;  ///< highest order answered; above: NaN
  static constexpr double kPi = 3.14159265358979323846;
  using JointVector = Eigen::Matrix<double, NumJoints, 1>;

  double circle_radius = 0.5, circle_period = 20.0, altitude = 1.0;
  double yaw_amplitude = 0.0, yaw_period = 30.0;
  std::array<double, NumJoints> joint_middle{}, joint_amplitude{}, joint_period{};

  /// x^(k)(t) (m/sᵏ).
  Vector3<double> base_position(double t, int k = 0) const {
    if (!order_ok(k)) return Vector3<double>::Constant(nan());
    const double w = 2.0 * kPi / circle_period;
    Vector3<double> x(circle_radius * sine_derivative(w, t, k, 0.0, 1),
                      circle_radius * sine_derivative(w, t, k), 0.0);
    if (k == 0) x(2) = altitude;
    return x;
  }

  /// ψ^(k)(t) (rad/sᵏ).
  double yaw(double t, int k = 0) const {
    if (!order_ok(k)) return nan();
    return yaw_amplitude * sine_derivative(2.0 * kPi / yaw_period, t, k);
  }

  /// ω^(k)(t) = ψ^(k+1) e_z (world).
  Vector3<double> base_angular_velocity(double t, int k = 0) const {
    return Vector3<double>(0.0, 0.0, yaw(t, k + 1));
  }

  /// C₁(t) = (R_z(ψ), x).
  Pose<double> base_pose(double t) const {
    const double psi = yaw(t, 0);
    const double c = std::cos(psi), s = std::sin(psi);
    Pose<double> pose;
    pose.rotation << c, -s, 0.0, s, c, 0.0, 0.0, 0.0, 1.0;
    pose.translation = base_position(t, 0);
    return pose;
  }

  /// V₁^(k)(t), the spatial base twist (ω; v) differentiated k times.
  Twist<double> base_twist(double t, int k = 0) const {
    if (k < 0 || k + 1 > kMaxDerivative) return Twist<double>::Constant(nan());
    Vector3<double> v = base_position(t, k + 1);
    for (int i = 0; i <= k; ++i)
      v -= binomial<double>(k, i) * base_angular_velocity(t, i).cross(base_position(t, k - i));
    Twist<double> twist;
    twist << 0.0, 0.0, yaw(t, k + 1), v(0), v(1), v(2);
    return twist;
  }

  /// q_j^(k)(t), j = 0..NumJoints−1 (rad/sᵏ or m/sᵏ).
  double joint(int j, double t, int k = 0) const {
    if (!order_ok(k) || j < 0 || j >= NumJoints) return nan();
    const auto jj = static_cast<std::size_t>(j);
    const double q = joint_amplitude[jj] * sine_derivative(2.0 * kPi / joint_period[jj], t, k);
    return k == 0 ? joint_middle[jj] + q : q;
  }

  JointVector joints(double t, int k = 0) const {
    JointVector q;
    for (int j = 0; j < NumJoints; ++j) q(j) = joint(j, t, k);
    return q;
  }

 private:
  static constexpr bool order_ok(int k) { return k >= 0 && k <= kMaxDerivative; }
  static double nan() { return std::numeric_limits<double>::quiet_NaN(); }
};

/// Whether joint j (0-based) of a robot is prismatic (its errors then are in m).
template <class Robot>
constexpr bool joint_is_prismatic(int j) {
  return is_prismatic(Robot::Tree::kJoint[static_cast<std::size_t>(j + 1)]);
}

/// The reference of robot `robot` shaped by `shape` (see the file comment).
template <class Robot>
CircleReference<Robot::Tree::kNumBodies - 1> robot_reference(
    const DescriptionOf<Robot, double>& robot, const ReferenceShape& shape = {}) {
  constexpr int nj = Robot::Tree::kNumBodies - 1;
  CircleReference<nj> r;
  r.circle_radius = shape.circle_radius;
  r.circle_period = shape.circle_period;
  r.altitude = shape.altitude;
  r.yaw_amplitude = shape.yaw_amplitude;
  r.yaw_period = shape.yaw_period;
  for (int j = 0; j < nj; ++j) {
    const auto jj = static_cast<std::size_t>(j);
    const JointLimits& l = robot.limits[jj];
    const double cap = joint_is_prismatic<Robot>(j) ? shape.prismatic_cap : shape.revolute_cap;
    r.joint_middle[jj] = l.bounded ? 0.5 * (l.lower + l.upper) : 0.0;
    r.joint_amplitude[jj] =
        l.bounded ? std::fmin(shape.joint_fraction * 0.5 * (l.upper - l.lower), cap) : cap;
    r.joint_period[jj] = shape.joint_period + shape.joint_period_step * static_cast<double>(j);
  }
  return r;
}

/// The reference frame (plugin/abi.h) at time t: x_d^(0..4), R_d, ω_d^(0..3), q_d^(0..4).
template <int NumJoints>
void reference_frame(const CircleReference<NumJoints>& r, double t, hodyn_reference& out) {
  static_assert(NumJoints <= HODYN_MAX_JOINTS, "the robot does not fit the plugin ABI");
  out = hodyn_reference{};
  out.time = t;
  out.num_joints = NumJoints;
  for (int k = 0; k <= HODYN_REFERENCE_ORDER; ++k) {
    const Vector3<double> x = r.base_position(t, k);
    for (int i = 0; i < 3; ++i) out.base_position[k][i] = x(i);
    for (int j = 0; j < NumJoints; ++j) out.joint_position[k][j] = r.joint(j, t, k);
  }
  for (int k = 0; k < HODYN_REFERENCE_ORDER; ++k) {
    const Vector3<double> w = r.base_angular_velocity(t, k);
    for (int i = 0; i < 3; ++i) out.base_angular_velocity[k][i] = w(i);
  }
  plugin::quaternion_from_rotation(r.base_pose(t).rotation, out.base_orientation);
}

/// The Table 3 reference frame (the 12-DoF robot), as plugin::table3_reference.
inline void reference_frame(const Table3Trajectory& r, double t, hodyn_reference& out) {
  plugin::table3_reference(r, t, out);
}

/// Which reference a robot flies: robot_reference() of its own description;
/// the 12-DoF robot: Table 3.
template <class Robot>
struct ReferenceOf {
  using Type = CircleReference<Robot::Tree::kNumBodies - 1>;
  static Type make(const DescriptionOf<Robot, double>& robot) {
    return robot_reference<Robot>(robot);
  }
};

template <>
struct ReferenceOf<AerialManipulatorRobot> {
  using Type = Table3Trajectory;
  static Type make(const DescriptionOf<AerialManipulatorRobot, double>&) { return Type{}; }
};

}  // namespace closed_loop
}  // namespace hodyn
