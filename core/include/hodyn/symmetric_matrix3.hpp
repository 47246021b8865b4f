// hodyn/symmetric_matrix3.hpp — a 3x3 symmetric matrix stored as its 6 entries.
//
// Rotational inertias and their time derivatives are symmetric; keeping only
// the six distinct entries halves the work of the operations the dynamics
// recursions need: products with a vector, the congruence R X Rᵀ, and the
// commutator [ω]X − X[ω] that differentiates a rotating inertia. The
// operations take Eigen types (public use) or the small register types of
// detail/small_algebra.hpp (inner loops).
#pragma once

#include <Eigen/Core>

#include "hodyn/detail/compile_time.hpp"
#include "hodyn/detail/small_algebra.hpp"
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
  HODYN_ALWAYS_INLINE detail::V3<Scalar> operator*(const detail::V3<Scalar>& v) const {
    return {xx * v.x + xy * v.y + xz * v.z, xy * v.x + yy * v.y + yz * v.z,
            xz * v.x + yz * v.y + zz * v.z};
  }
  Vector3<Scalar> operator*(const Vector3<Scalar>& v) const {
    return (*this * detail::V3<Scalar>::from(v)).eigen();
  }
  SymmetricMatrix3 operator+(const SymmetricMatrix3& o) const {
    return {xx + o.xx, yy + o.yy, zz + o.zz, xy + o.xy, xz + o.xz, yz + o.yz};
  }
  SymmetricMatrix3 operator-(const SymmetricMatrix3& o) const {
    return {xx - o.xx, yy - o.yy, zz - o.zz, xy - o.xy, xz - o.xz, yz - o.yz};
  }
  HODYN_ALWAYS_INLINE SymmetricMatrix3 scaled(const Scalar& s) const {
    return {xx * s, yy * s, zz * s, xy * s, xz * s, yz * s};
  }
  SymmetricMatrix3 operator*(const Scalar& s) const { return scaled(s); }
  HODYN_ALWAYS_INLINE SymmetricMatrix3& operator+=(const SymmetricMatrix3& o) {
    xx += o.xx;
    yy += o.yy;
    zz += o.zz;
    xy += o.xy;
    xz += o.xz;
    yz += o.yz;
    return *this;
  }

  /// R X Rᵀ (the same inertia seen in a rotated frame): T = R X has rows
  /// X r_i (X symmetric), and (R X Rᵀ)_ij = t_i · r_j.
  HODYN_ALWAYS_INLINE SymmetricMatrix3 congruence(const detail::M3<Scalar>& r) const {
    const detail::V3<Scalar> r0{r.a[0], r.a[1], r.a[2]}, r1{r.a[3], r.a[4], r.a[5]},
        r2{r.a[6], r.a[7], r.a[8]};
    const detail::V3<Scalar> t0 = *this * r0, t1 = *this * r1, t2 = *this * r2;
    return {dot(t0, r0), dot(t1, r1), dot(t2, r2), dot(t0, r1), dot(t0, r2), dot(t1, r2)};
  }
  SymmetricMatrix3 congruence(const Matrix3<Scalar>& r) const {
    return congruence(detail::M3<Scalar>::from(r));
  }

  /// [ω]X − X[ω] = Y + Yᵀ with Y = [ω]X: the rate of change of a rotational
  /// inertia carried by the angular velocity ω (İ = [ω]I − I[ω]).
  HODYN_ALWAYS_INLINE SymmetricMatrix3 skew_commutator(const detail::V3<Scalar>& w) const {
    const Scalar y00 = w.y * xz - w.z * xy;
    const Scalar y01 = w.y * yz - w.z * yy;
    const Scalar y02 = w.y * zz - w.z * yz;
    const Scalar y10 = w.z * xx - w.x * xz;
    const Scalar y11 = w.z * xy - w.x * yz;
    const Scalar y12 = w.z * xz - w.x * zz;
    const Scalar y20 = w.x * xy - w.y * xx;
    const Scalar y21 = w.x * yy - w.y * xy;
    const Scalar y22 = w.x * yz - w.y * xz;
    return {y00 + y00, y11 + y11, y22 + y22, y01 + y10, y02 + y20, y12 + y21};
  }
  SymmetricMatrix3 skew_commutator(const Vector3<Scalar>& w) const {
    return skew_commutator(detail::V3<Scalar>::from(w));
  }

  template <class NewScalar>
  SymmetricMatrix3<NewScalar> cast() const {
    return {NewScalar(xx), NewScalar(yy), NewScalar(zz), NewScalar(xy), NewScalar(xz), NewScalar(yz)};
  }
};

namespace detail {
/// The inner loops' name for the same type.
template <class S>
using Sym3 = SymmetricMatrix3<S>;
}  // namespace detail

}  // namespace hodyn
