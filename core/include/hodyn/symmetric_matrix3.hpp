// hodyn/symmetric_matrix3.hpp — a 3x3 symmetric matrix stored as its 6 entries.
//
// Rotational inertias and their time derivatives are symmetric; keeping only
// the six distinct entries halves the work of the operations the dynamics
// recursions need: products with a vector, the congruence R X Rᵀ, and the
// commutator [ω]X − X[ω] that differentiates a rotating inertia.
#pragma once

#include <Eigen/Core>

#include "hodyn/spatial_algebra.hpp"

namespace hodyn {

template <class Scalar>
struct SymmetricMatrix3 {
  Scalar xx{0}, yy{0}, zz{0}, xy{0}, xz{0}, yz{0};

  static SymmetricMatrix3 zero() { return SymmetricMatrix3{}; }
  /// From a full matrix; only the upper triangle is read.
  template <class Derived>
  static SymmetricMatrix3 from_matrix(const Eigen::MatrixBase<Derived>& m) {
    SymmetricMatrix3 s;
    s.xx = m(0, 0);
    s.yy = m(1, 1);
    s.zz = m(2, 2);
    s.xy = m(0, 1);
    s.xz = m(0, 2);
    s.yz = m(1, 2);
    return s;
  }
  Matrix3<Scalar> matrix() const {
    Matrix3<Scalar> m;
    m << xx, xy, xz, xy, yy, yz, xz, yz, zz;
    return m;
  }

  /// X v.
  Vector3<Scalar> operator*(const Vector3<Scalar>& v) const {
    return Vector3<Scalar>(xx * v(0) + xy * v(1) + xz * v(2), xy * v(0) + yy * v(1) + yz * v(2),
                           xz * v(0) + yz * v(1) + zz * v(2));
  }
  SymmetricMatrix3 operator+(const SymmetricMatrix3& o) const {
    return {xx + o.xx, yy + o.yy, zz + o.zz, xy + o.xy, xz + o.xz, yz + o.yz};
  }
  SymmetricMatrix3 operator-(const SymmetricMatrix3& o) const {
    return {xx - o.xx, yy - o.yy, zz - o.zz, xy - o.xy, xz - o.xz, yz - o.yz};
  }
  SymmetricMatrix3 operator*(const Scalar& s) const {
    return {xx * s, yy * s, zz * s, xy * s, xz * s, yz * s};
  }
  SymmetricMatrix3& operator+=(const SymmetricMatrix3& o) {
    xx += o.xx;
    yy += o.yy;
    zz += o.zz;
    xy += o.xy;
    xz += o.xz;
    yz += o.yz;
    return *this;
  }

  /// R X Rᵀ (the same inertia seen in a rotated frame).
  SymmetricMatrix3 congruence(const Matrix3<Scalar>& r) const {
    const Matrix3<Scalar> t = r * matrix();  // 27 products; the result needs 6 dots
    SymmetricMatrix3 s;
    s.xx = t.row(0).dot(r.row(0));
    s.yy = t.row(1).dot(r.row(1));
    s.zz = t.row(2).dot(r.row(2));
    s.xy = t.row(0).dot(r.row(1));
    s.xz = t.row(0).dot(r.row(2));
    s.yz = t.row(1).dot(r.row(2));
    return s;
  }

  /// [ω]X − X[ω] = Y + Yᵀ with Y = [ω]X: the rate of change of a rotational
  /// inertia carried by the angular velocity ω (İ = [ω]I − I[ω]).
  SymmetricMatrix3 skew_commutator(const Vector3<Scalar>& w) const {
    // Rows of Y = [ω]X:  Y0j = −w2 X1j + w1 X2j,  Y1j = w2 X0j − w0 X2j,  Y2j = −w1 X0j + w0 X1j.
    const Scalar y00 = -w(2) * xy + w(1) * xz;
    const Scalar y01 = -w(2) * yy + w(1) * yz;
    const Scalar y02 = -w(2) * yz + w(1) * zz;
    const Scalar y10 = w(2) * xx - w(0) * xz;
    const Scalar y11 = w(2) * xy - w(0) * yz;
    const Scalar y12 = w(2) * xz - w(0) * zz;
    const Scalar y20 = -w(1) * xx + w(0) * xy;
    const Scalar y21 = -w(1) * xy + w(0) * yy;
    const Scalar y22 = -w(1) * xz + w(0) * yz;
    return {y00 + y00, y11 + y11, y22 + y22, y01 + y10, y02 + y20, y12 + y21};
  }

  template <class NewScalar>
  SymmetricMatrix3<NewScalar> cast() const {
    return {NewScalar(xx), NewScalar(yy), NewScalar(zz), NewScalar(xy), NewScalar(xz), NewScalar(yz)};
  }
};

}  // namespace hodyn
