// hodyn/detail/joint_frame_articulated.hpp — forward and hybrid dynamics of
// any order (seed 000 Alg. 3-4, Lemma 2) in body-fixed joint frames: the
// engine of `forward_dynamics` and `hybrid_dynamics`.
//
// The frames are those of the inverse dynamics (detail/joint_frame_recursions.hpp):
// B_j is fixed to body j, origin on its joint axis, axes parallel to the world
// at home; P_j = P_p X_j with X_j = T(d_j) Rot(e_j, q_j) (revolute),
// T(d_j + e_j q_j) (prismatic) or T(d_j + h_j q_j e_j) Rot(e_j, q_j)
// (helical). With ã_j = v̇_j − Ad_{P_j}⁻¹ G (gravity folded
// into the acceleration) the Newton–Euler equations of the inverse dynamics,
//   ã_j = Ad_{X_j}⁻¹ ã_p − q̇_j ad_{s_j}(Ad_{X_j}⁻¹ v_p) + s_j q̈_j,
//   f_j = M_j ã_j − ad_{v_j}ᵀ M_j v_j + Σ_c Ad_{X_c}⁻ᵀ f_c,   τ_j = s_jᵀ f_j,
// hold at every instant, so their Taylor coefficient k is affine in the
// unknowns of order k (ã_0,[k] of the base and q̈_j,[k] = q^(k+2)/k!) with the
// order-0 matrices: Ad_{X_j}⁻¹ and M_j at the current state. Every order is
// therefore one articulated-body pass (Featherstone) with the same articulated
// inertias M^A_j (Lemma 2 in joint frames) and order-k biases:
//   c_j,[k] = Σ_{i≥1} Rot_j,[i]ᵀ (ã_p,[k−i] offset) − Σ_i q̇_[i] ad_s u_[k−i]
//   b_j,[k] = the Newton–Euler terms of f_j,[k] without M_j ã_j,[k]
//   h_j,[k] = Σ_{i≥1} (Ad_{X_j}⁻ᵀ)_[i] f_j,[k−i]  (lower-order child wrenches)
// In B_j the inertia M_j and the screw s_j are constant; an axis-aligned screw
// is a unit vector, so U_j = M^A_j s_j is a column of M^A_j, D_j a diagonal
// entry, and the transform of a symmetric articulated inertia to the parent is
// a planar rotation about one axis plus a translation.
//
// The base is solved in its own frame B_0 (P_0 = C₁ (A⁰_0)⁻¹): a base-frame
// propulsion wrench is a constant transform away, a world one goes through
// the pose series of P_0. The twist of the next order follows from the solved
// acceleration, v_[k+1] = (ã_[k] + (0; (R_jᵀ g)_[k]))/(k+1), so no kinematic
// pass is repeated.
#pragma once

#include <array>
#include <cmath>
#include <limits>
#include <type_traits>
#include <utility>
#include "hodyn/detail/isa.hpp"

#include "hodyn/detail/compile_time.hpp"
#include "hodyn/detail/joint_frame_recursions.hpp"
#include "hodyn/detail/moving_frame.hpp"
#include "hodyn/detail/series_recursions.hpp"
#include "hodyn/detail/sine_cosine.hpp"
#include "hodyn/detail/small_algebra.hpp"
#include "hodyn/model.hpp"
#include "hodyn/motion.hpp"
#include "hodyn/scalar_traits.hpp"
#include "hodyn/symmetric_matrix3.hpp"
#include "hodyn/tree.hpp"

namespace hodyn::detail {
HODYN_ISA_NAMESPACE_BEGIN

// ---------------------------------------------------------------------------
// Small helpers: components by compile-time index, rotations about the axis
// ---------------------------------------------------------------------------

template <int I, class S>
HODYN_ALWAYS_INLINE const S& comp(const V3<S>& v) {
  if constexpr (I == 0)
    return v.x;
  else if constexpr (I == 1)
    return v.y;
  else
    return v.z;
}
template <int I, class S>
HODYN_ALWAYS_INLINE S& comp(V3<S>& v) {
  if constexpr (I == 0)
    return v.x;
  else if constexpr (I == 1)
    return v.y;
  else
    return v.z;
}

/// One Taylor coefficient of Rot(e, q(t)) (kTranspose: its transpose) applied
/// to x: kOne selects coefficient 0 (which carries the constant e eᵀ part).
template <JointKind K, bool kTranspose, bool kOne, class S>
HODYN_ALWAYS_INLINE V3<S> axis_rotate(const V3<S>& e, const S& c, const S& s, const V3<S>& x) {
  constexpr int a = aligned_axis(K);
  if constexpr (a >= 0) {
    constexpr int b = (a + 1) % 3, d = (a + 2) % 3;
    // Rot(e_a, q): (x_b, x_d) → (c x_b − s x_d, s x_b + c x_d); transpose flips s.
    V3<S> out;
    if constexpr (kOne) comp<a>(out) = comp<a>(x);
    if constexpr (kTranspose) {
      comp<b>(out) = c * comp<b>(x) + s * comp<d>(x);
      comp<d>(out) = c * comp<d>(x) - s * comp<b>(x);
    } else {
      comp<b>(out) = c * comp<b>(x) - s * comp<d>(x);
      comp<d>(out) = c * comp<d>(x) + s * comp<b>(x);
    }
    return out;
  } else {
    const S ex = dot(e, x);
    V3<S> out = c * (x - ex * e);
    if constexpr (kOne) out += ex * e;
    if constexpr (kTranspose)
      out -= s * cross(e, x);
    else
      out += s * cross(e, x);
    return out;
  }
}

/// Σ_{i=kFrom}^{k} Rot_[i] y(k − i) (kTranspose: Rot_[i]ᵀ) for a body with
/// the coefficient arrays cos_q, sin_q.
template <JointKind K, bool kTranspose, int kFrom, class S, std::size_t NC, class Y>
HODYN_ALWAYS_INLINE V3<S> axis_rotate_series(int k, const std::array<S, NC>& c,
                                             const std::array<S, NC>& s, const V3<S>& e,
                                             const Y& y) {
  V3<S> out{};
  if constexpr (kFrom == 0) out = axis_rotate<K, kTranspose, true>(e, c[0], s[0], y(k));
  for (int i = 1; i <= k; ++i) out += axis_rotate<K, kTranspose, false>(e, c[i], s[i], y(k - i));
  return out;
}

// ---------------------------------------------------------------------------
// Symmetric 6x6 articulated inertias [A B; Bᵀ C] (A, C symmetric, full storage)
// ---------------------------------------------------------------------------

template <class S>
struct Inertia6 {
  M3<S> a{}, b{}, c{};

  HODYN_ALWAYS_INLINE SV<S> operator*(const SV<S>& x) const {
    return {a * x.ang + b * x.lin, b.transpose_times(x.ang) + c * x.lin};
  }
  HODYN_ALWAYS_INLINE Inertia6& operator+=(const Inertia6& o) {
    for (int i = 0; i < 9; ++i) {
      a.a[i] += o.a.a[i];
      b.a[i] += o.b.a[i];
      c.a[i] += o.c.a[i];
    }
    return *this;
  }
  S trace() const { return a.a[0] + a.a[4] + a.a[8] + c.a[0] + c.a[4] + c.a[8]; }
  /// Writes the dense 6x6 matrix in place (no temporary: a wide copy of a
  /// just-written temporary stalls on store forwarding).
  void to_matrix(Matrix6<S>& m) const {
    for (int j = 0; j < 3; ++j)
      for (int i = 0; i < 3; ++i) {
        m(i, j) = a.a[3 * i + j];
        m(3 + i, j) = b.a[3 * j + i];
      }
    for (int j = 0; j < 3; ++j)
      for (int i = 0; i < 3; ++i) {
        m(i, 3 + j) = b.a[3 * i + j];
        m(3 + i, 3 + j) = c.a[3 * i + j];
      }
  }
};

/// The rigid spatial inertia of mass m, centre of mass c and rotational
/// inertia I about c (as set_rigid_inertia) times a = (α; a_lin), without
/// forming it: (I α + c × f; f), f = m (a_lin + α × c).
template <class S>
HODYN_ALWAYS_INLINE SV<S> rigid_inertia_times(const S& m, const V3<S>& c, const Sym3<S>& i,
                                              const SV<S>& a) {
  const V3<S> f = m * (a.lin + cross(a.ang, c));
  return {i * a.ang + cross(c, f), f};
}

/// r = the rigid spatial inertia of mass m, centre of mass c and rotational
/// inertia I about c: [[I + m((c·c)1 − c cᵀ), m[c]], [−m[c], m 1]]. Written in
/// place, entry by entry (a returned aggregate would be copied through memory).
template <class S>
HODYN_ALWAYS_INLINE void set_rigid_inertia(Inertia6<S>& r, const S& m, const V3<S>& c,
                                           const Sym3<S>& i) {
  const V3<S> h = m * c;
  const S hc = dot(h, c);
  r.a.a[0] = i.xx + hc - h.x * c.x;
  r.a.a[4] = i.yy + hc - h.y * c.y;
  r.a.a[8] = i.zz + hc - h.z * c.z;
  r.a.a[1] = r.a.a[3] = i.xy - h.x * c.y;
  r.a.a[2] = r.a.a[6] = i.xz - h.x * c.z;
  r.a.a[5] = r.a.a[7] = i.yz - h.y * c.z;
  r.b.a[0] = r.b.a[4] = r.b.a[8] = S(0);
  r.b.a[1] = -h.z;
  r.b.a[2] = h.y;
  r.b.a[3] = h.z;
  r.b.a[5] = -h.x;
  r.b.a[6] = -h.y;
  r.b.a[7] = h.x;
  r.c.a[0] = r.c.a[4] = r.c.a[8] = m;
  r.c.a[1] = r.c.a[2] = r.c.a[3] = r.c.a[5] = r.c.a[6] = r.c.a[7] = S(0);
}

/// out = m − u uᵀ / d (symmetric rank-1 update, scale = 1/d), entry by entry.
template <class S>
HODYN_ALWAYS_INLINE void reduce_rank_one(const Inertia6<S>& m, const SV<S>& u, const S& scale,
                                         Inertia6<S>& out) {
  const S w[6] = {u.ang.x, u.ang.y, u.ang.z, u.lin.x, u.lin.y, u.lin.z};
  S ws[6];
  for (int i = 0; i < 6; ++i) ws[i] = scale * w[i];
  for (int i = 0; i < 3; ++i) {
    for (int j = i; j < 3; ++j) {
      out.a.a[3 * i + j] = m.a.a[3 * i + j] - ws[i] * w[j];
      out.c.a[3 * i + j] = m.c.a[3 * i + j] - ws[3 + i] * w[3 + j];
    }
    for (int j = 0; j < 3; ++j) out.b.a[3 * i + j] = m.b.a[3 * i + j] - ws[i] * w[3 + j];
  }
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < i; ++j) {
      out.a.a[3 * i + j] = out.a.a[3 * j + i];
      out.c.a[3 * i + j] = out.c.a[3 * j + i];
    }
}

/// R X Rᵀ for R = Rot(e_a, q) (planar rotation in the (b, d) plane) and a
/// symmetric X (full storage): six entries computed, three mirrored.
template <int A, class S>
HODYN_ALWAYS_INLINE void rotate_symmetric_about(M3<S>& x, const S& c, const S& s, const S& cc,
                                                const S& ss, const S& cs) {
  constexpr int b = (A + 1) % 3, d = (A + 2) % 3;
  S* m = x.a;
  const S ab = m[3 * A + b], ad = m[3 * A + d];
  const S bb = m[3 * b + b], dd = m[3 * d + d], bd = m[3 * b + d];
  const S nab = c * ab - s * ad, nad = s * ab + c * ad;
  const S two_cs_bd = (cs + cs) * bd;
  const S nbb = cc * bb - two_cs_bd + ss * dd;
  const S ndd = ss * bb + two_cs_bd + cc * dd;
  const S nbd = cs * (bb - dd) + (cc - ss) * bd;
  m[3 * A + b] = m[3 * b + A] = nab;
  m[3 * A + d] = m[3 * d + A] = nad;
  m[3 * b + b] = nbb;
  m[3 * d + d] = ndd;
  m[3 * b + d] = m[3 * d + b] = nbd;
}

/// R X Rᵀ for R = Rot(e_a, q) and a general X.
template <int A, class S>
HODYN_ALWAYS_INLINE void rotate_general_about(M3<S>& x, const S& c, const S& s) {
  constexpr int b = (A + 1) % 3, d = (A + 2) % 3;
  S* m = x.a;
  for (int j = 0; j < 3; ++j) {  // rows: R X
    const S xb = m[3 * b + j], xd = m[3 * d + j];
    m[3 * b + j] = c * xb - s * xd;
    m[3 * d + j] = s * xb + c * xd;
  }
  for (int i = 0; i < 3; ++i) {  // columns: (R X) Rᵀ
    const S xb = m[3 * i + b], xd = m[3 * i + d];
    m[3 * i + b] = c * xb - s * xd;
    m[3 * i + d] = s * xb + c * xd;
  }
}

/// out = R X Rᵀ for a general rotation matrix (out must not alias x).
template <class S>
HODYN_ALWAYS_INLINE void rotate_general(const M3<S>& x, const M3<S>& r, M3<S>& out) {
  S t[9];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      t[3 * i + j] =
          r.a[3 * i] * x.a[j] + r.a[3 * i + 1] * x.a[3 + j] + r.a[3 * i + 2] * x.a[6 + j];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      out.a[3 * i + j] =
          t[3 * i] * r.a[3 * j] + t[3 * i + 1] * r.a[3 * j + 1] + t[3 * i + 2] * r.a[3 * j + 2];
}

/// Ad_{T(p)}⁻ᵀ m Ad_{T(p)}⁻¹: an inertia given about the point p moved to the
/// origin (same axes). With [p] the cross-product matrix,
///   C' = C,  B' = B + [p]C,  A' = A − B[p] + [p]Bᵀ − [p]C[p] = A + [p]B'ᵀ + ([p]Bᵀ)ᵀ.
template <class S>
HODYN_ALWAYS_INLINE void translate_inertia(Inertia6<S>& m, const V3<S>& p) {
  const V3<S> r0{m.b.a[0], m.b.a[1], m.b.a[2]}, r1{m.b.a[3], m.b.a[4], m.b.a[5]},
      r2{m.b.a[6], m.b.a[7], m.b.a[8]};
  const V3<S> f0 = cross(p, r0), f1 = cross(p, r1), f2 = cross(p, r2);  // p × (row i of B)
  // [p]C, column j = p × (column j of C) = p × (row j of C).
  const V3<S> e0 = cross(p, V3<S>{m.c.a[0], m.c.a[1], m.c.a[2]});
  const V3<S> e1 = cross(p, V3<S>{m.c.a[3], m.c.a[4], m.c.a[5]});
  const V3<S> e2 = cross(p, V3<S>{m.c.a[6], m.c.a[7], m.c.a[8]});
  // B' = B + [p]C: (B')_ij = B_ij + (e_j)_i.
  m.b.a[0] += e0.x;
  m.b.a[1] += e1.x;
  m.b.a[2] += e2.x;
  m.b.a[3] += e0.y;
  m.b.a[4] += e1.y;
  m.b.a[5] += e2.y;
  m.b.a[6] += e0.z;
  m.b.a[7] += e1.z;
  m.b.a[8] += e2.z;
  const V3<S> g0 = cross(p, V3<S>{m.b.a[0], m.b.a[1], m.b.a[2]});  // p × (row j of B')
  const V3<S> g1 = cross(p, V3<S>{m.b.a[3], m.b.a[4], m.b.a[5]});
  const V3<S> g2 = cross(p, V3<S>{m.b.a[6], m.b.a[7], m.b.a[8]});
  // A'_ij = A_ij + ([p]B'ᵀ)_ij + ([p]Bᵀ)_ji = A_ij + (g_j)_i + (f_i)_j.
  S* a = m.a.a;
  a[0] += g0.x + f0.x;
  a[4] += g1.y + f1.y;
  a[8] += g2.z + f2.z;
  a[1] += g1.x + f0.y;
  a[2] += g2.x + f0.z;
  a[5] += g2.y + f1.z;
  a[3] = a[1];
  a[6] = a[2];
  a[7] = a[5];
}

/// Ad_X⁻ᵀ m Ad_X⁻¹ for X = T(p) R (R given by kind K and cos/sin, or the
/// general matrix r): the articulated inertia of a child carried to its parent.
template <JointKind K, class S>
HODYN_ALWAYS_INLINE void carry_inertia_to_parent(Inertia6<S>& m, const V3<S>& e, const S& c,
                                                 const S& s, const V3<S>& p) {
  if constexpr (joint_rotates(K)) {
    constexpr int a = aligned_axis(K);
    if constexpr (a >= 0) {
      const S cc = c * c, ss = s * s, cs = c * s;
      rotate_symmetric_about<a>(m.a, c, s, cc, ss, cs);
      rotate_symmetric_about<a>(m.c, c, s, cc, ss, cs);
      rotate_general_about<a>(m.b, c, s);
    } else {
      const M3<S> r = axis_rotation<K>(e, S(1), c, s);
      M3<S> t;
      rotate_general(m.a, r, t);
      m.a = t;
      rotate_general(m.b, r, t);
      m.b = t;
      rotate_general(m.c, r, t);
      m.c = t;
    }
  }
  translate_inertia(m, p);
}

/// parent += Ad_X⁻ᵀ (m − U Uᵀ/D) Ad_X⁻¹ for a revolute joint about the
/// coordinate axis A, X = T(p) Rot(e_A, q): the reduced inertia has a zero
/// angular row and column A (its U_A = D), the rotation keeps them zero, and
/// the result is added to the parent entry by entry (no temporary aggregate).
template <int A, class S>
HODYN_ALWAYS_INLINE void add_reduced_revolute(const Inertia6<S>& m, const SV<S>& u, const S& dinv,
                                              const S& c, const S& s, const V3<S>& p,
                                              Inertia6<S>& parent) {
  constexpr int b = (A + 1) % 3, d = (A + 2) % 3;
  const S* ma = m.a.a;
  const S* mb = m.b.a;
  const S* mc = m.c.a;
  const S w[6] = {u.ang.x, u.ang.y, u.ang.z, u.lin.x, u.lin.y, u.lin.z};
  const S wb = dinv * w[b], wd = dinv * w[d];
  const S wl[3] = {dinv * w[3], dinv * w[4], dinv * w[5]};
  const S cc = c * c, ss = s * s, cs = c * s;
  // Reduced and rotated angular block: only the (b, d) block is non-zero.
  const S abb = ma[3 * b + b] - wb * w[b];
  const S abd = ma[3 * b + d] - wb * w[d];
  const S add = ma[3 * d + d] - wd * w[d];
  const S two_cs_abd = (cs + cs) * abd;
  M3<S> na;  // rotated A (row/column A zero)
  na.a[3 * b + b] = cc * abb - two_cs_abd + ss * add;
  na.a[3 * d + d] = ss * abb + two_cs_abd + cc * add;
  na.a[3 * b + d] = na.a[3 * d + b] = cs * (abb - add) + (cc - ss) * abd;
  // Reduced B rows b and d (row A is zero), rotated: rows mix, then columns.
  S rb[3], rd[3];
  for (int j = 0; j < 3; ++j) {
    const S xb = mb[3 * b + j] - wb * w[3 + j];
    const S xd = mb[3 * d + j] - wd * w[3 + j];
    rb[j] = c * xb - s * xd;
    rd[j] = s * xb + c * xd;
  }
  M3<S> nb;  // rotated B (row A zero)
  nb.a[3 * b + A] = rb[A];
  nb.a[3 * b + b] = c * rb[b] - s * rb[d];
  nb.a[3 * b + d] = s * rb[b] + c * rb[d];
  nb.a[3 * d + A] = rd[A];
  nb.a[3 * d + b] = c * rd[b] - s * rd[d];
  nb.a[3 * d + d] = s * rd[b] + c * rd[d];
  // Reduced and rotated C (symmetric).
  // (Brace-initialized whole: a zeroed M3 filled entry by entry cost a call
  // to memset.)
  const S c01 = mc[1] - wl[0] * w[4], c02 = mc[2] - wl[0] * w[5], c12 = mc[5] - wl[1] * w[5];
  M3<S> nc{{mc[0] - wl[0] * w[3], c01, c02, c01, mc[4] - wl[1] * w[4], c12, c02, c12,
            mc[8] - wl[2] * w[5]}};
  rotate_symmetric_about<A>(nc, c, s, cc, ss, cs);
  // Translation by p (see translate_inertia), accumulated into the parent.
  const V3<S> e0 = cross(p, nc.col(0)), e1 = cross(p, nc.col(1)), e2 = cross(p, nc.col(2));
  const V3<S> f0 = cross(p, V3<S>{nb.a[0], nb.a[1], nb.a[2]});
  const V3<S> f1 = cross(p, V3<S>{nb.a[3], nb.a[4], nb.a[5]});
  const V3<S> f2 = cross(p, V3<S>{nb.a[6], nb.a[7], nb.a[8]});
  M3<S> b2;  // B'' = B' + [p]C'
  b2.a[0] = nb.a[0] + e0.x;
  b2.a[1] = nb.a[1] + e1.x;
  b2.a[2] = nb.a[2] + e2.x;
  b2.a[3] = nb.a[3] + e0.y;
  b2.a[4] = nb.a[4] + e1.y;
  b2.a[5] = nb.a[5] + e2.y;
  b2.a[6] = nb.a[6] + e0.z;
  b2.a[7] = nb.a[7] + e1.z;
  b2.a[8] = nb.a[8] + e2.z;
  const V3<S> g0 = cross(p, V3<S>{b2.a[0], b2.a[1], b2.a[2]});
  const V3<S> g1 = cross(p, V3<S>{b2.a[3], b2.a[4], b2.a[5]});
  const V3<S> g2 = cross(p, V3<S>{b2.a[6], b2.a[7], b2.a[8]});
  S* pa = parent.a.a;
  const S a00 = na.a[0] + g0.x + f0.x, a11 = na.a[4] + g1.y + f1.y, a22 = na.a[8] + g2.z + f2.z;
  const S a01 = na.a[1] + g1.x + f0.y, a02 = na.a[2] + g2.x + f0.z, a12 = na.a[5] + g2.y + f1.z;
  pa[0] += a00;
  pa[4] += a11;
  pa[8] += a22;
  pa[1] += a01;
  pa[3] += a01;
  pa[2] += a02;
  pa[6] += a02;
  pa[5] += a12;
  pa[7] += a12;
  for (int i = 0; i < 9; ++i) {
    parent.b.a[i] += b2.a[i];
    parent.c.a[i] += nc.a[i];
  }
}

/// The inverse of a symmetric positive-definite 3x3 matrix (full storage,
/// symmetric input) by its adjugate, with Sylvester's criterion on the leading
/// minors as the LDLᵀ pivots would see them: pivot_k = minor_k / minor_{k−1}
/// > tiny, checked as minor_k > tiny · minor_{k−1} (no division).
template <class S, class Primal>
HODYN_ALWAYS_INLINE bool invert_positive_definite(const M3<S>& m, const Primal& tiny, M3<S>& out) {
  using Traits = ScalarTraits<S>;
  const S* a = m.a;
  const S c00 = a[4] * a[8] - a[5] * a[5];
  const S c01 = a[2] * a[5] - a[1] * a[8];
  const S c02 = a[1] * a[5] - a[2] * a[4];
  const S c11 = a[0] * a[8] - a[2] * a[2];
  const S c12 = a[1] * a[2] - a[0] * a[5];
  const S c22 = a[0] * a[4] - a[1] * a[1];  // the leading 2x2 minor
  const S det = a[0] * c00 + a[1] * c01 + a[2] * c02;
  const Primal m1 = Traits::primal(a[0]), m2 = Traits::primal(c22), m3 = Traits::primal(det);
  const bool ok = Traits::is_finite(det) && m1 > tiny && m2 > tiny * m1 && m3 > tiny * m2;
  const S inv = S(1) / det;
  out.a[0] = inv * c00;
  out.a[4] = inv * c11;
  out.a[8] = inv * c22;
  out.a[1] = out.a[3] = inv * c01;
  out.a[2] = out.a[6] = inv * c02;
  out.a[5] = out.a[7] = inv * c12;
  return ok;
}

/// Solves M x = f for a symmetric positive-definite 6x6 M = [A B; Bᵀ C] (the
/// base's articulated inertia) through the Schur complement of C:
///   E = B C⁻¹,  S = A − E Bᵀ,  x_ang = S⁻¹ (f_ang − E f_lin),
///   x_lin = C⁻¹ f_lin − Eᵀ x_ang.
/// Two 3x3 inversions and a few independent 3x3 products instead of the six
/// chained pivots of an LDLᵀ; each solve is four 3x3 products. M is positive
/// definite iff C and S are; `compute` says whether both are, with pivots
/// above 64 ε · max diag M (as an LDLᵀ would check them).
template <class S>
struct SchurSolve6 {
  M3<S> c_inv{};  ///< C⁻¹
  M3<S> e{};      ///< E = B C⁻¹
  M3<S> s_inv{};  ///< (A − E Bᵀ)⁻¹

  bool compute(const Inertia6<S>& m) {
    using Traits = ScalarTraits<S>;
    using Primal = decltype(Traits::primal(S(0)));
    Primal scale(0);
    for (int i = 0; i < 9; i += 4) {
      const Primal pa = Traits::primal(m.a.a[i]), pc = Traits::primal(m.c.a[i]);
      if (pa > scale) scale = pa;
      if (pc > scale) scale = pc;
    }
    const Primal tiny = scale * std::numeric_limits<Primal>::epsilon() * Primal(64);
    bool ok = invert_positive_definite(m.c, tiny, c_inv);
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        e.a[3 * i + j] = m.b.a[3 * i] * c_inv.a[j] + m.b.a[3 * i + 1] * c_inv.a[3 + j] +
                         m.b.a[3 * i + 2] * c_inv.a[6 + j];
    // S = A − E Bᵀ (symmetric: six entries), brace-initialized whole (a
    // zeroed M3 filled entry by entry cost a call to memset).
    const auto entry = [&](int i, int j) {
      return m.a.a[3 * i + j] - (e.a[3 * i] * m.b.a[3 * j] + e.a[3 * i + 1] * m.b.a[3 * j + 1] +
                                 e.a[3 * i + 2] * m.b.a[3 * j + 2]);
    };
    const S s00 = entry(0, 0), s01 = entry(0, 1), s02 = entry(0, 2);
    const S s11 = entry(1, 1), s12 = entry(1, 2), s22 = entry(2, 2);
    const M3<S> schur{{s00, s01, s02, s01, s11, s12, s02, s12, s22}};
    ok = invert_positive_definite(schur, tiny, s_inv) && ok;
    return ok;
  }

  HODYN_ALWAYS_INLINE SV<S> solve(const SV<S>& f) const {
    const V3<S> ang = s_inv * (f.ang - e * f.lin);
    return {ang, c_inv * f.lin - e.transpose_times(ang)};
  }
};

// ---------------------------------------------------------------------------
// Per-body series and per-body articulated quantities
// ---------------------------------------------------------------------------

/// Taylor coefficients and articulated quantities of one body in its joint frame.
template <int MaxOrder, class S>
struct ArticulatedBody {
  std::array<S, MaxOrder + 1> cos_q{};             ///< (cos q_j)_[k]
  std::array<S, MaxOrder + 1> sin_q{};             ///< (sin q_j)_[k]
  std::array<S, MaxOrder + 2> q{};                 ///< q_j,[k]
  std::array<S, MaxOrder + 2> rate{};              ///< q̇_j,[k]
  std::array<SV<S>, MaxOrder + 1> twist{};         ///< v_j,[k]
  std::array<SV<S>, MaxOrder + 1> acceleration{};  ///< ã_j,[k] = (v̇ − Ad_P⁻¹ G)_[k]
  std::array<SV<S>, MaxOrder + 1> wrench{};        ///< f_j,[k] (joint wrench)
  std::array<V3<S>, MaxOrder + 1> com_velocity{};  ///< (v + ω × c)_[k]
  std::array<V3<S>, MaxOrder + 1> spin{};          ///< (I_c ω)_[k]
  std::array<V3<S>, MaxOrder + 1> gravity{};       ///< (R_jᵀ g)_[k]
  Inertia6<S> inertia{};                           ///< M^A_j, joint frame, order-free (Lemma 2)
  SV<S> screw_inertia{};                           ///< U_j = M^A_j s_j
  S inverse_d{0};                                  ///< D_j⁻¹
  SV<S> bias{};               ///< p^A_j,[k]: articulated bias of the current order
  SV<S> acceleration_bias{};  ///< c_j,[k]
  S partial{0};               ///< (u_j − Uᵀ c_j)/D_j of the current order
  S pitch{0};                 ///< h_j of a helical joint, 0 otherwise
};

/// The joint screw s_j = (e; 0), (0; e) or, helical of pitch h, (e; h e)
/// added with weight x to w, and s_jᵀ w. `he` = h e (zero but for helical).
template <JointKind K, class S>
HODYN_ALWAYS_INLINE void add_screw(const V3<S>& e, const S& x, SV<S>& w, const V3<S>& he = {}) {
  if constexpr (is_revolute(K)) {
    add_along_axis<K>(e, x, w.ang);
  } else if constexpr (is_helical(K)) {
    w.ang += x * e;
    w.lin += x * he;
  } else {
    add_along_axis<K>(e, x, w.lin);
  }
}
template <JointKind K, class S>
HODYN_ALWAYS_INLINE S screw_dot(const V3<S>& e, const SV<S>& w, const V3<S>& he = {}) {
  if constexpr (is_revolute(K))
    return axis_dot<K>(e, w.ang);
  else if constexpr (is_helical(K))
    return dot(e, w.ang) + dot(he, w.lin);
  else
    return axis_dot<K>(e, w.lin);
}
/// h e of joint j: the linear part of a helical joint's screw per unit rate.
template <JointKind K, class Tree, class S>
HODYN_ALWAYS_INLINE V3<S> pitch_axis(const Model<Tree, S>& model, int j) {
  if constexpr (is_helical(K))
    return model.joint_pitch(j) * V3<S>::from(model.joint_axis(j));
  else
    return V3<S>{};
}
/// Ad_{T(d)}⁻¹ w = (ω; v − d × ω): a parent twist moved to the child's origin.
template <class S>
HODYN_ALWAYS_INLINE SV<S> shift_twist(const V3<S>& d, const SV<S>& w) {
  return {w.ang, w.lin - cross(d, w.ang)};
}

/// Order-0 part of Ad_{X_j}⁻¹ w (X_j at the current q).
template <JointKind K, int MaxOrder, class S>
HODYN_ALWAYS_INLINE SV<S> twist_to_child(const ArticulatedBody<MaxOrder, S>& b, const V3<S>& d,
                                         const V3<S>& e, const SV<S>& w) {
  SV<S> x = shift_twist(d, w);
  if constexpr (is_revolute(K)) {
    return {axis_rotate<K, true, true>(e, b.cos_q[0], b.sin_q[0], x.ang),
            axis_rotate<K, true, true>(e, b.cos_q[0], b.sin_q[0], x.lin)};
  } else if constexpr (is_helical(K)) {
    // X = T(d + h q e) Rot(e, q): rotate, then h q e × (Rot(−q) ω) off the
    // linear part (Rot(−q) e = e).
    SV<S> y{axis_rotate<K, true, true>(e, b.cos_q[0], b.sin_q[0], x.ang),
            axis_rotate<K, true, true>(e, b.cos_q[0], b.sin_q[0], x.lin)};
    y.lin -= (b.pitch * b.q[0]) * cross(e, y.ang);
    return y;
  } else {
    x.lin -= b.q[0] * axis_cross<K>(e, w.ang);
    return x;
  }
}

/// Coefficient k of Ad_{X_j}⁻ᵀ applied to the wrench series y(m), m = 0..k
/// (y(k) is the current-order wrench): the share a child passes to its parent.
template <JointKind K, int MaxOrder, class S, class Y>
HODYN_ALWAYS_INLINE SV<S> wrench_to_parent(int k, const ArticulatedBody<MaxOrder, S>& b,
                                           const V3<S>& d, const V3<S>& e, const Y& y) {
  SV<S> w;
  if constexpr (is_helical(K)) {
    // Ad_X⁻ᵀ f = Rot(q)(n + h q e × f; f) moved by d (Rot(q) e = e).
    const auto shifted = [&](int m) -> V3<S> {
      V3<S> n = y(m).ang;
      for (int i = 0; i <= m; ++i) n += (b.pitch * b.q[i]) * cross(e, y(m - i).lin);
      return n;
    };
    w = {axis_rotate_series<K, false, 0>(k, b.cos_q, b.sin_q, e, shifted),
         axis_rotate_series<K, false, 0>(k, b.cos_q, b.sin_q, e,
                                         [&](int m) -> V3<S> { return y(m).lin; })};
  } else if constexpr (is_revolute(K)) {
    w = {axis_rotate_series<K, false, 0>(k, b.cos_q, b.sin_q, e,
                                         [&](int m) -> V3<S> { return y(m).ang; }),
         axis_rotate_series<K, false, 0>(k, b.cos_q, b.sin_q, e,
                                         [&](int m) -> V3<S> { return y(m).lin; })};
  } else {
    w = y(k);
    for (int i = 0; i <= k; ++i) w.ang += b.q[i] * axis_cross<K>(e, y(k - i).lin);
  }
  w.ang += cross(d, w.lin);
  return w;
}

// ---------------------------------------------------------------------------
// Applied loads in joint frames (shared with inverse dynamics)
// ---------------------------------------------------------------------------

// ---------------------------------------------------------------------------
// The engine
// ---------------------------------------------------------------------------

/// The ball-joint part of a body's articulated quantities (S = [1; 0], 6 × 3):
/// its rotation series, ω, U = M^A S = [A; Bᵀ] and D⁻¹ = A⁻¹ (3 × 3).
template <int MaxOrder, class S>
struct ArticulatedBall {
  std::array<M3<S>, MaxOrder + 2> rotation{};  ///< R_[k]
  std::array<V3<S>, MaxOrder + 2> rate{};      ///< ω_[k]
  M3<S> inverse_d{};                           ///< D⁻¹ = A⁻¹ of M^A = [A B; Bᵀ C]
  V3<S> partial{};                             ///< D⁻¹ (τ − Sᵀ p^A) of the current order
};

/// The rank of ball joint j among the tree's balls.
template <class Tree>
HODYN_ALWAYS_INLINE constexpr int ball_index(int j) {
  return TreeTraits<Tree>::kSphericalIndex[static_cast<std::size_t>(j)];
}
/// Order-0 part of Ad_X⁻¹ w for a ball, X = T(d) R: (Rᵀ ω; Rᵀ (v − d × ω)).
template <int MaxOrder, class S>
HODYN_ALWAYS_INLINE SV<S> ball_twist_to_child(const ArticulatedBall<MaxOrder, S>& bl,
                                              const V3<S>& d, const SV<S>& w) {
  return {bl.rotation[0].transpose_times(w.ang),
          bl.rotation[0].transpose_times(w.lin - cross(d, w.ang))};
}

/// Coefficient k of Ad_X⁻ᵀ for a ball, X = T(d) R, applied to the wrench
/// series y(m), m = 0..k (y(k) the current order's): Σ_i R_[i] y(k−i), moved by d.
template <int MaxOrder, class S, class Y>
HODYN_ALWAYS_INLINE SV<S> ball_wrench_to_parent(int k, const ArticulatedBall<MaxOrder, S>& bl,
                                                const V3<S>& d, const Y& y) {
  SV<S> w{};
  for (int i = 0; i <= k; ++i) {
    const SV<S>& f = y(k - i);
    w.ang += bl.rotation[i] * f.ang;
    w.lin += bl.rotation[i] * f.lin;
  }
  w.ang += cross(d, w.lin);
  return w;
}

/// The universal-joint part of a body's articulated quantities: the joint is
/// two revolute steps, about e₁ (parent → the massless intermediate frame m,
/// X₁ = T(d) Rot(e₁, θ₁)) and about e₂ (m → the child, X₂ = Rot(e₂, θ₂)).
/// The body's own ArticulatedBody holds θ₁'s series (q, rate, cos_q, sin_q)
/// and the second step's U₂ = M^A_j s₂, D₂⁻¹ and partial; this holds θ₂'s
/// series and the intermediate frame's twist, acceleration, gravity and
/// wrench series, its articulated inertia M^A_m and the first step's U₁, D₁⁻¹.
template <int MaxOrder, class S>
struct ArticulatedUniversal {
  std::array<S, MaxOrder + 1> cos2{};                ///< (cos θ₂)_[k]
  std::array<S, MaxOrder + 1> sin2{};                ///< (sin θ₂)_[k]
  std::array<S, MaxOrder + 2> q2{};                  ///< θ₂,[k]
  std::array<S, MaxOrder + 2> rate2{};               ///< θ̇₂,[k]
  std::array<SV<S>, MaxOrder + 1> twist_m{};         ///< v_m,[k]
  std::array<SV<S>, MaxOrder + 1> acceleration_m{};  ///< ã_m,[k]
  std::array<SV<S>, MaxOrder + 1> wrench_m{};        ///< f_m,[k] = (Rot₂ ⊛ f_j)_[k]
  std::array<V3<S>, MaxOrder + 1> gravity_m{};       ///< (R_mᵀ g)_[k]
  Inertia6<S> inertia_m{};                           ///< M^A_m (reduced across θ₂, in m)
  SV<S> screw_inertia{};                             ///< U₁ = M^A_m s₁
  S inverse_d{0};                                    ///< D₁⁻¹
  SV<S> acceleration_bias{};                         ///< c_m,[k]
  S partial{0};  ///< (τ₁ − s₁ᵀ p_m)/D₁ of the current order
};

/// The rank of universal joint j among the tree's universal joints.
template <class Tree>
HODYN_ALWAYS_INLINE constexpr int universal_index(int j) {
  return TreeTraits<Tree>::kUniversalIndex[static_cast<std::size_t>(j)];
}

/// Order-0 second step of a universal joint, X₂ = Rot(e₂, θ₂) (no offset):
/// Rot₂ᵀ w, a twist of the intermediate frame m in the child's frame.
template <int MaxOrder, class S>
HODYN_ALWAYS_INLINE SV<S> universal_twist_to_child(const ArticulatedUniversal<MaxOrder, S>& un,
                                                   const V3<S>& e2, const SV<S>& w) {
  constexpr JointKind R = JointKind::kRevolute;
  return {axis_rotate<R, true, true>(e2, un.cos2[0], un.sin2[0], w.ang),
          axis_rotate<R, true, true>(e2, un.cos2[0], un.sin2[0], w.lin)};
}
/// Order-0 Rot₂ f: the child's wrench in the intermediate frame m.
template <int MaxOrder, class S>
HODYN_ALWAYS_INLINE SV<S> universal_wrench_to_m(const ArticulatedUniversal<MaxOrder, S>& un,
                                                const V3<S>& e2, const SV<S>& f) {
  constexpr JointKind R = JointKind::kRevolute;
  return {axis_rotate<R, false, true>(e2, un.cos2[0], un.sin2[0], f.ang),
          axis_rotate<R, false, true>(e2, un.cos2[0], un.sin2[0], f.lin)};
}

/// The universal joints' parts of the workspace, TreeTraits::kUniversalIndex
/// order; an empty base without a universal joint (a zero-length member
/// would still take 16 bytes of ForwardDynamicsData).
template <int MaxOrder, class S, int NumUniversal>
struct ArticulatedUniversalParts {
  std::array<ArticulatedUniversal<MaxOrder, S>, NumUniversal> universal{};
};
template <int MaxOrder, class S>
struct ArticulatedUniversalParts<MaxOrder, S, 0> {
  // The universal branches of the passes are discarded (`if constexpr`) for
  // such a tree, but clang still looks up `ws.universal` in them (its type
  // does not depend on the kind): a static member has the name and takes no
  // room in the workspace.
  static inline std::array<ArticulatedUniversal<MaxOrder, S>, 0> universal{};
};

/// Workspace of the joint-frame articulated-body engine.
template <class Tree, int MaxOrder, class S>
struct ArticulatedWorkspace
    : ArticulatedUniversalParts<MaxOrder, S, TreeTraits<Tree>::kNumUniversalJoints> {
  /// Ball joints' parts, TreeTraits::kSphericalIndex order (empty without a ball).
  std::array<ArticulatedBall<MaxOrder, S>, TreeTraits<Tree>::kNumSphericalJoints> ball{};
  std::array<ArticulatedBody<MaxOrder, S>, Tree::kNumBodies> body{};
  MovingFrame<MaxOrder, S> base_frame{};         ///< P_0(t) = C₁(t) (A⁰_0)⁻¹
  std::array<SV<S>, MaxOrder + 2> base_twist{};  ///< V₁,[k], world
  std::array<SV<S>, MaxOrder + 1> base_input{};  ///< Q_[k] world, or (V̇₁ − G)_[k]
  std::array<V3<S>, MaxOrder + 1> scratch{};
  std::array<V3<S>, MaxOrder + 1> world_spin{};  ///< (R ã.ang)_[k] of the base
  SchurSolve6<S> base_factor{};
  JointSineCosine<S, Tree::kNumBodies> joint_sine_cosine{};  ///< cos q_j, sin q_j at order 0
};

HODYN_ISA_NAMESPACE_END
}  // namespace hodyn::detail
