// hodyn/plugin/frames.hpp — conversions between the ABI frames (abi.h) and
// hodyn's types: quaternions, the spatial base twist, Table 3 references.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

#include <Eigen/Geometry>

#include "hodyn/plugin/abi.h"
#include "hodyn/pose.hpp"
#include "hodyn/reference/table3_trajectory.hpp"
#include "hodyn/spatial_algebra.hpp"
#include "hodyn/status.hpp"

namespace hodyn {
namespace plugin {

/// Rotation of a (w, x, y, z) quaternion. A quaternion whose norm is off by
/// more than 10 % is not a measurement (kSensorOutOfRange); otherwise it is
/// normalised first.
inline Status rotation_from_quaternion(const double (&q)[4], Matrix3<double>& r) noexcept {
  const double n = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  if (!std::isfinite(n)) return Status::kNonFiniteInput;
  if (!(n > 0.9 && n < 1.1)) return Status::kSensorOutOfRange;
  r = Eigen::Quaterniond(q[0] / n, q[1] / n, q[2] / n, q[3] / n).toRotationMatrix();
  return Status::kOk;
}

/// std::isfinite(x) from the bit pattern (exponent not all ones): integer
/// code, where a double comparison is a library call (Cortex-M4F).
inline bool finite_bits(double x) noexcept {
  std::uint64_t bits = 0;
  std::memcpy(&bits, &x, sizeof bits);
  return (bits & 0x7FF0000000000000u) != 0x7FF0000000000000u;
}
/// The same for a float (float_frames.hpp).
inline bool finite_bits(float x) noexcept {
  std::uint32_t bits = 0;
  std::memcpy(&bits, &x, sizeof bits);
  return (bits & 0x7F800000u) != 0x7F800000u;
}

/// rotation_from_quaternion in the controller's scalar (a float build has no double
/// hardware on a Cortex-M4F: the ABI's doubles are rounded once, then
/// everything is float). Non-finite entries: kNonFiniteInput; a norm off by
/// more than 10 % — or too large for the scalar — kSensorOutOfRange. `Value`:
/// the frame's (double, or float for float_frames.hpp).
template <class Scalar, class Value>
inline Status rotation_from_quaternion_in(const Value (&q)[4], Matrix3<Scalar>& r) noexcept {
  if (!finite_bits(q[0]) || !finite_bits(q[1]) || !finite_bits(q[2]) || !finite_bits(q[3]))
    return Status::kNonFiniteInput;
  const Scalar w = static_cast<Scalar>(q[0]), x = static_cast<Scalar>(q[1]),
               y = static_cast<Scalar>(q[2]), z = static_cast<Scalar>(q[3]);
  using std::sqrt;
  const Scalar n = sqrt(w * w + x * x + y * y + z * z);
  if (!(n > Scalar(0.9) && n < Scalar(1.1))) return Status::kSensorOutOfRange;
  r = Eigen::Quaternion<Scalar>(w / n, x / n, y / n, z / n).toRotationMatrix();
  return Status::kOk;
}

inline void quaternion_from_rotation(const Matrix3<double>& r, double (&q)[4]) noexcept {
  Eigen::Quaterniond e(r);
  if (e.w() < 0.0) e.coeffs() *= -1.0;
  q[0] = e.w();
  q[1] = e.x();
  q[2] = e.y();
  q[3] = e.z();
}

/// The spatial base twist (ω; v) from the world velocity of the base origin
/// and the body-frame angular velocity: ω = R ω_b, v = ẋ − ω × x.
inline Twist<double> spatial_twist(const Pose<double>& pose, const Vector3<double>& velocity,
                                   const Vector3<double>& body_rate) noexcept {
  const Vector3<double> w = pose.rotation * body_rate;
  return spatial_vector<double>(w, velocity - w.cross(pose.translation));
}

/// The Table 3 reference at time t with derivatives up to snap.
inline void table3_reference(const Table3Trajectory& trajectory, double t,
                             hodyn_reference& out) noexcept {
  out = hodyn_reference{};
  out.time = t;
  out.num_joints = Table3Trajectory::kNumJoints;
  for (int k = 0; k <= HODYN_REFERENCE_ORDER; ++k) {
    const Vector3<double> x = trajectory.base_position(t, k);
    for (int i = 0; i < 3; ++i) out.base_position[k][i] = x(i);
    const auto q = trajectory.joints(t, k);
    for (int j = 0; j < Table3Trajectory::kNumJoints; ++j) out.joint_position[k][j] = q(j);
  }
  for (int k = 0; k < HODYN_REFERENCE_ORDER; ++k) {
    const Vector3<double> w = trajectory.base_angular_velocity(t, k);
    for (int i = 0; i < 3; ++i) out.base_angular_velocity[k][i] = w(i);
  }
  quaternion_from_rotation(trajectory.base_pose(t).rotation, out.base_orientation);
}

}  // namespace plugin
}  // namespace hodyn
