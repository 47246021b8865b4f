// hodyn/detail/joint_frame_recursions.hpp — inverse dynamics in body-fixed
// joint frames, on Taylor coefficients: the fast path of `inverse_dynamics`.
//
// Every body j gets a frame B_j fixed to it: origin o_j on its joint axis
// (revolute; the parent's origin for a prismatic joint, the world origin for
// the base), axes parallel to the world at home. Its pose is P_j = F_j T(o_j),
// and P_j = P_p X_j with X_j = T(d_j) Rot(e_j, q_j) (revolute) or
// X_j = T(d_j + e_j q_j) (prismatic) or T(d_j + h_j q_j e_j) Rot(e_j, q_j)
// (helical of pitch h_j), d_j = o_j − o_p constant. In B_j:
//   - the joint screw is constant: s_j = (e_j; 0) or (0; e_j), and an
//     axis-aligned one is a unit vector, so S_jᵀ W is a component pick;
//   - the body's spatial inertia M_j is constant (no inertia derivatives);
//   - the body twist is v_j = Ad_{X_j}⁻¹ v_p + s_j q̇_j, and with the gravity
//     folded into the acceleration, ã = v̇ − Ad_{P⁻¹} G,
//       ã_j = Ad_{X_j}⁻¹ ã_p − q̇_j ad_{s_j}(Ad_{X_j}⁻¹ v_p) + s_j q̈_j,
//       f_j = M_j ã_j − ad_{v_j}ᵀ (M_j v_j) + Σ_children Ad_{X_c}⁻ᵀ f_c,
//       τ_j = s_jᵀ f_j  (Newton–Euler in body coordinates, seed 000 App. E in B_j).
// Every relation holds at every instant, so the Taylor coefficients follow by
// Cauchy products; the only time-varying factor of Ad_{X_j}⁻¹ is the rotation
// Rot(e_j, q_j(t)), whose coefficients come from those of cos q_j(t) and
// sin q_j(t). The base enters through Ad_{P_0}⁻¹ of V₁ and of V̇₁ − G, and the
// base wrench leaves through Ad_{P_0}⁻ᵀ (the world frame) and the constant
// Ad_{A⁰_1}ᵀ (the base frame). Same results as the world-frame recursions of
// seed 000 (the tests compare both with the Taylor-series oracle), with about
// half the arithmetic: no pose products, no rotated inertias.
#pragma once

#include <array>
#include <cmath>
#include <cstddef>
#include "hodyn/detail/isa.hpp"

#include "hodyn/detail/ball_joint.hpp"
#include "hodyn/detail/compile_time.hpp"
#include "hodyn/detail/moving_frame.hpp"
#include "hodyn/detail/root_motion.hpp"
#include "hodyn/detail/series_recursions.hpp"
#include "hodyn/detail/sine_cosine.hpp"
#include "hodyn/detail/small_algebra.hpp"
#include "hodyn/model.hpp"
#include "hodyn/motion.hpp"
#include "hodyn/symmetric_matrix3.hpp"
#include "hodyn/tree.hpp"

namespace hodyn::detail {
HODYN_ISA_NAMESPACE_BEGIN

/// R_[k] of every ball joint (detail/ball_joint.hpp) and (cos θ₂)_[k],
/// (sin θ₂)_[k] of every universal joint, in the joint-frame recursions.
/// (A tree without a universal joint gets the balls' array alone, as before.)
template <int MaxOrder, class S, int NumBalls, int NumUniversal>
struct MultiDofSeries {
  std::array<std::array<M3<S>, MaxOrder + 1>, NumBalls> ball_rotation;
  std::array<std::array<S, MaxOrder + 1>, NumUniversal> universal_cos, universal_sin;
};
template <int MaxOrder, class S, int NumBalls>
struct MultiDofSeries<MaxOrder, S, NumBalls, 0> {
  std::array<std::array<M3<S>, MaxOrder + 1>, NumBalls> ball_rotation;
};
/// The universal joints' cos θ₂, sin θ₂ series of a MultiDofSeries, named
/// through the joint kind K so that only a universal joint's code names them.
template <JointKind K, class M>
HODYN_ALWAYS_INLINE auto& universal_cosines(M& m) {
  return m.universal_cos;
}
template <JointKind K, class M>
HODYN_ALWAYS_INLINE auto& universal_sines(M& m) {
  return m.universal_sin;
}

/// Taylor coefficients of one body in its joint frame.
template <int MaxOrder, class S>
struct JointFrameSeries {
  std::array<S, MaxOrder + 1> cos_q{};             ///< (cos q_j)_[k]
  std::array<S, MaxOrder + 1> sin_q{};             ///< (sin q_j)_[k]
  std::array<SV<S>, MaxOrder + 1> twist{};         ///< v_j,[k]
  std::array<SV<S>, MaxOrder + 1> acceleration{};  ///< ã_j,[k] = (v̇ − gravity)_[k]
  std::array<SV<S>, MaxOrder + 1> wrench{};        ///< f_j,[k], joint-frame components
};

/// The constant spatial inertia of a body in its joint frame: mass, centre of
/// mass c, rotational inertia I about the centre of mass.
template <class S>
struct JointFrameInertia {
  S mass{0};
  V3<S> com{};
  Sym3<S> inertia{};
};

template <class Tree, class S>
HODYN_ALWAYS_INLINE JointFrameInertia<S> joint_frame_inertia(const Model<Tree, S>& model, int j) {
  return {model.mass(j), V3<S>::from(model.local_com(j)), model.home_inertia(j)};
}

/// e × u, e · u and s e for the joint axis e; an axis-aligned kind needs no
/// product (IEEE arithmetic cannot drop a multiplication by 0 by itself).
template <JointKind K, class S>
HODYN_ALWAYS_INLINE V3<S> axis_cross(const V3<S>& e, const V3<S>& u) {
  constexpr int a = aligned_axis(K);
  if constexpr (a == 0)
    return {S(0), -u.z, u.y};
  else if constexpr (a == 1)
    return {u.z, S(0), -u.x};
  else if constexpr (a == 2)
    return {-u.y, u.x, S(0)};
  else
    return cross(e, u);
}
template <JointKind K, class S>
HODYN_ALWAYS_INLINE S axis_dot(const V3<S>& e, const V3<S>& u) {
  constexpr int a = aligned_axis(K);
  if constexpr (a == 0)
    return u.x;
  else if constexpr (a == 1)
    return u.y;
  else if constexpr (a == 2)
    return u.z;
  else
    return dot(e, u);
}
template <JointKind K, class S>
HODYN_ALWAYS_INLINE void add_along_axis(const V3<S>& e, const S& s, V3<S>& u) {
  constexpr int a = aligned_axis(K);
  if constexpr (a == 0)
    u.x += s;
  else if constexpr (a == 1)
    u.y += s;
  else if constexpr (a == 2)
    u.z += s;
  else
    u += s * e;
}

/// Component a of u, and the vector with components (va, vb, vd) along the
/// axes a, b = a + 1, d = a + 2 (mod 3) of an axis-aligned joint.
template <int A, class S>
HODYN_ALWAYS_INLINE const S& component(const V3<S>& u) {
  if constexpr (A == 0)
    return u.x;
  else if constexpr (A == 1)
    return u.y;
  else
    return u.z;
}
template <int A, class S>
HODYN_ALWAYS_INLINE V3<S> from_axis_components(const S& va, const S& vb, const S& vd) {
  if constexpr (A == 0)
    return {va, vb, vd};
  else if constexpr (A == 1)
    return {vd, va, vb};
  else
    return {vb, vd, va};
}

/// Rotation by ±q about the joint axis applied to y, coefficient-wise:
/// Σ_i Rot(±q)_[i] y_[k−i], with Rot(q) = c 1 + s [e] + (1 − c) e eᵀ.
/// kInverse selects Rot(−q) = Rot(q)ᵀ.
template <JointKind K, bool kInverse, class S, std::size_t NC, class Y>
HODYN_ALWAYS_INLINE V3<S> rotate_series(int k, const std::array<S, NC>& c,
                                        const std::array<S, NC>& s, const V3<S>& e, const Y& y) {
  const S sign = kInverse ? S(-1) : S(1);
  V3<S> out{};
  if constexpr (aligned_axis(K) >= 0) {
    constexpr int a = aligned_axis(K);
    constexpr int b = (a + 1) % 3;
    constexpr int d = (a + 2) % 3;
    // Rot(q) about e_a: (y_b, y_d) → (c y_b − s y_d, s y_b + c y_d), y_a unchanged.
    S ob(0), od(0);
    for (int i = 0; i <= k; ++i) {
      const V3<S>& yi = y(k - i);
      const S yb = b == 0 ? yi.x : b == 1 ? yi.y : yi.z;
      const S yd = d == 0 ? yi.x : d == 1 ? yi.y : yi.z;
      const S ss = sign * s[i];
      ob += c[i] * yb - ss * yd;
      od += ss * yb + c[i] * yd;
    }
    const V3<S>& yk = y(k);
    const S oa = a == 0 ? yk.x : a == 1 ? yk.y : yk.z;
    out = a == 0 ? V3<S>{oa, ob, od} : a == 1 ? V3<S>{od, oa, ob} : V3<S>{ob, od, oa};
  } else {
    // c y + (1 − c)(e·y) e ± s e × y  =  (e·y) e + c (y − (e·y) e) ± s e × y
    for (int i = 0; i <= k; ++i) {
      const V3<S>& yi = y(k - i);
      const S ey = dot(e, yi);
      const V3<S> perp = yi - ey * e;
      out += c[i] * perp + (sign * s[i]) * cross(e, yi);
      if (i == 0) out += ey * e;  // (e·y) e: the constant 1 times y_[k]
    }
  }
  return out;
}

/// Coefficient k of the frame components Ad_P⁻¹ w = (Rᵀω; Rᵀ(v − x × ω)) of a
/// world twist series w, for a frame with coefficients R_[i], x_[i]. `z`
/// keeps (v − x × ω)_[m] for m < k between calls (call for k = 0, 1, …).
template <class S, std::size_t NR, std::size_t NW, std::size_t NZ>
HODYN_ALWAYS_INLINE SV<S> twist_in_frame(int k, const std::array<M3<S>, NR>& r,
                                         const std::array<V3<S>, NR>& x,
                                         const std::array<SV<S>, NW>& w, std::array<V3<S>, NZ>& z) {
  V3<S> zk = w[k].lin;
  for (int i = 0; i <= k; ++i) zk -= cross(x[i], w[k - i].ang);
  z[k] = zk;
  SV<S> out{};
  for (int i = 0; i <= k; ++i) {
    out.ang += r[i].transpose_times(w[k - i].ang);
    out.lin += r[i].transpose_times(z[k - i]);
  }
  return out;
}

/// one·e eᵀ + c (1 − e eᵀ) + s [e]: the rotation Rot(e, q) for one = 1,
/// c = cos q, s = sin q, and coefficient k of Rot(e, q(t)) for one = δ_k0,
/// c = (cos q)_[k], s = (sin q)_[k]. Axis-aligned kinds fill five entries.
template <JointKind K, class S>
HODYN_ALWAYS_INLINE M3<S> axis_rotation(const V3<S>& e, const S& one, const S& c, const S& s) {
  M3<S> r;
  constexpr int a = aligned_axis(K);
  if constexpr (a >= 0) {
    constexpr int b = (a + 1) % 3, d = (a + 2) % 3;
    r.a[3 * a + a] = one;
    r.a[3 * b + b] = c;
    r.a[3 * d + d] = c;
    r.a[3 * d + b] = s;
    r.a[3 * b + d] = -s;
  } else {
    const S omc = one - c;
    const S ee[3] = {e.x, e.y, e.z};
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) r.a[3 * i + j] = omc * ee[i] * ee[j] + (i == j ? c : S(0));
    r.a[1] -= s * e.z;
    r.a[2] += s * e.y;
    r.a[3] += s * e.z;
    r.a[5] -= s * e.x;
    r.a[6] -= s * e.y;
    r.a[7] += s * e.x;
  }
  return r;
}

/// Coefficients 0..r of the pose P_j(t) of body j's joint frame, walking down
/// from the base frame series: P_c = P_p X_c. `qc(c, m)` returns q_c,[m];
/// `body[c].cos_q`, `sin_q` hold the joint rotation series.
/// `ball(c, i)` returns R_c,[i] of a ball joint c (trees with one only).
/// For a universal joint c, `ball(c, i)` returns (Rot(e₁, θ₁) Rot(e₂, θ₂))_[i].
template <class Tree, int MaxOrder, class S, class Bodies, class QCoef, class BallRotation>
void joint_frame_pose_series(const Model<Tree, S>& model,
                             const MovingFrame<MaxOrder, S>& base_frame, const Bodies& body,
                             const QCoef& qc, int j, int r, MovingFrame<MaxOrder, S>& frame,
                             const BallRotation& ball) {
  std::array<int, Tree::kNumBodies> path{};
  int depth = 0;
  for (int i = j; i > 0; i = Tree::kParent[i]) path[depth++] = i;
  frame = base_frame;
  for (int level = depth - 1; level >= 0; --level) {
    const int c = path[level];
    const V3<S> d = V3<S>::from(model.local_offset(c));
    const V3<S> e = V3<S>::from(model.joint_axis(c));
    MovingFrame<MaxOrder, S> next = frame;
    auto extend_pose = [&](auto kind, int) {
      constexpr JointKind K = decltype(kind)::value;
      for (int k = 0; k <= r; ++k) {
        if constexpr (is_spherical(K) || is_universal(K)) {
          // X_c = T(d) R_c (a universal joint: R_c = Rot(e₁, θ₁) Rot(e₂, θ₂))
          M3<S> rk;
          for (int i = 0; i <= k; ++i) {
            const M3<S> prod = frame.rotation[i] * ball(c, k - i);
            for (int a = 0; a < 9; ++a) rk.a[a] += prod.a[a];
          }
          next.rotation[k] = rk;
          next.origin[k] = frame.origin[k] + frame.rotation[k] * d;
        } else if constexpr (joint_rotates(K)) {
          M3<S> rk;
          for (int i = 0; i <= k; ++i) {
            const M3<S> rot = axis_rotation<K>(e, k == i ? S(1) : S(0), body[c].cos_q[k - i],
                                               body[c].sin_q[k - i]);
            const M3<S> prod = frame.rotation[i] * rot;
            for (int a = 0; a < 9; ++a) rk.a[a] += prod.a[a];
          }
          next.rotation[k] = rk;
          next.origin[k] = frame.origin[k] + frame.rotation[k] * d;
          if constexpr (is_helical(K)) {  // X_c = T(d + h q e) Rot(e, q)
            const S h = model.joint_pitch(c);
            for (int i = 0; i <= k; ++i)
              next.origin[k] += (h * qc(c, k - i)) * (frame.rotation[i] * e);
          }
        } else {
          next.rotation[k] = frame.rotation[k];
          V3<S> xk = frame.origin[k] + frame.rotation[k] * d;
          for (int i = 0; i <= k; ++i) xk += qc(c, k - i) * (frame.rotation[i] * e);
          next.origin[k] = xk;
        }
      }
    };
    dispatch_joint<Tree>(Tree::kJoint[c], c, extend_pose);
    frame = next;
  }
}

/// Inverse dynamics of orders 0..order in joint frames (see the header).
/// FixedOrder ≥ 0 makes the order a compile-time constant (small orders unroll).
/// Results: Taylor coefficients of the base wrench in the base's joint frame
/// (`body[0].wrench`) and of the joint torques (`torque`).
/// kKinematicsOnly stops after the forward pass: the twists and accelerations
/// of `body` and the base frame series, for the regressors (`torque`, `loads`
/// untouched). One function rather than two: split in two, g++ inlines the
/// Cortex-M controller differently (its image changed by 250-330 bytes).
template <int FixedOrder, bool kKinematicsOnly = false, class Tree, int MaxOrder, class S>
void joint_frame_inverse_dynamics(int run_order, const Model<Tree, S>& model,
                                  std::array<JointFrameSeries<MaxOrder, S>, Tree::kNumBodies>& body,
                                  std::array<std::array<S, MaxOrder + 1>, Tree::kNumBodies>& torque,
                                  MovingFrame<MaxOrder, S>& base_frame,
                                  std::array<SV<S>, MaxOrder + 2>& base_series,
                                  std::array<V3<S>, MaxOrder + 1>& scratch,
                                  const JointSineCosine<S, Tree::kNumBodies>& trig,
                                  const MotionDerivatives<Tree, MaxOrder, S>& motion,
                                  const ExternalLoads<Tree, MaxOrder, S>* loads) {
  const int r = FixedOrder >= 0 ? FixedOrder : run_order;
  constexpr int n = Tree::kNumBodies;
  // R_[k] of every ball joint (detail/ball_joint.hpp); empty without one.
  // (cos θ₂)_[k], (sin θ₂)_[k] of every universal joint's second angle (θ₁'s
  // are the body's cos_q, sin_q); empty without one. One object with the
  // balls' rotations, so that the recursions' lambdas capture what they did
  // before universal joints existed (a tree of 1-DoF joints compiles to the
  // same code).
  MultiDofSeries<MaxOrder, S, TreeTraits<Tree>::kNumSphericalJoints,
                 TreeTraits<Tree>::kNumUniversalJoints>
      multi;
  // 1/m!, m = 0..r+2, once per call (every body scales its joint derivatives by it).
  std::array<S, MaxOrder + 3> inv_fact{};
  inv_fact[0] = S(1);
  for (int m = 1; m <= r + 2; ++m) inv_fact[m] = inv_fact[m - 1] * reciprocal<S>(m);

  // ---- base: P_0 = C₁ (A⁰_0)⁻¹; v_0 = Ad_{P_0}⁻¹ V₁, ã_0 = Ad_{P_0}⁻¹ (V̇₁ − G) ----
  {
    const Pose<S> p0 = root_pose(model, motion.base_pose) * model.base_home_pose_inverse();
    base_frame.start(M3<S>::from(p0.rotation), V3<S>::from(p0.translation));
    for (int k = 0; k <= r + 1; ++k)
      base_series[k] = inv_fact[k] * SV<S>::from(root_twist<Tree>(motion.base_twist[k]));
    auto& b = body[0];
    for (int k = 0; k <= r; ++k) {
      if (k > 0) base_frame.extend(k, base_series);
      b.twist[k] = twist_in_frame(k, base_frame.rotation, base_frame.origin, base_series, scratch);
    }
    // V̇₁ − G as a series, stored over base_series (V₁'s coefficients are no longer needed).
    for (int k = 0; k <= r; ++k) base_series[k] = S(k + 1) * base_series[k + 1];
    base_series[0].lin -= V3<S>::from(model.gravity());
    for (int k = 0; k <= r; ++k)
      b.acceleration[k] =
          twist_in_frame(k, base_frame.rotation, base_frame.origin, base_series, scratch);
  }

  // ---- forward pass: joint-frame twists and gravity-augmented accelerations ----
  for_each_joint<Tree>([&](auto kind, int j) {
    constexpr JointKind K = decltype(kind)::value;
    const auto& parent = body[Tree::kParent[j]];
    auto& b = body[j];
    const V3<S> d = V3<S>::from(model.local_offset(j));
    const V3<S> e = V3<S>::from(model.joint_axis(j));
    // θ_[m] = s q^(m)/m!, θ̇_[m] = s q^(m+1)/m!, θ̈_[m] = s q^(m+2)/m!: the
    // joint coordinate about the positive axis (s = joint sense, model.hpp).
    const S sense = model.joint_sense(j);
    const int entry = TreeTraits<Tree>::joint_entry(j);  // j − 1 with 1-DoF joints only
    const auto q = [&](int m) -> S { return inv_fact[m] * (sense * motion.q[m](entry)); };
    const auto qd = [&](int m) -> S { return inv_fact[m] * (sense * motion.q[m + 1](entry)); };
    const auto qdd = [&](int m) -> S { return inv_fact[m] * (sense * motion.q[m + 2](entry)); };
    const auto offset = [&](const SV<S>& w) { return SV<S>{w.ang, w.lin - cross(d, w.ang)}; };
    // Taylor coefficients of cos q, sin q: (sin q)' = cos q q̇, (cos q)' = −sin q q̇.
    const auto rotation_series = [&]() {
      b.cos_q[0] = trig.cosine[static_cast<std::size_t>(j)];
      b.sin_q[0] = trig.sine[static_cast<std::size_t>(j)];
      for (int k = 0; k < r; ++k) {
        S sc(0), cc(0);
        for (int i = 0; i <= k; ++i) {
          const S rate = qd(k - i);
          sc += b.cos_q[i] * rate;
          cc += b.sin_q[i] * rate;
        }
        b.sin_q[k + 1] = reciprocal<S>(k + 1) * sc;
        b.cos_q[k + 1] = -(reciprocal<S>(k + 1) * cc);
      }
    };
    if constexpr (is_revolute(K) && aligned_axis(K) >= 0) {
      // Axis-aligned revolute joint: the rotation about e_a mixes only the
      // components b, d of the parent's offset twist and acceleration, so the
      // four rotations and the − q̇ ad_s u product run as one pass over
      // lane arrays (twist ang, twist lin, acceleration ang, acceleration lin)
      // that the compiler keeps in vector registers.
      constexpr int ax = aligned_axis(K), bx = (ax + 1) % 3, dx = (ax + 2) % 3;
      rotation_series();
      std::array<std::array<S, 4>, MaxOrder + 1> pa, pb, pd;  // offset parent series, by axis
      std::array<std::array<S, 2>, MaxOrder + 1> ub, ud;      // Ad_{X_j}⁻¹ v_p, components b, d
      for (int k = 0; k <= r; ++k) {
        const SV<S> t = offset(parent.twist[k]);
        const SV<S> g = offset(parent.acceleration[k]);
        pa[k] = {component<ax>(t.ang), component<ax>(t.lin), component<ax>(g.ang),
                 component<ax>(g.lin)};
        pb[k] = {component<bx>(t.ang), component<bx>(t.lin), component<bx>(g.ang),
                 component<bx>(g.lin)};
        pd[k] = {component<dx>(t.ang), component<dx>(t.lin), component<dx>(g.ang),
                 component<dx>(g.lin)};
      }
      for (int k = 0; k <= r; ++k) {
        // Rot(−q) about e_a: (y_b, y_d) → (c y_b + s y_d, c y_d − s y_b).
        S ob[4] = {S(0), S(0), S(0), S(0)};
        S od[4] = {S(0), S(0), S(0), S(0)};
        for (int i = 0; i <= k; ++i) {
          const S c = b.cos_q[i];
          const S sn = b.sin_q[i];
          const auto& yb = pb[k - i];
          const auto& yd = pd[k - i];
          for (int l = 0; l < 4; ++l) {
            ob[l] += c * yb[l] + sn * yd[l];
            od[l] += c * yd[l] - sn * yb[l];
          }
        }
        ub[k] = {ob[0], ob[1]};
        ud[k] = {od[0], od[1]};
        b.twist[k] = {from_axis_components<ax>(pa[k][0] + qd(k), ob[0], od[0]),
                      from_axis_components<ax>(pa[k][1], ob[1], od[1])};
        // − q̇ ad_s u, s = (e_a; 0): e_a × u = u_b e_d − u_d e_b.
        S ab[2] = {ob[2], ob[3]};
        S ad[2] = {od[2], od[3]};
        for (int i = 0; i <= k; ++i) {
          const S rate = qd(i);
          for (int l = 0; l < 2; ++l) {
            ab[l] += rate * ud[k - i][l];
            ad[l] -= rate * ub[k - i][l];
          }
        }
        b.acceleration[k] = {from_axis_components<ax>(pa[k][2] + qdd(k), ab[0], ad[0]),
                             from_axis_components<ax>(pa[k][3], ab[1], ad[1])};
      }
    } else if constexpr (is_revolute(K)) {
      std::array<SV<S>, MaxOrder + 1> u{};    // Ad_{X_j}⁻¹ v_p
      std::array<SV<S>, MaxOrder + 1> tmp{};  // offset parent series
      std::array<SV<S>, MaxOrder + 1> tmp2{};
      rotation_series();
      for (int k = 0; k <= r; ++k) {
        tmp[k] = offset(parent.twist[k]);
        tmp2[k] = offset(parent.acceleration[k]);
      }
      for (int k = 0; k <= r; ++k) {
        const auto ang = [&](int m) -> const V3<S>& { return tmp[m].ang; };
        const auto lin = [&](int m) -> const V3<S>& { return tmp[m].lin; };
        u[k] = {rotate_series<K, true>(k, b.cos_q, b.sin_q, e, ang),
                rotate_series<K, true>(k, b.cos_q, b.sin_q, e, lin)};
        b.twist[k] = u[k];
        add_along_axis<K>(e, qd(k), b.twist[k].ang);
        const auto aang = [&](int m) -> const V3<S>& { return tmp2[m].ang; };
        const auto alin = [&](int m) -> const V3<S>& { return tmp2[m].lin; };
        SV<S> a{rotate_series<K, true>(k, b.cos_q, b.sin_q, e, aang),
                rotate_series<K, true>(k, b.cos_q, b.sin_q, e, alin)};
        for (int i = 0; i <= k; ++i) {  // − q̇ ad_s u, s = (e; 0)
          const S rate = qd(i);
          a.ang -= rate * axis_cross<K>(e, u[k - i].ang);
          a.lin -= rate * axis_cross<K>(e, u[k - i].lin);
        }
        add_along_axis<K>(e, qdd(k), a.ang);
        b.acceleration[k] = a;
      }
    } else if constexpr (is_spherical(K)) {
      // X = T(d) R, S = [1; 0] (3 columns), q̇ = ω (child frame), Ṙ = R [ω]:
      //   u = Rᵀ ⊛ (offset v_p),  v = u + (ω; 0),
      //   ã = Rᵀ ⊛ (offset ã_p) − ω ⊛ × (u_ω; u_v) + (ω̇; 0).
      auto& rot = multi.ball_rotation[static_cast<std::size_t>(
          TreeTraits<Tree>::kSphericalIndex[static_cast<std::size_t>(j)])];
      // ω_[m] = ω^(m)/m!, ω̇_[m], the offset parent series, once per body.
      std::array<V3<S>, MaxOrder + 1> w{}, wd{};
      std::array<SV<S>, MaxOrder + 1> pt{}, pa{};
      for (int m = 0; m <= r; ++m) {
        const auto& x1 = motion.q[static_cast<std::size_t>(m + 1)];
        const auto& x2 = motion.q[static_cast<std::size_t>(m + 2)];
        w[m] = inv_fact[m] * V3<S>{x1(entry), x1(entry + 1), x1(entry + 2)};
        wd[m] = inv_fact[m] * V3<S>{x2(entry), x2(entry + 1), x2(entry + 2)};
        pt[m] = offset(parent.twist[m]);
        pa[m] = offset(parent.acceleration[m]);
      }
      {
        const auto& x = motion.q[0];
        rot[0] = M3<S>::from(motion.joint_rotation[static_cast<std::size_t>(
                     TreeTraits<Tree>::kSphericalIndex[static_cast<std::size_t>(j)])]) *
                 rotation_exponential(V3<S>{x(entry), x(entry + 1), x(entry + 2)});
      }
      for (int k = 0; k < r; ++k) rot[k + 1] = ball_rotation_next(k, rot, w);
      std::array<SV<S>, MaxOrder + 1> u{};  // Ad_{X_j}⁻¹ v_p
      for (int k = 0; k <= r; ++k) {
        SV<S> t{}, a{};
        for (int i = 0; i <= k; ++i) {
          const M3<S>& ri = rot[i];
          t.ang += ri.transpose_times(pt[k - i].ang);
          t.lin += ri.transpose_times(pt[k - i].lin);
          a.ang += ri.transpose_times(pa[k - i].ang);
          a.lin += ri.transpose_times(pa[k - i].lin);
        }
        u[k] = t;
        t.ang += w[k];
        b.twist[k] = t;
        for (int i = 0; i <= k; ++i) {  // − ad_{(ω; 0)} u
          a.ang -= cross(w[i], u[k - i].ang);
          a.lin -= cross(w[i], u[k - i].lin);
        }
        a.ang += wd[k];
        b.acceleration[k] = a;
      }
    } else if constexpr (is_universal(K)) {
      // Two revolute sub-steps through the intermediate frame m (origin a,
      // turned by θ₁ about e₁), no body between them: X = T(d) Rot(e₁, θ₁)
      // Rot(e₂, θ₂). In the child's frame S = [Rot(e₂, θ₂)ᵀ e₁, e₂] changes
      // with θ₂; the sub-steps carry its Ṡ q̇ term (−θ̇₂ e₂ × (Rot₂ᵀ e₁ θ̇₁))
      // as the − θ̇₂ ad_{s₂} u₂ of the second step, u₂ holding S₁ θ̇₁.
      //   u₁ = Rot₁ᵀ ⊛ (offset v_p),  v_m = u₁ + (e₁ θ̇₁; 0),
      //   ã_m = Rot₁ᵀ ⊛ (offset ã_p) − θ̇₁ ⊛ (e₁ × u₁) + (e₁ θ̈₁; 0),
      //   u₂ = Rot₂ᵀ ⊛ v_m,  v = u₂ + (e₂ θ̇₂; 0),
      //   ã = Rot₂ᵀ ⊛ ã_m − θ̇₂ ⊛ (e₂ × u₂) + (e₂ θ̈₂; 0).
      using std::cos;
      using std::sin;
      constexpr JointKind R = JointKind::kRevolute;
      const auto index =
          static_cast<std::size_t>(TreeTraits<Tree>::kUniversalIndex[static_cast<std::size_t>(j)]);
      auto& c2 = universal_cosines<K>(multi)[index];
      auto& s2 = universal_sines<K>(multi)[index];
      const V3<S> e2 = V3<S>::from(model.joint_second_axis(j));
      const auto qd2 = [&](int m) -> S { return inv_fact[m] * motion.q[m + 1](entry + 1); };
      const auto qdd2 = [&](int m) -> S { return inv_fact[m] * motion.q[m + 2](entry + 1); };
      rotation_series();  // θ₁ (the body's cos_q, sin_q)
      {
        const S theta2 = motion.q[0](entry + 1);
        c2[0] = S(cos(theta2));
        s2[0] = S(sin(theta2));
        for (int k = 0; k < r; ++k) {
          S sc(0), cc(0);
          for (int i = 0; i <= k; ++i) {
            const S rate = qd2(k - i);
            sc += c2[i] * rate;
            cc += s2[i] * rate;
          }
          s2[k + 1] = reciprocal<S>(k + 1) * sc;
          c2[k + 1] = -(reciprocal<S>(k + 1) * cc);
        }
      }
      std::array<SV<S>, MaxOrder + 1> pt{}, pa{}, u1{}, vm{}, am{}, u2{};
      for (int k = 0; k <= r; ++k) {
        pt[k] = offset(parent.twist[k]);
        pa[k] = offset(parent.acceleration[k]);
      }
      for (int k = 0; k <= r; ++k) {  // the first sub-step, about e₁
        const auto ang = [&](int m) -> const V3<S>& { return pt[m].ang; };
        const auto lin = [&](int m) -> const V3<S>& { return pt[m].lin; };
        const auto aang = [&](int m) -> const V3<S>& { return pa[m].ang; };
        const auto alin = [&](int m) -> const V3<S>& { return pa[m].lin; };
        u1[k] = {rotate_series<R, true>(k, b.cos_q, b.sin_q, e, ang),
                 rotate_series<R, true>(k, b.cos_q, b.sin_q, e, lin)};
        vm[k] = u1[k];
        vm[k].ang += qd(k) * e;
        SV<S> a{rotate_series<R, true>(k, b.cos_q, b.sin_q, e, aang),
                rotate_series<R, true>(k, b.cos_q, b.sin_q, e, alin)};
        for (int i = 0; i <= k; ++i) {  // − θ̇₁ ad_{s₁} u₁
          const S rate = qd(i);
          a.ang -= rate * cross(e, u1[k - i].ang);
          a.lin -= rate * cross(e, u1[k - i].lin);
        }
        a.ang += qdd(k) * e;
        am[k] = a;
      }
      for (int k = 0; k <= r; ++k) {  // the second sub-step, about e₂, no offset
        const auto ang = [&](int m) -> const V3<S>& { return vm[m].ang; };
        const auto lin = [&](int m) -> const V3<S>& { return vm[m].lin; };
        const auto aang = [&](int m) -> const V3<S>& { return am[m].ang; };
        const auto alin = [&](int m) -> const V3<S>& { return am[m].lin; };
        u2[k] = {rotate_series<R, true>(k, c2, s2, e2, ang),
                 rotate_series<R, true>(k, c2, s2, e2, lin)};
        b.twist[k] = u2[k];
        b.twist[k].ang += qd2(k) * e2;
        SV<S> a{rotate_series<R, true>(k, c2, s2, e2, aang),
                rotate_series<R, true>(k, c2, s2, e2, alin)};
        for (int i = 0; i <= k; ++i) {  // − θ̇₂ ad_{s₂} u₂
          const S rate = qd2(i);
          a.ang -= rate * cross(e2, u2[k - i].ang);
          a.lin -= rate * cross(e2, u2[k - i].lin);
        }
        a.ang += qdd2(k) * e2;
        b.acceleration[k] = a;
      }
    } else if constexpr (is_helical(K)) {
      // X = T(d + h q e) Rot(e, q), s = (e; h e): Ad_X⁻¹ w = Rot(−q)(offset w)
      // with h q e × (Rot(−q) ω) taken from its linear part (Rot(−q) e = e).
      const S h = model.joint_pitch(j);
      std::array<SV<S>, MaxOrder + 1> u{};     // Ad_{X_j}⁻¹ v_p
      std::array<SV<S>, MaxOrder + 1> tmp{};   // offset parent twist, then rotated
      std::array<SV<S>, MaxOrder + 1> tmp2{};  // offset parent acceleration, then rotated
      rotation_series();
      for (int k = 0; k <= r; ++k) {
        tmp[k] = offset(parent.twist[k]);
        tmp2[k] = offset(parent.acceleration[k]);
      }
      for (int k = 0; k <= r; ++k) {
        const auto ang = [&](int m) -> const V3<S>& { return tmp[m].ang; };
        const auto lin = [&](int m) -> const V3<S>& { return tmp[m].lin; };
        const auto aang = [&](int m) -> const V3<S>& { return tmp2[m].ang; };
        const auto alin = [&](int m) -> const V3<S>& { return tmp2[m].lin; };
        u[k] = {rotate_series<K, true>(k, b.cos_q, b.sin_q, e, ang),
                rotate_series<K, true>(k, b.cos_q, b.sin_q, e, lin)};
        b.acceleration[k] = {rotate_series<K, true>(k, b.cos_q, b.sin_q, e, aang),
                             rotate_series<K, true>(k, b.cos_q, b.sin_q, e, alin)};
      }
      for (int k = 0; k <= r; ++k) {  // reads only the angular parts, never changed
        for (int i = 0; i <= k; ++i) {
          const S hq = h * q(i);
          u[k].lin -= hq * cross(e, u[k - i].ang);
          b.acceleration[k].lin -= hq * cross(e, b.acceleration[k - i].ang);
        }
      }
      for (int k = 0; k <= r; ++k) {
        b.twist[k] = u[k];
        b.twist[k].ang += qd(k) * e;
        b.twist[k].lin += (h * qd(k)) * e;
        SV<S> a = b.acceleration[k];
        for (int i = 0; i <= k; ++i) {  // − q̇ ad_s u, s = (e; h e)
          const S rate = qd(i);
          const V3<S> eu = cross(e, u[k - i].ang);
          a.ang -= rate * eu;
          a.lin -= rate * (cross(e, u[k - i].lin) + h * eu);
        }
        a.ang += qdd(k) * e;
        a.lin += (h * qdd(k)) * e;
        b.acceleration[k] = a;
      }
    } else {
      static_assert(is_prismatic(K), "joint kind must be revolute, prismatic or helical");
      std::array<SV<S>, MaxOrder + 1> u{};  // Ad_{X_j}⁻¹ v_p
      // X = T(d + e q): Ad_X⁻¹ w = (ω; v − (d + e q) × ω).
      for (int k = 0; k <= r; ++k) {
        SV<S> w = offset(parent.twist[k]);
        SV<S> a = offset(parent.acceleration[k]);
        for (int i = 0; i <= k; ++i) {
          w.lin -= q(i) * axis_cross<K>(e, parent.twist[k - i].ang);
          a.lin -= q(i) * axis_cross<K>(e, parent.acceleration[k - i].ang);
        }
        u[k] = w;
        b.twist[k] = w;
        add_along_axis<K>(e, qd(k), b.twist[k].lin);
        for (int i = 0; i <= k; ++i)
          a.lin -= qd(i) * axis_cross<K>(e, u[k - i].ang);  // − q̇ ad_s u, s = (0; e)
        add_along_axis<K>(e, qdd(k), a.lin);
        b.acceleration[k] = a;
      }
    }
  });
  if constexpr (kKinematicsOnly) return;

  // ---- Newton–Euler in each joint frame, about the centre of mass c ----
  // f = M ã − ad_vᵀ(M v) rearranged (c constant in B_j, u = v_o + ω × c the
  // centre-of-mass velocity, L = I_c ω):
  //   f_lin = m (u̇ + ω × u),   f_ang = I_c ω̇ + ω × L + c × f_lin,
  // with u̇ read from ã (gravity included): two cross products per pair of
  // orders instead of the three of ad_vᵀ.
  for (int j = 0; j < n; ++j) {
    auto& b = body[j];
    const JointFrameInertia<S> m = joint_frame_inertia(model, j);
    // The two cross products ω × u and ω × L run as one six-lane product:
    // lanes (x of u, x of L, y of u, y of L, z of u, z of L, two zero pads for
    // whole vector registers), with ω and the
    // factors laid out in the permutations of a × b = a_yzx b_zxy − a_zxy b_yzx.
    std::array<std::array<S, 8>, MaxOrder + 1> w1, w2, x1, x2;
    for (int k = 0; k <= r; ++k) {
      const V3<S>& w = b.twist[k].ang;
      const V3<S> u = b.twist[k].lin + cross(w, m.com);
      const V3<S> l = m.inertia * w;
      w1[k] = {w.y, w.y, w.z, w.z, w.x, w.x, S(0), S(0)};
      w2[k] = {w.z, w.z, w.x, w.x, w.y, w.y, S(0), S(0)};
      x1[k] = {u.z, l.z, u.x, l.x, u.y, l.y, S(0), S(0)};
      x2[k] = {u.y, l.y, u.z, l.z, u.x, l.x, S(0), S(0)};
    }
    for (int k = 0; k <= r; ++k) {
      const SV<S>& a = b.acceleration[k];
      const V3<S> lin0 = a.lin + cross(a.ang, m.com);
      const V3<S> ang0 = m.inertia * a.ang;
      S acc[8] = {lin0.x, ang0.x, lin0.y, ang0.y, lin0.z, ang0.z, S(0), S(0)};
      for (int i = 0; i <= k; ++i)
        for (int c = 0; c < 8; ++c) acc[c] += w1[i][c] * x1[k - i][c] - w2[i][c] * x2[k - i][c];
      const V3<S> lin = m.mass * V3<S>{acc[0], acc[2], acc[4]};
      b.wrench[k] = {V3<S>{acc[1], acc[3], acc[5]} + cross(m.com, lin), lin};
    }
  }

  // ---- applied loads, expressed in the joint frames ----
  if (loads != nullptr) {
    for (int j = 0; j < n; ++j) {
      if (!loads->has_world_wrench[j] && !loads->has_body_wrench[j]) continue;
      auto& b = body[j];
      if (loads->has_body_wrench[j]) {
        // Body frame C_j = P_j K_j with the constant K_j = T(−o_j) A⁰_j.
        const Pose<S> kj =
            Pose<S>::from_translation(model.local_com(j) - model.home_com(j)) * model.home_pose(j);
        for (int k = 0; k <= r; ++k)
          b.wrench[k] -=
              SV<S>::from(coadjoint_inverse(kj, Wrench<S>(inv_fact[k] * loads->body_wrench[j][k])));
      }
      if (loads->has_world_wrench[j]) {
        // Pose series of P_j (the world wrench is moved into joint frame j).
        MovingFrame<MaxOrder, S> frame;
        if constexpr (TreeTraits<Tree>::kNumUniversalJoints > 0) {
          // R_c,[i] of a ball, (Rot(e₁, θ₁) Rot(e₂, θ₂))_[i] of a universal joint.
          joint_frame_pose_series(
              model, base_frame, body,
              [&](int c, int m) {
                return inv_fact[m] *
                       (model.joint_sense(c) * motion.q[m](TreeTraits<Tree>::joint_entry(c)));
              },
              j, r, frame,
              [&](int c, int i) -> M3<S> {
                const auto cc = static_cast<std::size_t>(c);
                const int u = TreeTraits<Tree>::kUniversalIndex[cc];
                if (u < 0)
                  return multi.ball_rotation[static_cast<std::size_t>(
                      TreeTraits<Tree>::kSphericalIndex[cc])][i];
                const auto& c2 = multi.universal_cos[static_cast<std::size_t>(u)];
                const auto& s2 = multi.universal_sin[static_cast<std::size_t>(u)];
                const V3<S> e1 = V3<S>::from(model.joint_axis(c));
                const V3<S> e2 = V3<S>::from(model.joint_second_axis(c));
                M3<S> out;
                for (int l = 0; l <= i; ++l) {
                  const M3<S> prod =
                      axis_rotation<JointKind::kRevolute>(e1, l == 0 ? S(1) : S(0),
                                                          body[cc].cos_q[l], body[cc].sin_q[l]) *
                      axis_rotation<JointKind::kRevolute>(e2, l == i ? S(1) : S(0), c2[i - l],
                                                          s2[i - l]);
                  for (int a = 0; a < 9; ++a) out.a[a] += prod.a[a];
                }
                return out;
              });
        } else {
          joint_frame_pose_series(
              model, base_frame, body,
              [&](int c, int m) {
                return inv_fact[m] *
                       (model.joint_sense(c) * motion.q[m](TreeTraits<Tree>::joint_entry(c)));
              },
              j, r, frame,
              [&](int c, int i) -> const M3<S>& {
                return multi.ball_rotation[static_cast<std::size_t>(
                    TreeTraits<Tree>::kSphericalIndex[static_cast<std::size_t>(c)])][i];
              });
        }
        std::array<SV<S>, MaxOrder + 1> w{};
        for (int k = 0; k <= r; ++k) {
          w[k] = inv_fact[k] * SV<S>::from(loads->world_wrench[j][k]);
          b.wrench[k] -= frame.to_frame(k, w);
        }
      }
    }
  }

  // ---- backward pass: τ = sᵀ f, parents collect Ad_X⁻ᵀ f ----
  for_each_joint_reverse<Tree>([&](auto kind, int j) {
    constexpr JointKind K = decltype(kind)::value;
    auto& b = body[j];
    auto& parent = body[Tree::kParent[j]];
    const V3<S> d = V3<S>::from(model.local_offset(j));
    const V3<S> e = V3<S>::from(model.joint_axis(j));
    if constexpr (is_universal(K)) {
      // f_m = Rot₂ ⊛ f (the wrench in the intermediate frame), τ₁ = e₁ · f_m,ang
      // (torque[j]), τ₂ = e₂ · f_ang (read from body[j].wrench by the caller);
      // the parent collects Rot₁ ⊛ f_m moved by d.
      constexpr JointKind R = JointKind::kRevolute;
      const auto index =
          static_cast<std::size_t>(TreeTraits<Tree>::kUniversalIndex[static_cast<std::size_t>(j)]);
      const auto& c2 = universal_cosines<K>(multi)[index];
      const auto& s2 = universal_sines<K>(multi)[index];
      const V3<S> e2 = V3<S>::from(model.joint_second_axis(j));
      std::array<SV<S>, MaxOrder + 1> fm{};
      for (int k = 0; k <= r; ++k) {
        const auto ang = [&](int m) -> const V3<S>& { return b.wrench[m].ang; };
        const auto lin = [&](int m) -> const V3<S>& { return b.wrench[m].lin; };
        fm[k] = {rotate_series<R, false>(k, c2, s2, e2, ang),
                 rotate_series<R, false>(k, c2, s2, e2, lin)};
        torque[j][k] = dot(e, fm[k].ang);
      }
      for (int k = 0; k <= r; ++k) {
        const auto ang = [&](int m) -> const V3<S>& { return fm[m].ang; };
        const auto lin = [&](int m) -> const V3<S>& { return fm[m].lin; };
        SV<S> w{rotate_series<R, false>(k, b.cos_q, b.sin_q, e, ang),
                rotate_series<R, false>(k, b.cos_q, b.sin_q, e, lin)};
        w.ang += cross(d, w.lin);
        parent.wrench[k] += w;
      }
      return;
    } else if constexpr (is_spherical(K)) {
      // τ_j = Sᵀ f = f_ang (read from body[j].wrench by the caller);
      // Ad_X⁻ᵀ f = (R ⊛ f_ang + d × R ⊛ f_lin; R ⊛ f_lin).
      const auto& rot = multi.ball_rotation[static_cast<std::size_t>(
          TreeTraits<Tree>::kSphericalIndex[static_cast<std::size_t>(j)])];
      for (int k = 0; k <= r; ++k) {
        SV<S> w{};
        for (int i = 0; i <= k; ++i) {
          w.ang += rot[i] * b.wrench[k - i].ang;
          w.lin += rot[i] * b.wrench[k - i].lin;
        }
        w.ang += cross(d, w.lin);
        parent.wrench[k] += w;
      }
      return;
    }
    for (int k = 0; k <= r; ++k) {
      const SV<S>& f = b.wrench[k];
      if constexpr (is_revolute(K))
        torque[j][k] = axis_dot<K>(e, f.ang);
      else if constexpr (is_helical(K))
        torque[j][k] = dot(e, f.ang) + model.joint_pitch(j) * dot(e, f.lin);  // (e; h e)ᵀ f
      else
        torque[j][k] = axis_dot<K>(e, f.lin);
    }
    // Ad_X⁻ᵀ f of a helical joint = Rot(q)(f_ang + h q e × f_lin; f_lin) moved
    // by d: the shift h q e is added in the child's frame (Rot(q) e = e).
    std::array<V3<S>, (is_helical(K) ? MaxOrder + 1 : 1)> shifted_ang{};
    if constexpr (is_helical(K)) {
      const S h = model.joint_pitch(j);
      for (int k = 0; k <= r; ++k) {
        shifted_ang[k] = b.wrench[k].ang;
        for (int i = 0; i <= k; ++i)
          shifted_ang[k] += (h * inv_fact[i] * motion.q[i](TreeTraits<Tree>::joint_entry(j))) *
                            cross(e, b.wrench[k - i].lin);
      }
    }
    for (int k = 0; k <= r; ++k) {
      SV<S> w;
      if constexpr (joint_rotates(K)) {
        const auto ang = [&](int m) -> const V3<S>& {
          if constexpr (is_helical(K))
            return shifted_ang[m];
          else
            return b.wrench[m].ang;
        };
        const auto lin = [&](int m) -> const V3<S>& { return b.wrench[m].lin; };
        w = {rotate_series<K, false>(k, b.cos_q, b.sin_q, e, ang),
             rotate_series<K, false>(k, b.cos_q, b.sin_q, e, lin)};
      } else {
        w = b.wrench[k];
        const S sense = model.joint_sense(j);
        for (int i = 0; i <= k; ++i)
          w.ang += (inv_fact[i] * (sense * motion.q[i](TreeTraits<Tree>::joint_entry(j)))) *
                   axis_cross<K>(e, b.wrench[k - i].lin);
      }
      w.ang += cross(d, w.lin);
      parent.wrench[k] += w;
    }
  });
}

HODYN_ISA_NAMESPACE_END
}  // namespace hodyn::detail
