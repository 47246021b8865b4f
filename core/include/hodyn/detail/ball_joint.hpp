// hodyn/detail/ball_joint.hpp — the rotation of a spherical (ball) joint:
// its configuration R = R_j exp([δ]) and the Taylor coefficients of R(t).
//
// A ball joint's child turns relative to its parent by R(t) ∈ SO(3) about the
// ball's centre, with the child-frame angular velocity ω: Ṙ = R [ω]. Its
// coefficients therefore follow by Cauchy products, like a base pose's from
// its twist (seed 000 Alg. 1 for the base; docs/joint-kinds.md):
//   R_[k+1] = (1/(k+1)) Σ_{i≤k} R_[i] [ω_[k−i]].
#pragma once

#include <array>
#include <cmath>
#include <cstddef>

#include "hodyn/detail/isa.hpp"
#include "hodyn/detail/small_algebra.hpp"
#include "hodyn/scalar_traits.hpp"

namespace hodyn::detail {
HODYN_ISA_NAMESPACE_BEGIN

/// exp([δ]) = 1 + A [δ] + B [δ]², A = sin θ/θ, B = (1 − cos θ)/θ², θ = |δ|.
/// Near θ = 0 (and for any scalar whose primal θ is small: duals, series)
/// A and B are their power series in θ², so no square root of a quantity
/// whose value is zero is taken: exact for first-order duals at δ = 0 and
/// for series δ(t) with δ(0) = 0 through degree 9.
template <class S>
M3<S> rotation_exponential(const V3<S>& d) {
  using Traits = ScalarTraits<S>;
  const S t2 = dot(d, d);
  S a, b;
  if (Traits::primal(t2) < decltype(Traits::primal(t2))(1e-4)) {
    // Σ (−θ²)ⁿ/(2n+1)!, Σ (−θ²)ⁿ/(2n+2)!: the truncation θ¹⁰/11! < 1e-27 here.
    a = S(1) - t2 * (S(1) / S(6) - t2 * (S(1) / S(120) - t2 * (S(1) / S(5040) - t2 / S(362880))));
    b = S(1) / S(2) -
        t2 * (S(1) / S(24) - t2 * (S(1) / S(720) - t2 * (S(1) / S(40320) - t2 / S(3628800))));
  } else {
    using std::cos;
    using std::sin;
    using std::sqrt;
    const S t = sqrt(t2);
    a = sin(t) / t;
    b = (S(1) - cos(t)) / t2;
  }
  // [δ]² = δ δᵀ − θ² 1.
  M3<S> r;
  r.a[0] = S(1) + b * (d.x * d.x - t2);
  r.a[4] = S(1) + b * (d.y * d.y - t2);
  r.a[8] = S(1) + b * (d.z * d.z - t2);
  r.a[1] = b * d.x * d.y - a * d.z;
  r.a[3] = b * d.x * d.y + a * d.z;
  r.a[2] = b * d.x * d.z + a * d.y;
  r.a[6] = b * d.x * d.z - a * d.y;
  r.a[5] = b * d.y * d.z - a * d.x;
  r.a[7] = b * d.y * d.z + a * d.x;
  return r;
}

/// M [w]: row i of it is (row i of M) × w, since (M [w])_{ic} = r · (w × e_c) = (r × w)_c.
template <class S>
HODYN_ALWAYS_INLINE M3<S> times_skew(const M3<S>& m, const V3<S>& w) {
  M3<S> out;
  for (int row = 0; row < 3; ++row) {
    const V3<S> c = cross(V3<S>{m.a[3 * row], m.a[3 * row + 1], m.a[3 * row + 2]}, w);
    out.a[3 * row] = c.x;
    out.a[3 * row + 1] = c.y;
    out.a[3 * row + 2] = c.z;
  }
  return out;
}

/// R_[k+1] = Σ_{i≤k} R_[i] [ω_[k−i]] / (k+1) from R_[0..k] and ω_[0..k].
template <class S, std::size_t NR, std::size_t NW>
HODYN_ALWAYS_INLINE M3<S> ball_rotation_next(int k, const std::array<M3<S>, NR>& rotation,
                                             const std::array<V3<S>, NW>& rate) {
  M3<S> next = times_skew(rotation[0], rate[static_cast<std::size_t>(k)]);
  for (int i = 1; i <= k; ++i) {
    const M3<S> t =
        times_skew(rotation[static_cast<std::size_t>(i)], rate[static_cast<std::size_t>(k - i)]);
    for (int a = 0; a < 9; ++a) next.a[a] += t.a[a];
  }
  const S step = S(1) / S(k + 1);
  for (int a = 0; a < 9; ++a) next.a[a] *= step;
  return next;
}

HODYN_ISA_NAMESPACE_END
}  // namespace hodyn::detail
