// hodyn/screw_exponential.hpp — exp([Y] q) for the screws of 1-DoF joints.
//
// Revolute screw Y = (e; a × e) with |e| = 1 (a: any point on the axis):
//   R = I + sin q [e] + (1 − cos q)[e]²,  p = (I − R) a.
// Prismatic screw Y = (0; e):  R = I,  p = e q.
// A pitch h = e·v (helical screw) adds h q e to p.
// (Closed form of the general exp: p = (I q + (1−cos q)[e] + (q − sin q)[e]²) v,
//  which equals (I − R) a for v = a × e.)
#pragma once

#include <cmath>

#include "hodyn/pose.hpp"

namespace hodyn {

/// Rotation by angle q about the unit axis e (Rodrigues).
template <class Scalar>
Matrix3<Scalar> axis_angle_rotation(const Vector3<Scalar>& e, const Scalar& q) {
  using std::cos;
  using std::sin;
  const Scalar s = sin(q);
  const Scalar one_minus_c = Scalar(1) - cos(q);
  const Matrix3<Scalar> k = skew<Scalar>(e);
  return Matrix3<Scalar>::Identity() + s * k + one_minus_c * (k * k);
}

/// exp([Y] q) for a screw Y = (e; v) with unit angular part (revolute, or
/// helical with pitch e·v) or zero angular part (prismatic).
template <class Scalar>
Pose<Scalar> screw_exponential(const Twist<Scalar>& y, const Scalar& q) {
  const Vector3<Scalar> e = angular(y);
  Pose<Scalar> c;
  if (e.squaredNorm() == Scalar(0)) {
    c.translation = linear(y) * q;
    return c;
  }
  // Point on the axis closest to the origin: a = e × (a × e) for unit e.
  const Vector3<Scalar> a = e.cross(linear(y));
  c.rotation = axis_angle_rotation<Scalar>(e, q);
  c.translation = a - c.rotation * a + e * (e.dot(linear(y)) * q);
  return c;
}

}  // namespace hodyn
