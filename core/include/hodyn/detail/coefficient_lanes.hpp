// hodyn/detail/coefficient_lanes.hpp — Taylor coefficients of one time
// function held as one SIMD vector ("lanes"): lane k is x_[k] = x^(k)/k!.
//
// In this layout every coefficient-wise operation of the recursions (sums,
// products with constant vectors and inertias, the joint-frame offsets) is one
// vector operation for all orders at once, and a Cauchy product
//   (a ⊛ b)_[k] = Σ_{i≤k} a_[i] b_[k−i]
// is r + 1 broadcast-multiply-adds against the shifted copies of `a`,
//   a ⊛ b = Σ_{i=0..r} b_[i] · shift_i(a),   shift_i(a)_[k] = a_[k−i] (0 for k < i),
// built once per operand that several products share (cos q, sin q, q̇, ω).
// The lanes above r then hold finite values that are never read.
//
// The vectors are GNU vector extensions (GCC, Clang), which compile to SSE/AVX
// on x86-64 and NEON on ARMv8. A width of 4, 8 or 16 lanes (the smallest that
// holds orders 0..r) is used only when it fits one register of the target
// (HODYN_COEFFICIENT_LANE_BYTES: 64 with AVX-512, 32 with AVX, 16 with SSE2 or
// NEON): a vector split over several registers costs cross-register shuffles
// and store-forwarding stalls and ran 10x slower than the scalar kernels
// (measured). So double uses lanes for r ≤ 7 with AVX-512 and r ≤ 3 with AVX,
// float also with SSE2/NEON (r ≤ 3); every other case — and targets without a
// SIMD unit (Cortex-M) — keeps the scalar kernels.
#pragma once

#include <cstddef>
#include <type_traits>
#include <utility>

#include "hodyn/detail/compile_time.hpp"
#include "hodyn/detail/isa.hpp"

namespace hodyn::detail {
HODYN_ISA_NAMESPACE_BEGIN

/// Lanes for the coefficients 0..order: 4, 8 or 16 (0 above order 15).
constexpr int lane_width(int order) { return order < 4 ? 4 : order < 8 ? 8 : order < 16 ? 16 : 0; }

/// The highest order whose lanes fit one SIMD register for this scalar type
/// (0: no lane kernel; order 0 always runs the scalar kernel).
template <class S>
constexpr int max_lane_order() {
  if constexpr (!(HODYN_COEFFICIENT_LANES) ||
                !(std::is_same<S, double>::value || std::is_same<S, float>::value)) {
    return 0;
  } else {
    int best = 0;
    for (int r = 1; r < 16; ++r)
      if (lane_width(r) * static_cast<int>(sizeof(S)) <= HODYN_COEFFICIENT_LANE_BYTES) best = r;
    return best;
  }
}

#if HODYN_COEFFICIENT_LANES

template <class S, int W>
struct LaneVector {
  typedef S type __attribute__((vector_size(W * sizeof(S))));
};
/// W Taylor coefficients of one scalar time function.
template <class S, int W>
using Lanes = typename LaneVector<S, W>::type;

template <int I, class V, std::size_t... L>
HODYN_ALWAYS_INLINE V shifted_lanes(V a, std::index_sequence<L...>) {
  constexpr int kW = static_cast<int>(sizeof...(L));
  return __builtin_shufflevector(V{}, a,
                                 (static_cast<int>(L) >= I ? kW + static_cast<int>(L) - I : 0)...);
}

/// shift_i(a) for i = 0..r: the operand of r + 1 broadcast products.
template <class S, int W>
struct ShiftedLanes {
  Lanes<S, W> row[W];

  HODYN_ALWAYS_INLINE ShiftedLanes(const Lanes<S, W>& a, int r) { fill<0>(a, r); }

 private:
  template <int I>
  HODYN_ALWAYS_INLINE void fill(const Lanes<S, W>& a, int r) {
    if constexpr (I < W) {
      if (I > r) return;
      row[I] = shifted_lanes<I>(a, std::make_index_sequence<W>{});
      fill<I + 1>(a, r);
    }
  }
};

/// The coefficients of a lane vector in memory, read one by one as broadcast
/// operands (a load per use instead of a lane shuffle).
template <class S, int W>
struct LaneScalars {
  alignas(W * sizeof(S)) S c[W];
  HODYN_ALWAYS_INLINE explicit LaneScalars(const Lanes<S, W>& v) {
    __builtin_memcpy(c, &v, sizeof(c));
  }
  HODYN_ALWAYS_INLINE const S& operator[](int i) const { return c[i]; }
};

/// out += a ⊛ b, with a given by its shifted copies.
template <class S, int W>
HODYN_ALWAYS_INLINE void add_product(Lanes<S, W>& out, const ShiftedLanes<S, W>& a,
                                     const Lanes<S, W>& b, int r) {
  const LaneScalars<S, W> bs(b);
  for (int i = 0; i <= r; ++i) out += bs[i] * a.row[i];
}
/// out −= a ⊛ b.
template <class S, int W>
HODYN_ALWAYS_INLINE void subtract_product(Lanes<S, W>& out, const ShiftedLanes<S, W>& a,
                                          const Lanes<S, W>& b, int r) {
  const LaneScalars<S, W> bs(b);
  for (int i = 0; i <= r; ++i) out -= bs[i] * a.row[i];
}

/// A 3-vector whose components are coefficient lanes.
template <class S, int W>
struct LaneV3 {
  Lanes<S, W> x{}, y{}, z{};

  template <int A>
  HODYN_ALWAYS_INLINE const Lanes<S, W>& at() const {
    if constexpr (A == 0)
      return x;
    else if constexpr (A == 1)
      return y;
    else
      return z;
  }
  template <int A>
  HODYN_ALWAYS_INLINE Lanes<S, W>& at() {
    return const_cast<Lanes<S, W>&>(static_cast<const LaneV3&>(*this).template at<A>());
  }
  HODYN_ALWAYS_INLINE LaneV3& operator+=(const LaneV3& o) {
    x += o.x;
    y += o.y;
    z += o.z;
    return *this;
  }
  HODYN_ALWAYS_INLINE LaneV3& operator-=(const LaneV3& o) {
    x -= o.x;
    y -= o.y;
    z -= o.z;
    return *this;
  }
};
template <class S, int W>
HODYN_ALWAYS_INLINE LaneV3<S, W> operator+(const LaneV3<S, W>& a, const LaneV3<S, W>& b) {
  return {a.x + b.x, a.y + b.y, a.z + b.z};
}
template <class S, int W>
HODYN_ALWAYS_INLINE LaneV3<S, W> operator-(const LaneV3<S, W>& a, const LaneV3<S, W>& b) {
  return {a.x - b.x, a.y - b.y, a.z - b.z};
}
template <class S, int W>
HODYN_ALWAYS_INLINE LaneV3<S, W> operator*(S s, const LaneV3<S, W>& a) {
  return {s * a.x, s * a.y, s * a.z};
}
/// Lane-wise product s_k u_k (e.g. the k! that turns coefficients into derivatives).
template <class S, int W>
HODYN_ALWAYS_INLINE LaneV3<S, W> lanewise(const Lanes<S, W>& s, const LaneV3<S, W>& u) {
  return {s * u.x, s * u.y, s * u.z};
}
/// c × u for a constant c (every order at once).
template <class S, int W, class C>
HODYN_ALWAYS_INLINE LaneV3<S, W> cross_constant(const C& c, const LaneV3<S, W>& u) {
  return {c.y * u.z - c.z * u.y, c.z * u.x - c.x * u.z, c.x * u.y - c.y * u.x};
}
/// c · u for a constant c.
template <class S, int W, class C>
HODYN_ALWAYS_INLINE Lanes<S, W> dot_constant(const C& c, const LaneV3<S, W>& u) {
  return c.x * u.x + c.y * u.y + c.z * u.z;
}

/// A twist (ω; v) or wrench (n; f) of coefficient lanes.
template <class S, int W>
struct LaneSV {
  LaneV3<S, W> ang{}, lin{};
};

#endif  // HODYN_COEFFICIENT_LANES

HODYN_ISA_NAMESPACE_END
}  // namespace hodyn::detail
