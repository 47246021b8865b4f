// hodyn/detail/series_recursions.hpp — the per-body steps of the higher-order
// recursions (seed 000 Alg. 1-2, App. E) shared by inverse, forward, hybrid
// dynamics and the closed forms.
//
// Taylor coefficients. Inside the algorithms every time function x(t) is held
// as its normalized derivatives x_[k] = x^(k)/k!. The Leibniz sums of the paper,
// Σ_i C(k,i) a^(i) b^(k−i), then become plain Cauchy products Σ_i a_[i] b_[k−i]
// (no binomial coefficient to multiply), and an ODE ẋ = f gives
// x_[k+1] = f_[k]/(k+1). Inputs are scaled by 1/k! on the way in and outputs by
// k! on the way out.
//
// Centre-of-mass form of the inertia. Every body carries, in the world frame,
// its joint pose F_j, twist V_j, joint screw S_j, centre of mass c_j and
// rotational inertia about the centre of mass I_j. This is the spatial inertia
// M⁰_j of eq. 60 on its ten parameters; with
//   ċ = v + ω × c,   İ = [ω]I − I[ω],   Π = M⁰V = (I ω + m c × ċ; m ċ),
//   d/dt(c × ċ) = c × c̈,   W_grav = M⁰G = (m c × g; m g)   (eqs. 59-64)
// the order-k joint wrench share of a body is
//   W_[k] = ( (k+1) Σ_i I_[i] ω_[k+1−i] + m Σ_{i≤k} c_[i] × c̈_[k−i] − m c_[k] × g ;
//             m c̈_[k] − δ_k0 m g ),   c̈_[n] = (n+1)(n+2) c_[n+2],
// so no 6x6 inertia derivative (eq. 61) and no 6x6 product is ever formed.
#pragma once

#include <array>
#include <cmath>
#include "hodyn/detail/isa.hpp"

#include "hodyn/detail/compile_time.hpp"
#include "hodyn/detail/sine_cosine.hpp"
#include "hodyn/detail/small_algebra.hpp"
#include "hodyn/model.hpp"
#include "hodyn/pose.hpp"
#include "hodyn/spatial_inertia.hpp"
#include "hodyn/symmetric_matrix3.hpp"
#include "hodyn/tree.hpp"

namespace hodyn::detail {
HODYN_ISA_NAMESPACE_BEGIN

/// 1/k! and k! as scalars.
template <class S>
inline S factorial(int k) {
  S f(1);
  for (int i = 2; i <= k; ++i) f *= S(i);
  return f;
}
template <class S>
inline S inverse_factorial(int k) {
  return S(1) / factorial<S>(k);
}
template <class S>
inline S reciprocal(int n) {
  return S(1) / S(n);
}

/// Kinematic and inertial Taylor coefficients of one body: twist and screw to
/// MaxOrder+1, centre of mass to MaxOrder+2, inertia to MaxOrder+2.
template <int MaxOrder, class S>
struct BodySeries {
  M3<S> rotation{};                             ///< F_j rotation (Alg. 1)
  V3<S> translation{};                          ///< F_j translation
  std::array<SV<S>, MaxOrder + 2> twist{};      ///< V_j,[k]
  std::array<SV<S>, MaxOrder + 2> screw{};      ///< S_j,[k] (unused for the base)
  std::array<V3<S>, MaxOrder + 3> com{};        ///< c_j,[k]
  std::array<Sym3<S>, MaxOrder + 3> inertia{};  ///< I_j,[k] about the centre of mass
};

/// R_parent · Rot(axis a, q), mixing two columns of R_parent (12 products).
template <JointKind K, class S>
inline M3<S> rotate_aligned(const M3<S>& rp, const S& c, const S& s) {
  constexpr int a = aligned_axis(K);
  constexpr int b = (a + 1) % 3;  // Rot(a, q): e_b → c e_b + s e_d, e_d → −s e_b + c e_d
  constexpr int d = (a + 2) % 3;
  M3<S> r;
  const V3<S> cb = rp.col(b), cd = rp.col(d);
  r.set_col(a, rp.col(a));
  r.set_col(b, c * cb + s * cd);
  r.set_col(d, c * cd - s * cb);
  return r;
}

/// Order 0 of the base: F_0 = C₁ (A⁰_0)⁻¹, centre of mass and inertia in the world.
template <int MaxOrder, class Tree, class S>
inline void place_base(const Model<Tree, S>& model, const Pose<S>& base_pose,
                       BodySeries<MaxOrder, S>& b) {
  const Pose<S> f = base_pose * model.base_home_pose_inverse();
  b.rotation = M3<S>::from(f.rotation);
  b.translation = V3<S>::from(f.translation);
  b.com[0] = b.rotation * V3<S>::from(model.home_com(0)) + b.translation;
  b.inertia[0] = model.home_inertia(0).congruence(b.rotation);
}

/// Order 0 of body j: F_j = F_p exp([Y_j] q_j) (Alg. 1), S_j = Ad_{F_j} Y_j
/// (a helical joint: the rotation about its axis and h q along it),
/// centre of mass F_j(c_home) and inertia R_F I_home R_Fᵀ. The pose turns by
/// θ = s q about the positive axis and S_j carries the joint sense s, so that
/// V_j = V_p + S_j q̇_j holds in the user's q (model.hpp).
/// `c`, `s`: cos θ, sin θ (a caller that has all joints' from one batch,
/// JointSineCosine; unused for a prismatic joint).
template <JointKind K, int MaxOrder, class Tree, class S>
HODYN_ALWAYS_INLINE void place_body(const Model<Tree, S>& model, int j,
                                    const BodySeries<MaxOrder, S>& parent, const S& q_user,
                                    const S& c, const S& s, BodySeries<MaxOrder, S>& b) {
  const S sense = model.joint_sense(j);
  const S q = sense * q_user;
  const M3<S>& rp = parent.rotation;
  if constexpr (joint_rotates(K)) {
    const V3<S> a = V3<S>::from(model.joint_axis_point(j));
    // The axis point does not move with the joint: F_p carries it onto the axis.
    const V3<S> a_world = rp * a + parent.translation;
    V3<S> e_world;
    if constexpr (aligned_axis(K) >= 0) {
      b.rotation = rotate_aligned<K>(rp, c, s);
      e_world = rp.col(aligned_axis(K));
    } else {
      const V3<S> e = V3<S>::from(model.joint_axis(j));
      // Rodrigues on the right: R_p Rot(e, q) = R_p (c 1 + s [e] + (1 − c) e eᵀ).
      M3<S> rel;
      const S omc = S(1) - c;
      rel.a[0] = c + omc * e.x * e.x;
      rel.a[1] = omc * e.x * e.y - s * e.z;
      rel.a[2] = omc * e.x * e.z + s * e.y;
      rel.a[3] = omc * e.y * e.x + s * e.z;
      rel.a[4] = c + omc * e.y * e.y;
      rel.a[5] = omc * e.y * e.z - s * e.x;
      rel.a[6] = omc * e.z * e.x - s * e.y;
      rel.a[7] = omc * e.z * e.y + s * e.x;
      rel.a[8] = c + omc * e.z * e.z;
      b.rotation = rp * rel;
      e_world = rp * e;
    }
    // F_j maps a to a_world, shifted by h q e along the axis for a helical joint.
    V3<S> a_moved = a_world;
    V3<S> screw_lin = sense * cross(a_world, e_world);
    if constexpr (is_helical(K)) {
      const S h = model.joint_pitch(j);
      a_moved += (h * q) * e_world;
      screw_lin += h * e_world;  // Y = (e; a × e + h e), sense +1 (general axis)
    }
    b.translation = a_moved - b.rotation * a;
    b.screw[0] = {sense * e_world, screw_lin};
    b.com[0] = b.rotation * V3<S>::from(model.com_from_axis_point(j)) + a_moved;
  } else {
    static_assert(is_prismatic(K), "joint kind must be revolute or prismatic");
    b.rotation = rp;
    V3<S> e_world;
    if constexpr (aligned_axis(K) >= 0) {
      e_world = rp.col(aligned_axis(K));
    } else {
      e_world = rp * V3<S>::from(model.joint_axis(j));
    }
    b.translation = parent.translation + q * e_world;
    b.screw[0] = {V3<S>{}, sense * e_world};
    b.com[0] = b.rotation * V3<S>::from(model.home_com(j)) + b.translation;
  }
  b.inertia[0] = model.home_inertia(j).congruence(b.rotation);
}

/// The same, cos θ and sin θ computed here.
template <JointKind K, int MaxOrder, class Tree, class S>
inline void place_body(const Model<Tree, S>& model, int j, const BodySeries<MaxOrder, S>& parent,
                       const S& q_user, BodySeries<MaxOrder, S>& b) {
  S c(1), s(0);
  if constexpr (joint_rotates(K)) sine_cosine_one(S(model.joint_sense(j) * q_user), c, s);
  place_body<K>(model, j, parent, q_user, c, s, b);
}

/// S_[k] = (1/k) Σ_{m<k} ad(V_[m], S_[k−1−m]), k ≥ 1   (Alg. 1: Ṡ = ad_V S).
template <JointKind K, int MaxOrder, class S>
inline void screw_coefficient(int k, BodySeries<MaxOrder, S>& b) {
  SV<S> sum{};
  for (int m = 0; m < k; ++m) {
    const SV<S>& v = b.twist[m];
    const SV<S>& x = b.screw[k - 1 - m];
    if constexpr (is_prismatic(K)) {  // the angular part of every S_[i] stays zero
      sum.lin += cross(v.ang, x.lin);
    } else {
      sum += ad(v, x);
    }
  }
  b.screw[k] = reciprocal<S>(k) * sum;
}

/// V_[k] = V_p,[k] + Σ_{m≤k} S_[m] q̇_[k−m]   (Alg. 1: V_j = V_p + S_j q̇_j).
/// `qd(n)` returns the Taylor coefficient n of q̇_j.
template <JointKind K, int MaxOrder, class S, class JointRate>
inline void twist_coefficient(int k, const SV<S>& parent_twist, const JointRate& qd,
                              BodySeries<MaxOrder, S>& b) {
  SV<S> v = parent_twist;
  for (int m = 0; m <= k; ++m) {
    const S rate = qd(k - m);
    if constexpr (is_prismatic(K)) {
      v.lin += rate * b.screw[m].lin;
    } else {
      v += rate * b.screw[m];
    }
  }
  b.twist[k] = v;
}

/// x_[k+1] = (v_[k] + Σ_{i≤k} ω_[i] × x_[k−i]) / (k+1): a point carried by a body.
template <class S, std::size_t NT, std::size_t NX>
inline V3<S> point_next_coefficient(int k, const std::array<SV<S>, NT>& twist,
                                    const std::array<V3<S>, NX>& x) {
  V3<S> d = twist[k].lin;
  for (int i = 0; i <= k; ++i) d += cross(twist[i].ang, x[k - i]);
  return reciprocal<S>(k + 1) * d;
}

/// I_[k+1] = Σ_{i≤k} ([ω_[i]] I_[k−i] − I_[k−i] [ω_[i]]) / (k+1).
template <int MaxOrder, class S>
inline void inertia_next_coefficient(int k, BodySeries<MaxOrder, S>& b) {
  Sym3<S> d = b.inertia[k].skew_commutator(b.twist[0].ang);
  for (int i = 1; i <= k; ++i) d += b.inertia[k - i].skew_commutator(b.twist[i].ang);
  b.inertia[k + 1] = d.scaled(reciprocal<S>(k + 1));
}

/// R_[k+1] = Σ_{i≤k} [ω_[i]] R_[k−i] / (k+1): the rotation of a body frame.
template <class S, std::size_t NT, std::size_t NR>
HODYN_ALWAYS_INLINE M3<S> rotation_next_coefficient(int k, const std::array<SV<S>, NT>& twist,
                                                    const std::array<M3<S>, NR>& r) {
  const auto column = [&](int col) {
    V3<S> c{};
    for (int i = 0; i <= k; ++i) c += cross(twist[i].ang, r[k - i].col(col));
    return reciprocal<S>(k + 1) * c;
  };
  const V3<S> c0 = column(0), c1 = column(1), c2 = column(2);
  // Brace-initialized whole (a zeroed M3 filled column by column cost a
  // call to memset).
  return {{c0.x, c1.x, c2.x, c0.y, c1.y, c2.y, c0.z, c1.z, c2.z}};
}

/// The body's own share of its joint wrench, coefficient k: the derivative of
/// its momentum minus its weight (see the header). Reads twist to k+1, com to
/// k+2 and inertia to k+1.
template <int MaxOrder, class S>
inline SV<S> own_wrench_coefficient(int k, const S& mass, const V3<S>& g,
                                    const BodySeries<MaxOrder, S>& b) {
  // Rotational momentum rate (k+1) l_[k+1], l = I ω.
  V3<S> n = b.inertia[0] * b.twist[k + 1].ang;
  for (int i = 1; i <= k + 1; ++i) n += b.inertia[i] * b.twist[k + 1 - i].ang;
  n = S(k + 1) * n;
  // Moment of the linear momentum, m Σ_{i≤k} c_[i] × c̈_[k−i], minus the weight's m c_[k] × g.
  V3<S> lin_moment = cross(b.com[k], S(2) * b.com[2] - g);
  for (int i = 0; i < k; ++i)
    lin_moment += S((k - i + 1) * (k - i + 2)) * cross(b.com[i], b.com[k + 2 - i]);
  n += mass * lin_moment;
  V3<S> f = (mass * S((k + 1) * (k + 2))) * b.com[k + 2];
  if (k == 0) f -= mass * g;
  return {n, f};
}

/// The dense world-frame spatial inertia M⁰ of a body from its centre-of-mass
/// form: [[I + m((c·c)1 − c cᵀ), m[c]], [−m[c], m 1]] (eq. 60 on ten parameters).
template <class S>
Matrix6<S> spatial_inertia_matrix(const S& m, const V3<S>& c, const Sym3<S>& i) {
  const V3<S> h = m * c;
  const S hc = dot(h, c);
  Matrix6<S> r;
  r(0, 0) = i.xx + hc - h.x * c.x;
  r(1, 1) = i.yy + hc - h.y * c.y;
  r(2, 2) = i.zz + hc - h.z * c.z;
  r(0, 1) = r(1, 0) = i.xy - h.x * c.y;
  r(0, 2) = r(2, 0) = i.xz - h.x * c.z;
  r(1, 2) = r(2, 1) = i.yz - h.y * c.z;
  // [h] in the top right, −[h] = [h]ᵀ in the bottom left.
  r(0, 3) = r(3, 0) = S(0);
  r(1, 4) = r(4, 1) = S(0);
  r(2, 5) = r(5, 2) = S(0);
  r(0, 4) = r(4, 0) = -h.z;
  r(0, 5) = r(5, 0) = h.y;
  r(1, 3) = r(3, 1) = h.z;
  r(1, 5) = r(5, 1) = -h.x;
  r(2, 3) = r(3, 2) = -h.y;
  r(2, 4) = r(4, 2) = h.x;
  for (int a = 3; a < 6; ++a)
    for (int b = 3; b < 6; ++b) r(a, b) = a == b ? m : S(0);
  return r;
}

HODYN_ISA_NAMESPACE_END
}  // namespace hodyn::detail
