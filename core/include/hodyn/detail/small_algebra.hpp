// hodyn/detail/small_algebra.hpp — the register-friendly 3-vector, spatial
// pair, 3x3 and symmetric 3x3 types the inner loops of the algorithms use.
//
// Eigen is the public face of hodyn (inputs, outputs, 6x6 matrices); inside
// the recursions a plain struct of three scalars lets the compiler keep every
// operand in registers without the packing and shuffles that odd-sized Eigen
// expressions cost, and works unchanged for any scalar type.
#pragma once

#include <Eigen/Core>

#include "hodyn/detail/compile_time.hpp"

namespace hodyn::detail {

template <class S>
struct V3 {
  S x{0}, y{0}, z{0};

  template <class Derived>
  HODYN_ALWAYS_INLINE static V3 from(const Eigen::MatrixBase<Derived>& v) {
    return {v(0), v(1), v(2)};
  }
  HODYN_ALWAYS_INLINE Eigen::Matrix<S, 3, 1> eigen() const {
    return Eigen::Matrix<S, 3, 1>(x, y, z);
  }
  HODYN_ALWAYS_INLINE V3& operator+=(const V3& o) {
    x += o.x;
    y += o.y;
    z += o.z;
    return *this;
  }
  HODYN_ALWAYS_INLINE V3& operator-=(const V3& o) {
    x -= o.x;
    y -= o.y;
    z -= o.z;
    return *this;
  }
};

template <class S>
HODYN_ALWAYS_INLINE V3<S> operator+(const V3<S>& a, const V3<S>& b) {
  return {a.x + b.x, a.y + b.y, a.z + b.z};
}
template <class S>
HODYN_ALWAYS_INLINE V3<S> operator-(const V3<S>& a, const V3<S>& b) {
  return {a.x - b.x, a.y - b.y, a.z - b.z};
}
template <class S>
HODYN_ALWAYS_INLINE V3<S> operator-(const V3<S>& a) {
  return {-a.x, -a.y, -a.z};
}
template <class S>
HODYN_ALWAYS_INLINE V3<S> operator*(const S& s, const V3<S>& a) {
  return {s * a.x, s * a.y, s * a.z};
}
template <class S>
HODYN_ALWAYS_INLINE V3<S> cross(const V3<S>& a, const V3<S>& b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
template <class S>
HODYN_ALWAYS_INLINE S dot(const V3<S>& a, const V3<S>& b) {
  return a.x * b.x + a.y * b.y + a.z * b.z;
}

/// A twist (ω; v) or a wrench (n; f) as two 3-vectors.
template <class S>
struct SV {
  V3<S> ang{}, lin{};

  template <class Derived>
  HODYN_ALWAYS_INLINE static SV from(const Eigen::MatrixBase<Derived>& v) {
    return {{v(0), v(1), v(2)}, {v(3), v(4), v(5)}};
  }
  HODYN_ALWAYS_INLINE Eigen::Matrix<S, 6, 1> eigen() const {
    Eigen::Matrix<S, 6, 1> e;
    e << ang.x, ang.y, ang.z, lin.x, lin.y, lin.z;
    return e;
  }
  HODYN_ALWAYS_INLINE SV& operator+=(const SV& o) {
    ang += o.ang;
    lin += o.lin;
    return *this;
  }
  HODYN_ALWAYS_INLINE SV& operator-=(const SV& o) {
    ang -= o.ang;
    lin -= o.lin;
    return *this;
  }
};
template <class S>
HODYN_ALWAYS_INLINE SV<S> operator+(const SV<S>& a, const SV<S>& b) {
  return {a.ang + b.ang, a.lin + b.lin};
}
template <class S>
HODYN_ALWAYS_INLINE SV<S> operator-(const SV<S>& a, const SV<S>& b) {
  return {a.ang - b.ang, a.lin - b.lin};
}
template <class S>
HODYN_ALWAYS_INLINE SV<S> operator*(const S& s, const SV<S>& a) {
  return {s * a.ang, s * a.lin};
}
template <class S>
HODYN_ALWAYS_INLINE S dot(const SV<S>& a, const SV<S>& b) {
  return dot(a.ang, b.ang) + dot(a.lin, b.lin);
}
/// ad_V X = (ω × ω_X; v × ω_X + ω × v_X).
template <class S>
HODYN_ALWAYS_INLINE SV<S> ad(const SV<S>& v, const SV<S>& x) {
  return {cross(v.ang, x.ang), cross(v.lin, x.ang) + cross(v.ang, x.lin)};
}

/// A 3x3 matrix, row-major.
template <class S>
struct M3 {
  S a[9]{};

  template <class Derived>
  HODYN_ALWAYS_INLINE static M3 from(const Eigen::MatrixBase<Derived>& m) {
    M3 r;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) r.a[3 * i + j] = m(i, j);
    return r;
  }
  HODYN_ALWAYS_INLINE Eigen::Matrix<S, 3, 3> eigen() const {
    Eigen::Matrix<S, 3, 3> m;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) m(i, j) = a[3 * i + j];
    return m;
  }
  HODYN_ALWAYS_INLINE V3<S> col(int j) const { return {a[j], a[3 + j], a[6 + j]}; }
  HODYN_ALWAYS_INLINE void set_col(int j, const V3<S>& c) {
    a[j] = c.x;
    a[3 + j] = c.y;
    a[6 + j] = c.z;
  }
  /// M v.
  HODYN_ALWAYS_INLINE V3<S> operator*(const V3<S>& v) const {
    return {a[0] * v.x + a[1] * v.y + a[2] * v.z, a[3] * v.x + a[4] * v.y + a[5] * v.z,
            a[6] * v.x + a[7] * v.y + a[8] * v.z};
  }
  /// Mᵀ v.
  HODYN_ALWAYS_INLINE V3<S> transpose_times(const V3<S>& v) const {
    return {a[0] * v.x + a[3] * v.y + a[6] * v.z, a[1] * v.x + a[4] * v.y + a[7] * v.z,
            a[2] * v.x + a[5] * v.y + a[8] * v.z};
  }
  /// M N.
  HODYN_ALWAYS_INLINE M3 operator*(const M3& n) const {
    M3 r;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        r.a[3 * i + j] = a[3 * i] * n.a[j] + a[3 * i + 1] * n.a[3 + j] + a[3 * i + 2] * n.a[6 + j];
    return r;
  }
};

/// A symmetric 3x3 matrix (rotational inertia and its derivatives).
template <class S>
struct Sym3 {
  S xx{0}, yy{0}, zz{0}, xy{0}, xz{0}, yz{0};

  HODYN_ALWAYS_INLINE V3<S> operator*(const V3<S>& v) const {
    return {xx * v.x + xy * v.y + xz * v.z, xy * v.x + yy * v.y + yz * v.z,
            xz * v.x + yz * v.y + zz * v.z};
  }
  HODYN_ALWAYS_INLINE Sym3& operator+=(const Sym3& o) {
    xx += o.xx;
    yy += o.yy;
    zz += o.zz;
    xy += o.xy;
    xz += o.xz;
    yz += o.yz;
    return *this;
  }
  HODYN_ALWAYS_INLINE Sym3 scaled(const S& s) const {
    return {xx * s, yy * s, zz * s, xy * s, xz * s, yz * s};
  }
  /// [ω]X − X[ω] = Y + Yᵀ with Y = [ω]X.
  HODYN_ALWAYS_INLINE Sym3 skew_commutator(const V3<S>& w) const {
    const S y00 = w.y * xz - w.z * xy;
    const S y01 = w.y * yz - w.z * yy;
    const S y02 = w.y * zz - w.z * yz;
    const S y10 = w.z * xx - w.x * xz;
    const S y11 = w.z * xy - w.x * yz;
    const S y12 = w.z * xz - w.x * zz;
    const S y20 = w.x * xy - w.y * xx;
    const S y21 = w.x * yy - w.y * xy;
    const S y22 = w.x * yz - w.y * xz;
    return {y00 + y00, y11 + y11, y22 + y22, y01 + y10, y02 + y20, y12 + y21};
  }
  /// R X Rᵀ.
  HODYN_ALWAYS_INLINE Sym3 congruence(const M3<S>& r) const {
    // T = R X (rows t_i), then (R X Rᵀ)_ij = t_i · r_j.
    V3<S> t[3];
    for (int i = 0; i < 3; ++i) {
      const V3<S> row{r.a[3 * i], r.a[3 * i + 1], r.a[3 * i + 2]};
      t[i] = *this * row;  // X symmetric: (R X)_i = X r_i
    }
    const V3<S> r0{r.a[0], r.a[1], r.a[2]}, r1{r.a[3], r.a[4], r.a[5]}, r2{r.a[6], r.a[7], r.a[8]};
    return {dot(t[0], r0), dot(t[1], r1), dot(t[2], r2), dot(t[0], r1), dot(t[0], r2), dot(t[1], r2)};
  }
};

}  // namespace hodyn::detail
