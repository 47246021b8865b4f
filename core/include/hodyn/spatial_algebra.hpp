// hodyn/spatial_algebra.hpp — spatial vectors and the Lie algebra se(3).
//
// Conventions (seed 000 §2, held everywhere in hodyn):
//   twist  V = (ω; v)   angular part first; spatial twists are right-invariant
//                       and expressed in the inertial frame, [V] = Ċ C⁻¹.
//   wrench W = (n; f)   moment first; power = Wᵀ V.
//   ad_V = [[ω] 0; [v] [ω]],  ad_V X = [V, X],  co-adjoint ad*_V = ad_Vᵀ.
// The operators are applied directly to vectors (a few cross products);
// the 6x6 matrices exist only for tests and documentation.
#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>  // cross products, determinants

namespace hodyn {

template <class Scalar>
using Vector3 = Eigen::Matrix<Scalar, 3, 1>;
template <class Scalar>
using Matrix3 = Eigen::Matrix<Scalar, 3, 3>;
template <class Scalar>
using Vector6 = Eigen::Matrix<Scalar, 6, 1>;
template <class Scalar>
using Matrix6 = Eigen::Matrix<Scalar, 6, 6>;

/// A spatial twist (ω; v) or a screw axis.
template <class Scalar>
using Twist = Vector6<Scalar>;
/// A spatial wrench (n; f).
template <class Scalar>
using Wrench = Vector6<Scalar>;

/// Angular (first) and linear (second) halves of a twist or wrench.
template <class Derived>
auto angular(const Eigen::MatrixBase<Derived>& x) {
  return x.template head<3>();
}
template <class Derived>
auto linear(const Eigen::MatrixBase<Derived>& x) {
  return x.template tail<3>();
}
/// Writable halves.
template <class Derived>
auto angular(Eigen::MatrixBase<Derived>& x) {
  return x.template head<3>();
}
template <class Derived>
auto linear(Eigen::MatrixBase<Derived>& x) {
  return x.template tail<3>();
}

/// Twist or wrench from its two halves.
template <class Scalar>
Vector6<Scalar> spatial_vector(const Vector3<Scalar>& top, const Vector3<Scalar>& bottom) {
  Vector6<Scalar> x;  // entry by entry: a comma initializer trips -Warray-bounds for float at -O3
  x(0) = top(0);
  x(1) = top(1);
  x(2) = top(2);
  x(3) = bottom(0);
  x(4) = bottom(1);
  x(5) = bottom(2);
  return x;
}

/// [w], the skew-symmetric matrix with [w] x = w × x.
template <class Scalar>
Matrix3<Scalar> skew(const Vector3<Scalar>& w) {
  Matrix3<Scalar> m;
  m << Scalar(0), -w(2), w(1), w(2), Scalar(0), -w(0), -w(1), w(0), Scalar(0);
  return m;
}

/// ad_V X = [V, X] = (ω × ω_X; v × ω_X + ω × v_X).
template <class Scalar>
Twist<Scalar> ad(const Twist<Scalar>& v, const Twist<Scalar>& x) {
  const Vector3<Scalar> w = angular(v);
  const Vector3<Scalar> wx = angular(x);
  return spatial_vector<Scalar>(w.cross(wx), linear(v).cross(wx) + w.cross(linear(x)));
}

/// ad_Vᵀ W = (−ω × n − v × f; −ω × f), the co-adjoint action on a wrench.
template <class Scalar>
Wrench<Scalar> ad_transpose(const Twist<Scalar>& v, const Wrench<Scalar>& w) {
  const Vector3<Scalar> om = angular(v);
  const Vector3<Scalar> f = linear(w);
  return spatial_vector<Scalar>(-(om.cross(angular(w)) + linear(v).cross(f)), -om.cross(f));
}

/// The 6x6 matrix of ad_V (tests and documentation only).
template <class Scalar>
Matrix6<Scalar> ad_matrix(const Twist<Scalar>& v) {
  Matrix6<Scalar> m = Matrix6<Scalar>::Zero();
  const Vector3<Scalar> w = angular(v);
  const Vector3<Scalar> u = linear(v);
  m.template topLeftCorner<3, 3>() = skew<Scalar>(w);
  m.template bottomLeftCorner<3, 3>() = skew<Scalar>(u);
  m.template bottomRightCorner<3, 3>() = skew<Scalar>(w);
  return m;
}

}  // namespace hodyn
