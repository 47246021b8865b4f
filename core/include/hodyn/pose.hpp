// hodyn/pose.hpp — rigid transforms C = (R, p) ∈ SE(3) and their adjoint actions.
//
//   Ad_C      = [R 0; [p]R R]         Ad_C V      = (R ω; p × Rω + R v)
//   Ad_C⁻¹    = [Rᵀ 0; −Rᵀ[p] Rᵀ]     Ad_C⁻¹ V    = (Rᵀω; Rᵀ(v − p × ω))
//   Ad_Cᵀ W   = (Rᵀ(n − p × f); Rᵀ f)   (world wrench → frame C)
//   Ad_C⁻ᵀ W  = (R n + p × R f; R f)     (frame C wrench → world)
// Every action works on vectors; no 6x6 matrix is formed.
#pragma once

#include <Eigen/Core>

#include "hodyn/spatial_algebra.hpp"

namespace hodyn {

/// A rigid transform, stored as a rotation matrix and a translation.
template <class Scalar>
struct Pose {
  Matrix3<Scalar> rotation = Matrix3<Scalar>::Identity();
  Vector3<Scalar> translation = Vector3<Scalar>::Zero();

  static Pose identity() { return Pose{}; }
  static Pose from_translation(const Vector3<Scalar>& p) {
    Pose c;
    c.translation = p;
    return c;
  }
  /// From a 4x4 homogeneous matrix (the last row is not read).
  template <class Derived>
  static Pose from_matrix(const Eigen::MatrixBase<Derived>& m) {
    Pose c;
    c.rotation = m.template topLeftCorner<3, 3>();
    c.translation = m.template topRightCorner<3, 1>();
    return c;
  }
  Eigen::Matrix<Scalar, 4, 4> matrix() const {
    Eigen::Matrix<Scalar, 4, 4> m = Eigen::Matrix<Scalar, 4, 4>::Identity();
    m.template topLeftCorner<3, 3>() = rotation;
    m.template topRightCorner<3, 1>() = translation;
    return m;
  }

  /// C₁ C₂.
  Pose operator*(const Pose& other) const {
    Pose c;
    c.rotation = rotation * other.rotation;
    c.translation = rotation * other.translation + translation;
    return c;
  }
  Pose inverse() const {
    Pose c;
    c.rotation = rotation.transpose();
    c.translation = -(c.rotation * translation);
    return c;
  }
  /// The image of a point, R x + p.
  Vector3<Scalar> act(const Vector3<Scalar>& x) const { return rotation * x + translation; }

  template <class NewScalar>
  Pose<NewScalar> cast() const {
    Pose<NewScalar> c;
    c.rotation = rotation.template cast<NewScalar>();
    c.translation = translation.template cast<NewScalar>();
    return c;
  }
};

/// Ad_C V.
template <class Scalar>
Twist<Scalar> adjoint(const Pose<Scalar>& c, const Twist<Scalar>& v) {
  const Vector3<Scalar> w = c.rotation * angular(v);
  return spatial_vector<Scalar>(w, c.translation.cross(w) + c.rotation * linear(v));
}

/// Ad_C⁻¹ V = Ad_{C⁻¹} V.
template <class Scalar>
Twist<Scalar> adjoint_inverse(const Pose<Scalar>& c, const Twist<Scalar>& v) {
  const Matrix3<Scalar>& r = c.rotation;
  return spatial_vector<Scalar>(r.transpose() * angular(v),
                                r.transpose() * (linear(v) - c.translation.cross(angular(v))));
}

/// Ad_Cᵀ W: a world wrench expressed in frame C (moment about C's origin).
template <class Scalar>
Wrench<Scalar> coadjoint(const Pose<Scalar>& c, const Wrench<Scalar>& w) {
  const Matrix3<Scalar>& r = c.rotation;
  return spatial_vector<Scalar>(r.transpose() * (angular(w) - c.translation.cross(linear(w))),
                                r.transpose() * linear(w));
}

/// Ad_C⁻ᵀ W: a wrench given in frame C expressed in the world (moment about the origin).
template <class Scalar>
Wrench<Scalar> coadjoint_inverse(const Pose<Scalar>& c, const Wrench<Scalar>& w) {
  const Vector3<Scalar> f = c.rotation * linear(w);
  return spatial_vector<Scalar>(c.rotation * angular(w) + c.translation.cross(f), f);
}

/// The 6x6 matrix of Ad_C (tests and documentation only).
template <class Scalar>
Matrix6<Scalar> adjoint_matrix(const Pose<Scalar>& c) {
  Matrix6<Scalar> m = Matrix6<Scalar>::Zero();
  m.template topLeftCorner<3, 3>() = c.rotation;
  m.template bottomLeftCorner<3, 3>() = skew<Scalar>(c.translation) * c.rotation;
  m.template bottomRightCorner<3, 3>() = c.rotation;
  return m;
}

}  // namespace hodyn
