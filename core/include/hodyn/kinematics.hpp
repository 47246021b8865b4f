// hodyn/kinematics.hpp — higher-order forward kinematics of a floating-base
// tree (seed 000 Alg. 1, the forward pass of H-GRNE-FBS, as a public call).
//
// Given the base pose C₁, the spatial base twist derivatives V₁^(0..r+1) and
// the joint derivatives q^(0..r+2) (a MotionDerivatives, as inverse dynamics
// reads it), `forward_kinematics(model, data, motion, r)` computes for every
// body j:
//   body_pose[j]          C_j = F_j A⁰_j, the pose of the frame given to
//                         Model::set_body (world), with the product of
//                         exponentials F_j = F_p exp([Y_j] q_j), F₀ = C₁ (A⁰₀)⁻¹;
//   body_twist[j][k]      V_j^(k), k = 0..r+1: the spatial twist (ω; v) in the
//                         world, [V_j] = Ċ_j C_j⁻¹ (v: the velocity of the body
//                         point at the world origin);
//   joint_screw[j][k]     S_j^(k), k = 0..r+1 (j ≥ 1): the joint's screw in the
//                         world, S_j = Ad_{F_j} Y_j, so V_j = V_p + S_j q̇_j, and
//                         its derivatives Ṡ_j = ad_{V_p} S_j (seed 000 eq. 8):
//     S_j^(m+1) = Σ_{i=0..m} C(m,i) ad_{V_p^(i)} S_j^(m−i),
//     V_j^(k)   = V_p^(k) + Σ_{i=0..k} C(k,i) S_j^(k−i) q_j^(i+1).
// They are the columns of the Jacobians (jacobians.hpp): V_j = J_j ν with
// ν = (V₁; q̇). Poses run on the body-fixed joint frames of the dynamics
// (an axis-aligned joint rotates two columns, no 3x3 product), screws and
// twists in the world. Cost O(N r²); no heap; bad input gives a Status and
// zero outputs (the poses then the identity). In float and double, orders
// 0..3 of the 1-DoF joints run passes compiled for their order (the sums
// unrolled on register pairs, docs/kinematics.md "Speed"), higher orders and
// other scalar types the loops; the two agree to rounding.
//
// `frame_kinematics` adds user frames (a body and a fixed placement in it:
// end effectors, sensors, rotor hubs), `point_derivatives` a point's
// derivatives; both read a KinematicsData.
#pragma once

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "hodyn/binomial.hpp"
#include "hodyn/detail/ball_joint.hpp"
#include "hodyn/detail/compile_time.hpp"
#include "hodyn/detail/isa.hpp"
#include "hodyn/detail/root_motion.hpp"
#include "hodyn/detail/sine_cosine.hpp"
#include "hodyn/detail/small_algebra.hpp"
#include "hodyn/detail/validation.hpp"
#include "hodyn/model.hpp"
#include "hodyn/motion.hpp"
#include "hodyn/pose.hpp"
#include "hodyn/spatial_algebra.hpp"
#include "hodyn/status.hpp"
#include "hodyn/tree.hpp"

namespace hodyn {
HODYN_ISA_NAMESPACE_BEGIN

/// Results of `forward_kinematics` (fixed size, reusable): entries 0..order+1
/// of the derivative lists are valid after a successful call of that order.
template <class Tree, int MaxOrder, class Scalar = double>
struct KinematicsData {
  static_assert(MaxOrder >= 0, "MaxOrder must be non-negative");
  static constexpr int kNumBodies = Tree::kNumBodies;
  static constexpr int kNumJoints = TreeTraits<Tree>::kNumJoints;
  static constexpr int kNumDofs = TreeTraits<Tree>::kNumDofs;
  static constexpr int kMaxOrder = MaxOrder;
  using Derivatives = std::array<Twist<Scalar>, MaxOrder + 2>;

  std::array<Pose<Scalar>, kNumBodies> body_pose{};    ///< C_j (world)
  std::array<Derivatives, kNumBodies> body_twist{};    ///< V_j^(k), spatial, world
  std::array<Derivatives, kNumBodies> joint_screw{};   ///< S_j^(k), world; [0] unused
  std::array<Pose<Scalar>, kNumBodies> joint_frame{};  ///< P_j: the body's joint frame
  /// S_j,i^(k) of every ball joint's three screws (i = x, y, z of the child's
  /// joint frame), in the order of TreeTraits::kSphericalIndex; a ball's
  /// joint_screw entry is unused. Empty for a tree without a ball.
  std::array<std::array<Derivatives, 3>, TreeTraits<Tree>::kNumSphericalJoints> ball_screw{};
  int order = -1;  ///< order of the last successful call, −1 if none

  // ---- workspace ----
  detail::JointSineCosine<Scalar, kNumBodies> joint_sine_cosine{};

  // ---- results (last: the members above keep their offsets without one) ----
  /// S_j,1^(k), S_j,2^(k) of every universal joint's two screws (about e₁,
  /// turning with the intermediate frame, Ṡ₁ = ad_{V_p + S₁θ̇₁} S₁ = ad_{V_p} S₁,
  /// and about e₂, turning with the child, Ṡ₂ = ad_{V_j} S₂), in the order of
  /// TreeTraits::kUniversalIndex; its joint_screw entry is unused. Empty for a
  /// tree without one.
  std::array<std::array<Derivatives, 2>, TreeTraits<Tree>::kNumUniversalJoints> universal_screw{};

  KinematicsData() { clear_results(); }
  void clear_results() {
    for (int j = 0; j < kNumBodies; ++j) {
      body_pose[j] = Pose<Scalar>{};
      joint_frame[j] = Pose<Scalar>{};
      for (auto& v : body_twist[j]) v.setZero();
      for (auto& s : joint_screw[j]) s.setZero();
    }
    for (auto& ball : ball_screw)
      for (auto& axis : ball)
        for (auto& s : axis) s.setZero();
    for (auto& joint : universal_screw)
      for (auto& axis : joint)
        for (auto& s : axis) s.setZero();
    order = -1;
  }
};

HODYN_ISA_NAMESPACE_END
namespace detail {
HODYN_ISA_NAMESPACE_BEGIN

/// f(S^(0..r+1), column of ν) for every screw of joint j: its joint_screw for
/// a 1-DoF joint, the three ball_screw entries of a ball (S_x, S_y, S_z), the
/// two universal_screw entries of a universal joint (S₁, S₂).
/// The one place the Jacobian-like calls learn how many columns a joint has.
template <class Tree, int MaxOrder, class Scalar, class F>
HODYN_ALWAYS_INLINE void for_each_joint_screw(const KinematicsData<Tree, MaxOrder, Scalar>& k,
                                              int j, const F& f) {
  const int column = TreeTraits<Tree>::joint_dof(j);
  if constexpr (TreeTraits<Tree>::kNumSphericalJoints > 0) {
    const int ball = TreeTraits<Tree>::kSphericalIndex[static_cast<std::size_t>(j)];
    if (ball >= 0) {
      const auto& screws = k.ball_screw[static_cast<std::size_t>(ball)];
      for (int a = 0; a < 3; ++a) f(screws[static_cast<std::size_t>(a)], column + a);
      return;
    }
  }
  if constexpr (TreeTraits<Tree>::kNumUniversalJoints > 0) {
    const int u = TreeTraits<Tree>::kUniversalIndex[static_cast<std::size_t>(j)];
    if (u >= 0) {
      const auto& screws = k.universal_screw[static_cast<std::size_t>(u)];
      f(screws[0], column);
      f(screws[1], column + 1);
      return;
    }
  }
  f(k.joint_screw[j], column);
}

/// R Rot(e, θ) for cos θ = c, sin θ = s: for an axis-aligned kind (axis a,
/// then b = a+1, d = a+2 mod 3) column a stays and columns b, d turn,
/// col_b' = c col_b + s col_d, col_d' = c col_d − s col_b; a general axis
/// takes Rodrigues' Rot = c 1 + s [e] + (1 − c) e eᵀ.
template <JointKind K, class S>
Matrix3<S> rotate_about_joint_axis(const Matrix3<S>& r, const Vector3<S>& e, const S& c,
                                   const S& s) {
  constexpr int a = aligned_axis(K);
  if constexpr (a >= 0) {
    constexpr int b = (a + 1) % 3, d = (a + 2) % 3;
    Matrix3<S> out;
    out.col(a) = r.col(a);
    out.col(b) = c * r.col(b) + s * r.col(d);
    out.col(d) = c * r.col(d) - s * r.col(b);
    return out;
  } else {
    const Matrix3<S> rot =
        c * Matrix3<S>::Identity() + s * skew<S>(e) + (S(1) - c) * (e * e.transpose());
    return r * rot;
  }
}

/// out += c ad_V X = c [V, X] = c (ω × ω_X; v × ω_X + ω × v_X), component by
/// component: the kinematics' inner loop (hodyn::ad builds Eigen temporaries
/// the compiler did not inline there: 22 % of forward kinematics r = 2).
template <class S>
HODYN_ALWAYS_INLINE void add_scaled_ad(const S& c, const Twist<S>& v, const Twist<S>& x,
                                       Twist<S>& out) {
  const S w0 = v(0), w1 = v(1), w2 = v(2), u0 = v(3), u1 = v(4), u2 = v(5);
  const S a0 = x(0), a1 = x(1), a2 = x(2), b0 = x(3), b1 = x(4), b2 = x(5);
  out(0) += c * (w1 * a2 - w2 * a1);
  out(1) += c * (w2 * a0 - w0 * a2);
  out(2) += c * (w0 * a1 - w1 * a0);
  out(3) += c * ((u1 * a2 - u2 * a1) + (w1 * b2 - w2 * b1));
  out(4) += c * ((u2 * a0 - u0 * a2) + (w2 * b0 - w0 * b2));
  out(5) += c * ((u0 * a1 - u1 * a0) + (w0 * b1 - w1 * b0));
}

/// The forward pass for a ball joint j: P_j = P_p T(d_j) R, R = R_j exp([δ]);
/// its three screws S_i = Ad_{P_j} (e_i; 0) turn with the child, so
/// Ṡ_i = ad_{V_j} S_i (not ad_{V_p}: the three do not commute), and
/// V_j = V_p + Σ_i S_i ω_i. Orders interleave: V^(k) needs S^(0..k), S^(k+1)
/// needs V^(0..k).
template <class Tree, int MaxOrder, class S>
void forward_kinematics_ball(int j, int r, const Model<Tree, S>& model,
                             KinematicsData<Tree, MaxOrder, S>& data,
                             const MotionDerivatives<Tree, MaxOrder, S>& motion) {
  const int p = Tree::kParent[j];
  const int entry = TreeTraits<Tree>::joint_entry(j);
  const auto ball =
      static_cast<std::size_t>(TreeTraits<Tree>::kSphericalIndex[static_cast<std::size_t>(j)]);
  const Pose<S>& parent = data.joint_frame[p];
  Pose<S>& frame = data.joint_frame[j];
  frame.translation = parent.translation + parent.rotation * model.local_offset(j);
  {
    const auto& d = motion.q[0];
    const detail::M3<S> e =
        detail::rotation_exponential(detail::V3<S>{d(entry), d(entry + 1), d(entry + 2)});
    Matrix3<S> ed;
    for (int a = 0; a < 3; ++a)
      for (int b = 0; b < 3; ++b) ed(a, b) = e.a[3 * a + b];
    frame.rotation = parent.rotation * (motion.joint_rotation[ball] * ed);
  }
  const Pose<S>& home = model.home_pose(j);
  const Vector3<S> origin = model.home_com(j) - model.local_com(j);
  data.body_pose[j].rotation = frame.rotation * home.rotation;
  data.body_pose[j].translation = frame.translation + frame.rotation * (home.translation - origin);
  auto& screw = data.ball_screw[ball];
  for (int i = 0; i < 3; ++i) {
    const Vector3<S> axis = frame.rotation.col(i);
    screw[static_cast<std::size_t>(i)][0] = spatial_vector<S>(axis, frame.translation.cross(axis));
  }
  const auto& vp = data.body_twist[p];
  auto& v = data.body_twist[j];
  for (int k = 0; k <= r + 1; ++k) {
    // V^(k) = V_p^(k) + Σ_i Σ_l C(k,l) S_i^(k−l) ω_i^(l)
    Twist<S> sum = vp[k];
    for (int l = 0; l <= k; ++l)
      for (int i = 0; i < 3; ++i)
        sum += (binomial<S>(k, l) * motion.q[static_cast<std::size_t>(l + 1)](entry + i)) *
               screw[static_cast<std::size_t>(i)][static_cast<std::size_t>(k - l)];
    v[k] = sum;
    if (k > r) break;
    for (int i = 0; i < 3; ++i) {  // S_i^(k+1) = Σ C(k,l) ad_{V_j^(l)} S_i^(k−l)
      auto& si = screw[static_cast<std::size_t>(i)];
      Twist<S> next = Twist<S>::Zero();
      for (int l = 0; l <= k; ++l) add_scaled_ad(binomial<S>(k, l), v[l], si[k - l], next);
      si[k + 1] = next;
    }
  }
}

/// The forward pass for a universal joint j: P_j = P_p T(d_j) Rot(e₁, θ₁)
/// Rot(e₂, θ₂) (the intermediate frame P_m without the second rotation).
/// S₁ = Ad_{P_m} (e₁; 0) turns with the intermediate frame, whose twist is
/// V_m = V_p + S₁ θ̇₁, so Ṡ₁ = ad_{V_m} S₁ = ad_{V_p} S₁ (ad_{S₁} S₁ = 0);
/// S₂ = Ad_{P_j} (e₂; 0) turns with the child, Ṡ₂ = ad_{V_j} S₂ = ad_{V_m} S₂,
/// and V_j = V_m + S₂ θ̇₂. θ₁, θ₂ are q's two entries (sense +1).
template <class Tree, int MaxOrder, class S>
void forward_kinematics_universal(int j, int r, const Model<Tree, S>& model,
                                  KinematicsData<Tree, MaxOrder, S>& data,
                                  const MotionDerivatives<Tree, MaxOrder, S>& motion) {
  using std::cos;
  using std::sin;
  const int p = Tree::kParent[j];
  const int entry = TreeTraits<Tree>::joint_entry(j);
  const auto u =
      static_cast<std::size_t>(TreeTraits<Tree>::kUniversalIndex[static_cast<std::size_t>(j)]);
  const Vector3<S>& e1 = model.joint_axis(j);
  const Vector3<S>& e2 = model.joint_second_axis(j);
  const Pose<S>& parent = data.joint_frame[p];
  Pose<S>& frame = data.joint_frame[j];
  frame.translation = parent.translation + parent.rotation * model.local_offset(j);
  const S theta2 = motion.q[0](entry + 1);
  const Matrix3<S> middle = rotate_about_joint_axis<JointKind::kRevolute>(
      parent.rotation, e1, data.joint_sine_cosine.cosine[j], data.joint_sine_cosine.sine[j]);
  frame.rotation =
      rotate_about_joint_axis<JointKind::kRevolute>(middle, e2, S(cos(theta2)), S(sin(theta2)));
  const Pose<S>& home = model.home_pose(j);
  const Vector3<S> origin = model.home_com(j) - model.local_com(j);
  data.body_pose[j].rotation = frame.rotation * home.rotation;
  data.body_pose[j].translation = frame.translation + frame.rotation * (home.translation - origin);
  auto& s1 = data.universal_screw[u][0];
  auto& s2 = data.universal_screw[u][1];
  {
    const Vector3<S> a1 = parent.rotation * e1;  // = R_m e₁
    const Vector3<S> a2 = middle * e2;           // = R_j e₂
    s1[0] = spatial_vector<S>(a1, frame.translation.cross(a1));
    s2[0] = spatial_vector<S>(a2, frame.translation.cross(a2));
  }
  const auto& vp = data.body_twist[p];
  for (int m = 0; m <= r; ++m) {  // S₁^(m+1) = Σ C(m,i) ad_{V_p^(i)} S₁^(m−i)
    Twist<S> sum = Twist<S>::Zero();
    for (int i = 0; i <= m; ++i) add_scaled_ad(binomial<S>(m, i), vp[i], s1[m - i], sum);
    s1[m + 1] = sum;
  }
  // V_m^(k) = V_p^(k) + Σ C(k,i) S₁^(k−i) θ₁^(i+1), k = 0..r+1
  std::array<Twist<S>, MaxOrder + 2> vm{};
  for (int k = 0; k <= r + 1; ++k) {
    Twist<S> sum = vp[k];
    for (int i = 0; i <= k; ++i)
      sum += (binomial<S>(k, i) * motion.q[static_cast<std::size_t>(i + 1)](entry)) * s1[k - i];
    vm[k] = sum;
  }
  for (int m = 0; m <= r; ++m) {  // S₂^(m+1) = Σ C(m,i) ad_{V_m^(i)} S₂^(m−i)
    Twist<S> sum = Twist<S>::Zero();
    for (int i = 0; i <= m; ++i) add_scaled_ad(binomial<S>(m, i), vm[i], s2[m - i], sum);
    s2[m + 1] = sum;
  }
  auto& v = data.body_twist[j];
  for (int k = 0; k <= r + 1; ++k) {  // V_j^(k) = V_m^(k) + Σ C(k,i) S₂^(k−i) θ₂^(i+1)
    Twist<S> sum = vm[k];
    for (int i = 0; i <= k; ++i)
      sum += (binomial<S>(k, i) * motion.q[static_cast<std::size_t>(i + 1)](entry + 1)) * s2[k - i];
    v[k] = sum;
  }
}

template <class S>
HODYN_ALWAYS_INLINE void store_matrix(const M3<S>& m, Matrix3<S>& out) {
  for (int c = 0; c < 3; ++c)
    for (int r = 0; r < 3; ++r) out(r, c) = m.a[3 * r + c];
}
template <class S>
HODYN_ALWAYS_INLINE void store_vector(const V3<S>& v, Vector3<S>& out) {
  out(0) = v.x;
  out(1) = v.y;
  out(2) = v.z;
}

/// The pose part of a fixed pass (below) for a 1-DoF joint j: P_j, C_j, and
/// the joint's screw S_j (returned; see the file comment). In the small
/// types of small_algebra.hpp, each result stored once: Eigen's 3x3 products
/// went through stack temporaries read back in wider loads than they were
/// written with (store-forwarding stalls, a fifth of the pass, perf).
template <JointKind K, class Tree, int MaxOrder, class S>
HODYN_ALWAYS_INLINE SV<S> place_body(int j, const Model<Tree, S>& model,
                                     KinematicsData<Tree, MaxOrder, S>& data,
                                     const MotionDerivatives<Tree, MaxOrder, S>& motion) {
  const int p = Tree::kParent[j];
  const M3<S> rp = M3<S>::from(data.joint_frame[p].rotation);
  const S sense = model.joint_sense(j);
  const S angle = sense * motion.q[0](TreeTraits<Tree>::joint_entry(j));
  // P_j = P_p X_j, X_j = T(d_j) Rot(e_j, θ_j), T(d_j + e_j θ_j) or (helical)
  // T(d_j + h_j θ_j e_j) Rot(e_j, θ_j), θ_j = s_j q_j.
  V3<S> t = V3<S>::from(data.joint_frame[p].translation) + rp * V3<S>::from(model.local_offset(j));
  // R_P e_j = R_p e_j: a column of R_p for an axis-aligned kind (e_j is then
  // exactly that unit vector, Model::set_joint_screw).
  constexpr int a = aligned_axis(K);
  const V3<S> e = V3<S>::from(model.joint_axis(j));
  V3<S> axis_world;
  if constexpr (a >= 0)
    axis_world = rp.col(a);
  else
    axis_world = rp * e;
  M3<S> r = rp;
  if constexpr (joint_rotates(K)) {
    // R_p Rot(e, θ), as rotate_about_joint_axis computes it for the loops
    // and the universal joint, here in the small types: an axis-aligned kind
    // (axis a, then b = a+1, d = a+2 mod 3) keeps column a and turns columns
    // b, d; a general axis takes Rodrigues' Rot = c 1 + s [e] + (1 − c) e eᵀ.
    const S c = data.joint_sine_cosine.cosine[j];
    const S sn = data.joint_sine_cosine.sine[j];
    if constexpr (a >= 0) {
      constexpr int b = (a + 1) % 3, d = (a + 2) % 3;
      const V3<S> cb = rp.col(b), cd = rp.col(d);
      r.set_col(b, c * cb + sn * cd);
      r.set_col(d, c * cd - sn * cb);
    } else {
      const S v = S(1) - c;
      const M3<S> rot{{c + v * e.x * e.x, v * e.x * e.y - sn * e.z, v * e.x * e.z + sn * e.y,
                       v * e.y * e.x + sn * e.z, c + v * e.y * e.y, v * e.y * e.z - sn * e.x,
                       v * e.z * e.x - sn * e.y, v * e.z * e.y + sn * e.x, c + v * e.z * e.z}};
      r = rp * rot;
    }
    if constexpr (is_helical(K))  // X_j = T(d_j + h_j θ_j e_j) Rot(e_j, θ_j)
      t += (model.joint_pitch(j) * angle) * axis_world;
  } else {
    t += angle * axis_world;
  }
  Pose<S>& frame = data.joint_frame[j];
  store_matrix(r, frame.rotation);
  store_vector(t, frame.translation);
  // C_j = P_j T(−o_j) A⁰_j, o_j the joint frame's origin at home.
  const Pose<S>& home = model.home_pose(j);
  const V3<S> offset = V3<S>::from(home.translation) -
                       (V3<S>::from(model.home_com(j)) - V3<S>::from(model.local_com(j)));
  store_matrix(r * M3<S>::from(home.rotation), data.body_pose[j].rotation);
  store_vector(t + r * offset, data.body_pose[j].translation);
  // S_j = s_j Ad_{P_j} s: (R e; p × R e) for a revolute joint, (0; R e) for a prismatic one.
  const V3<S> w = sense * axis_world;
  if constexpr (is_revolute(K))
    return {w, cross(t, w)};
  else if constexpr (is_helical(K))  // (R e; p × R e + h R e)
    return {w, cross(t, w) + model.joint_pitch(j) * w};
  else
    return {V3<S>{S(0), S(0), S(0)}, w};
}

template <class S>
HODYN_ALWAYS_INLINE void store_twist(const SV<S>& x, Twist<S>& out) {
  out(0) = x.ang.x;
  out(1) = x.ang.y;
  out(2) = x.ang.z;
  out(3) = x.lin.x;
  out(4) = x.lin.y;
  out(5) = x.lin.z;
}

/// The forward pass for one body j ≥ 1 (see the file comment), any order r:
/// the loops, on Eigen's types. (The fixed passes below share the sums but
/// not this pose code: place_body's small types, which they need, made these
/// loops 7 % slower at orders 4 and 5 on the AVX2-only build.)
template <JointKind K, class Tree, int MaxOrder, class S>
void forward_kinematics_body(int j, int r, const Model<Tree, S>& model,
                             KinematicsData<Tree, MaxOrder, S>& data,
                             const MotionDerivatives<Tree, MaxOrder, S>& motion) {
  const int p = Tree::kParent[j];
  const Pose<S>& parent = data.joint_frame[p];
  if constexpr (is_spherical(K)) {
    forward_kinematics_ball(j, r, model, data, motion);
    return;
  } else if constexpr (is_universal(K)) {
    forward_kinematics_universal(j, r, model, data, motion);
    return;
  }
  const Vector3<S>& e = model.joint_axis(j);
  const S sense = model.joint_sense(j);
  const int entry = TreeTraits<Tree>::joint_entry(j);
  Pose<S>& frame = data.joint_frame[j];
  // P_j = P_p X_j, X_j = T(d_j) Rot(e_j, θ_j), T(d_j + e_j θ_j) or (helical)
  // T(d_j + h_j θ_j e_j) Rot(e_j, θ_j), θ_j = s_j q_j.
  frame.translation = parent.translation + parent.rotation * model.local_offset(j);
  Vector3<S> axis_world = parent.rotation * e;  // R_P e_j = R_p e_j
  if constexpr (joint_rotates(K)) {
    frame.rotation = rotate_about_joint_axis<K>(
        parent.rotation, e, data.joint_sine_cosine.cosine[j], data.joint_sine_cosine.sine[j]);
    if constexpr (is_helical(K))  // X_j = T(d_j + h_j θ_j e_j) Rot(e_j, θ_j)
      frame.translation += axis_world * (model.joint_pitch(j) * (sense * motion.q[0](entry)));
  } else {
    frame.rotation = parent.rotation;
    frame.translation += axis_world * (sense * motion.q[0](entry));
  }
  // C_j = P_j T(−o_j) A⁰_j, o_j the joint frame's origin at home.
  const Pose<S>& home = model.home_pose(j);
  const Vector3<S> origin = model.home_com(j) - model.local_com(j);
  data.body_pose[j].rotation = frame.rotation * home.rotation;
  data.body_pose[j].translation = frame.translation + frame.rotation * (home.translation - origin);
  // S_j = s_j Ad_{P_j} s: (R e; p × R e) for a revolute joint, (0; R e) for a prismatic one.
  axis_world *= sense;
  auto& screw = data.joint_screw[j];
  if constexpr (is_revolute(K))
    screw[0] = spatial_vector<S>(axis_world, frame.translation.cross(axis_world));
  else if constexpr (is_helical(K))  // (R e; p × R e + h R e)
    screw[0] = spatial_vector<S>(axis_world, Vector3<S>(frame.translation.cross(axis_world) +
                                                        model.joint_pitch(j) * axis_world));
  else
    screw[0] = spatial_vector<S>(Vector3<S>::Zero(), axis_world);
  const auto& vp = data.body_twist[p];
  for (int m = 0; m <= r; ++m) {  // S^(m+1) = Σ C(m,i) ad_{V_p^(i)} S^(m−i)
    Twist<S> sum = Twist<S>::Zero();
    for (int i = 0; i <= m; ++i) add_scaled_ad(binomial<S>(m, i), vp[i], screw[m - i], sum);
    screw[m + 1] = sum;
  }
  auto& v = data.body_twist[j];
  for (int k = 0; k <= r + 1; ++k) {  // V^(k) = V_p^(k) + Σ C(k,i) S^(k−i) q^(i+1)
    Twist<S> sum = vp[k] + screw[k] * motion.q[1](entry);
    for (int i = 1; i <= k; ++i) sum += (binomial<S>(k, i) * motion.q[i + 1](entry)) * screw[k - i];
    v[k] = sum;
  }
}

/// forward_kinematics_body for a compile-time order R (1-DoF joints): the
/// same sums unrolled, binomials folded, every operand a register pair of
/// small_algebra.hpp and every result stored once. (The run-time loops keep
/// each S^(m) and V^(k) in memory and read it back in the next sum.)
template <int R, JointKind K, class Tree, int MaxOrder, class S>
void forward_kinematics_body_fixed(int j, const Model<Tree, S>& model,
                                   KinematicsData<Tree, MaxOrder, S>& data,
                                   const MotionDerivatives<Tree, MaxOrder, S>& motion) {
  static_assert(joint_dofs(K) == 1, "1-DoF joints");
  constexpr int N = R + 2;  // entries 0..R+1
  const int p = Tree::kParent[j];
  const int entry = TreeTraits<Tree>::joint_entry(j);
  SV<S> s[N];
  S qd[N];  // q^(k+1)
  s[0] = place_body<K>(j, model, data, motion);
  HODYN_UNROLL
  for (int k = 0; k < N; ++k) qd[k] = motion.q[k + 1](entry);
  // V_p^(k), read where it is used (a memory operand of the product) rather
  // than held in registers through the pass (it spilled).
  const auto vp = [&](int k) { return SV<S>::from(data.body_twist[p][k]); };
  // Loops of compile-time length, unrolled (HODYN_UNROLL), so that the
  // binomials fold (C(m, i) = 1 multiplies nothing).
  HODYN_UNROLL
  for (int m = 0; m <= R; ++m) {  // S^(m+1) = Σ C(m,i) ad_{V_p^(i)} S^(m−i)
    SV<S> sum = ad(vp(0), s[m]);
    HODYN_UNROLL
    for (int i = 1; i <= m; ++i) sum += S(kBinomial.c[m][i]) * ad(vp(i), s[m - i]);
    s[m + 1] = sum;
  }
  auto& screw = data.joint_screw[j];
  auto& v = data.body_twist[j];
  HODYN_UNROLL
  for (int k = 0; k < N; ++k) {  // V^(k) = V_p^(k) + Σ C(k,i) S^(k−i) q^(i+1)
    SV<S> sum = vp(k) + qd[0] * s[k];
    HODYN_UNROLL
    for (int i = 1; i <= k; ++i) sum += (S(kBinomial.c[k][i]) * qd[i]) * s[k - i];
    store_twist(s[k], screw[k]);
    store_twist(sum, v[k]);
  }
}

template <class Tree, int MaxOrder, class S>
Status check_kinematics_input(const MotionDerivatives<Tree, MaxOrder, S>& motion, int order) {
  if (order < 0 || order > MaxOrder) return Status::kOrderOutOfRange;
  if constexpr (!TreeTraits<Tree>::kFixedBase) {  // a fixed root ignores the base fields
    const Status pose = check_pose(motion.base_pose);
    if (pose != Status::kOk) return pose;
    for (int k = 0; k <= order + 1; ++k)
      if (!all_finite(motion.base_twist[k])) return Status::kNonFiniteInput;
  }
  for (int k = 0; k <= order + 2; ++k)
    if (!all_finite(motion.q[k])) return Status::kNonFiniteInput;
  const Status rotations = check_joint_rotations(motion.joint_rotation);  // ball joints
  if (rotations != Status::kOk) return rotations;
  return Status::kOk;
}

/// Every result written is finite. `Order` ≥ 0: the order as a compile-time
/// constant (the fixed passes: unrolled, no remainder loops); −1: `order`.
template <int Order = -1, class Tree, int MaxOrder, class S>
bool kinematics_finite(const KinematicsData<Tree, MaxOrder, S>& data, int order) {
  if constexpr (std::is_same<S, double>::value || std::is_same<S, float>::value) {
    static_assert(sizeof(Twist<S>) == 6 * sizeof(S), "twists stored without padding");
    static_assert(sizeof(Pose<S>) == 12 * sizeof(S), "poses stored without padding");
    constexpr int kPoses = Tree::kNumBodies * int(sizeof(Pose<S>) / sizeof(S));
    bool finite = finite_lanes(data.body_pose[0].rotation.data(), kPoses);
    (void)order;
    if constexpr (Order >= 0) {
      // The entries a fixed pass wrote: per body the contiguous V^(0..Order+1),
      // S^(0..Order+1), not the whole lists of MaxOrder + 2.
      constexpr int n = (Order + 2) * 6;
      finite &= finite_lanes(data.body_twist[0][0].data(), n);
      for (int j = 1; j < Tree::kNumBodies; ++j) {
        finite &= finite_lanes(data.body_twist[j][0].data(), n);
        finite &= finite_lanes(data.joint_screw[j][0].data(), n);
      }
    } else {
      // Whole arrays: entries above order + 1 are zero or finite results of
      // an earlier successful call (a failed call zeroes them), so one pass
      // over contiguous memory checks everything this call wrote.
      constexpr int kTwists = Tree::kNumBodies * (MaxOrder + 2) * 6;
      finite &= finite_lanes(data.body_twist[0][0].data(), kTwists);
      finite &= finite_lanes(data.joint_screw[0][0].data(), kTwists);
    }
    for (const auto& ball : data.ball_screw)
      finite &= finite_lanes(ball[0][0].data(), 3 * (MaxOrder + 2) * 6);
    for (const auto& joint : data.universal_screw)
      finite &= finite_lanes(joint[0][0].data(), 2 * (MaxOrder + 2) * 6);
    return finite;
  } else {
    for (int j = 0; j < Tree::kNumBodies; ++j) {
      if (!all_finite(data.body_pose[j].rotation) || !all_finite(data.body_pose[j].translation))
        return false;
      for (int k = 0; k <= order + 1; ++k)
        if (!all_finite(data.body_twist[j][k]) || !all_finite(data.joint_screw[j][k])) return false;
    }
    for (const auto& ball : data.ball_screw)
      for (const auto& axis : ball)
        for (int k = 0; k <= order + 1; ++k)
          if (!all_finite(axis[k])) return false;
    for (const auto& joint : data.universal_screw)
      for (const auto& axis : joint)
        for (int k = 0; k <= order + 1; ++k)
          if (!all_finite(axis[k])) return false;
    return true;
  }
}

HODYN_ISA_NAMESPACE_END
}  // namespace detail
HODYN_ISA_NAMESPACE_BEGIN

/// Forward kinematics of orders 0..order: poses C_j, twists V_j^(0..order+1)
/// and joint screws S_j^(0..order+1) of every body. Reads base_pose,
/// base_twist[0..order+1] (not for a fixed-base tree: its root is at its mount,
/// at rest) and q[0..order+2] (q^(order+2) enters V^(order+1)).
template <class Tree, int MaxOrder, class Scalar>
Status forward_kinematics(const Model<Tree, Scalar>& model,
                          KinematicsData<Tree, MaxOrder, Scalar>& data,
                          const MotionDerivatives<Tree, MaxOrder, Scalar>& motion,
                          int order) noexcept {
  const Status input = detail::check_kinematics_input(motion, order);
  if (input != Status::kOk) {
    data.clear_results();
    return input;
  }
  const int r = order;
  // Base: P₀ = F₀ = C₁ (A⁰₀)⁻¹ (erratum E7), C₀ = C₁ (a fixed root: its mount, at rest).
  const Pose<Scalar>& base_pose = detail::root_pose(model, motion.base_pose);
  {  // (in the small types: Pose's Eigen product went through the stack)
    const Pose<Scalar>& home_inverse = model.base_home_pose_inverse();
    const detail::M3<Scalar> base = detail::M3<Scalar>::from(base_pose.rotation);
    detail::store_matrix(base * detail::M3<Scalar>::from(home_inverse.rotation),
                         data.joint_frame[0].rotation);
    detail::store_vector(base * detail::V3<Scalar>::from(home_inverse.translation) +
                             detail::V3<Scalar>::from(base_pose.translation),
                         data.joint_frame[0].translation);
  }
  data.body_pose[0] = base_pose;
  for (int k = 0; k <= r + 1; ++k)
    data.body_twist[0][k] = detail::root_twist<Tree>(motion.base_twist[k]);
  data.joint_sine_cosine.compute(
      [&](int j) { return model.joint_sense(j) * motion.q[0](TreeTraits<Tree>::joint_entry(j)); });
  // In float and double, orders up to 3 (what the controllers and the
  // mass-matrix derivatives ask) take the passes compiled for their order;
  // higher orders, and the tests' series and dual scalars (whose compile
  // time the unrolled passes would multiply), the loops.
  const auto fixed = [&](auto compiled_order) {  // the pass of order R, then its check
    constexpr int R = decltype(compiled_order)::value;
    if constexpr (R <= MaxOrder && std::is_floating_point<Scalar>::value) {
      for_each_joint<Tree>([&](auto kind, int j) {
        constexpr JointKind K = decltype(kind)::value;
        if constexpr (joint_dofs(K) == 1)
          detail::forward_kinematics_body_fixed<R, K>(j, model, data, motion);
        else
          detail::forward_kinematics_body<K>(j, R, model, data, motion);
      });
      return detail::kinematics_finite<R>(data, R);
    } else {
      return false;  // not reached: r ≤ MaxOrder is checked, other scalars take the loops
    }
  };
  bool finite = false;
  switch (std::is_floating_point<Scalar>::value ? r : -1) {
    case 0:
      finite = fixed(std::integral_constant<int, 0>{});
      break;
    case 1:
      finite = fixed(std::integral_constant<int, 1>{});
      break;
    case 2:
      finite = fixed(std::integral_constant<int, 2>{});
      break;
    case 3:
      finite = fixed(std::integral_constant<int, 3>{});
      break;
    default:
      for_each_joint<Tree>([&](auto kind, int j) {
        detail::forward_kinematics_body<decltype(kind)::value>(j, r, model, data, motion);
      });
      finite = detail::kinematics_finite(data, r);
  }
  if (!finite) {
    data.clear_results();
    return Status::kNonFiniteResult;
  }
  data.order = r;
  return Status::kOk;
}

// ---- user frames and points ---------------------------------------------

/// A frame fixed to a body: its pose in the body's frame (the frame given to
/// Model::set_body), e.g. an end effector, a sensor or a rotor hub.
template <class Scalar>
struct BodyFrame {
  int body = 0;
  Pose<Scalar> placement{};
};

/// Results of `frame_kinematics` for NumFrames frames (entries 0..order+1).
template <std::size_t NumFrames, int MaxOrder, class Scalar = double>
struct FrameKinematicsData {
  static_assert(NumFrames >= 1, "at least one frame");
  using TwistDerivatives = std::array<Twist<Scalar>, MaxOrder + 2>;
  using PointDerivatives = std::array<Vector3<Scalar>, MaxOrder + 2>;

  std::array<Pose<Scalar>, NumFrames> pose{};  ///< C_f = C_j X_f (world)
  /// V_f^(k): the spatial twist in the world (the body's: one rigid body).
  std::array<TwistDerivatives, NumFrames> twist{};
  /// dᵏ/dtᵏ (Ad_{C_f}⁻¹ V_f): the body twist in the frame's own axes and origin
  /// (angular velocity and origin velocity in frame coordinates) and its derivatives.
  std::array<TwistDerivatives, NumFrames> local_twist{};
  /// p_f^(k): the frame origin's position in the world and its derivatives.
  std::array<PointDerivatives, NumFrames> position{};
  int order = -1;

  FrameKinematicsData() { clear_results(); }
  void clear_results() {
    for (std::size_t f = 0; f < NumFrames; ++f) {
      pose[f] = Pose<Scalar>{};
      for (auto& v : twist[f]) v.setZero();
      for (auto& v : local_twist[f]) v.setZero();
      for (auto& p : position[f]) p.setZero();
    }
    order = -1;
  }
};

/// x^(k), k = 0..n, of a point x fixed to a body whose spatial twist
/// derivatives are v[0..n−1] and whose position now is x0:
/// ẋ = ω × x + v, so x^(k+1) = Σ_{i=0..k} C(k,i) ω^(i) × x^(k−i) + v^(k).
template <class Scalar, std::size_t NV, std::size_t NX>
void point_derivatives(const std::array<Twist<Scalar>, NV>& v, const Vector3<Scalar>& x0, int n,
                       std::array<Vector3<Scalar>, NX>& x) noexcept {
  x[0] = x0;
  for (int k = 0; k < n; ++k) {
    Vector3<Scalar> sum = linear(v[k]) + angular(v[0]).cross(x[k]);
    for (int i = 1; i <= k; ++i)
      sum += binomial<Scalar>(k, i) * Vector3<Scalar>(angular(v[i]).cross(x[k - i]));
    x[k + 1] = sum;
  }
}

/// y^(k) = dᵏ/dtᵏ (Ad_{C(t)}⁻¹ x(t)), k = 0..n, for a body with pose C now and
/// spatial twist derivatives v[0..n−1], of a twist-like column x with
/// derivatives x[0..n]. With W₀ = x and W_{i+1} = Ẇ_i − ad_V W_i,
/// (Ad_C⁻¹ x)^(i) = Ad_C⁻¹ W_i (from d/dt Ad_C⁻¹ = −Ad_C⁻¹ ad_V); the table
/// W_i^(m), i + m ≤ n, follows by Leibniz. `work` holds n + 1 entries.
template <class Scalar, std::size_t NV, std::size_t NX>
void local_derivatives(const Pose<Scalar>& c, const std::array<Twist<Scalar>, NV>& v,
                       const std::array<Twist<Scalar>, NX>& x, int n,
                       std::array<Twist<Scalar>, NX>& work,
                       std::array<Twist<Scalar>, NX>& y) noexcept {
  for (int m = 0; m <= n; ++m) work[m] = x[m];  // W₀^(m)
  y[0] = adjoint_inverse(c, work[0]);
  for (int i = 0; i < n; ++i) {
    // W_{i+1}^(m) = W_i^(m+1) − Σ_l C(m,l) ad_{V^(l)} W_i^(m−l), m ≤ n − i − 1
    // (every new entry reads old ones below and above it: a second row).
    std::array<Twist<Scalar>, NX> next{};
    for (int m = 0; m + i + 1 <= n; ++m) {
      Twist<Scalar> sum = work[m + 1] - ad<Scalar>(v[0], work[m]);
      for (int l = 1; l <= m; ++l) sum -= binomial<Scalar>(m, l) * ad<Scalar>(v[l], work[m - l]);
      next[m] = sum;
    }
    for (int m = 0; m + i + 1 <= n; ++m) work[m] = next[m];
    y[i + 1] = adjoint_inverse(c, work[0]);
  }
}

/// Poses, twists (world and local) and origin positions, with derivatives
/// 0..order+1, of `frames` on a KinematicsData of that order or higher.
/// kInvalidArgument for a body index outside the tree or a placement that is
/// not a rigid transform; kOrderOutOfRange if the kinematics hold fewer orders.
template <std::size_t NumFrames, class Tree, int MaxOrder, class Scalar>
Status frame_kinematics(const KinematicsData<Tree, MaxOrder, Scalar>& kinematics,
                        const std::array<BodyFrame<Scalar>, NumFrames>& frames,
                        FrameKinematicsData<NumFrames, MaxOrder, Scalar>& data,
                        int order) noexcept {
  if (order < 0 || order > MaxOrder || order > kinematics.order) {
    data.clear_results();
    return Status::kOrderOutOfRange;
  }
  for (std::size_t f = 0; f < NumFrames; ++f) {
    if (frames[f].body < 0 || frames[f].body >= Tree::kNumBodies ||
        detail::check_pose(frames[f].placement) != Status::kOk) {
      data.clear_results();
      return Status::kInvalidArgument;
    }
  }
  std::array<Twist<Scalar>, MaxOrder + 2> work{};
  for (std::size_t f = 0; f < NumFrames; ++f) {
    const int j = frames[f].body;
    const Pose<Scalar> c = kinematics.body_pose[j] * frames[f].placement;
    data.pose[f] = c;
    for (int k = 0; k <= order + 1; ++k) data.twist[f][k] = kinematics.body_twist[j][k];
    local_derivatives(c, kinematics.body_twist[j], kinematics.body_twist[j], order + 1, work,
                      data.local_twist[f]);
    point_derivatives(kinematics.body_twist[j], c.translation, order + 1, data.position[f]);
  }
  data.order = order;
  return Status::kOk;
}

HODYN_ISA_NAMESPACE_END
}  // namespace hodyn
