// hodyn/detail/small_algebra.hpp — the register-friendly 3-vector, spatial
// pair, 3x3 and symmetric 3x3 types the inner loops of the algorithms use.
//
// Eigen is the public face of hodyn (inputs, outputs, 6x6 matrices); inside
// the recursions a plain struct of three scalars lets the compiler keep every
// operand in registers without the packing and shuffles that odd-sized Eigen
// expressions cost, and works unchanged for any scalar type.
#pragma once

#include "hodyn/detail/isa.hpp"
#include <Eigen/Core>

#include "hodyn/detail/compile_time.hpp"

namespace hodyn::detail {
HODYN_ISA_NAMESPACE_BEGIN

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
    // Brace-initialized whole: `M3 r;` then nine stores left a call to
    // memset for the zeroing of `a` (GCC did not see it overwritten).
    return {{m(0, 0), m(0, 1), m(0, 2), m(1, 0), m(1, 1), m(1, 2), m(2, 0), m(2, 1), m(2, 2)}};
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

HODYN_ISA_NAMESPACE_END
}  // namespace hodyn::detail
