// hodyn/inverse_dynamics_derivatives.hpp — analytic partial derivatives of
// (extended) inverse dynamics with respect to the state, on SE(3) for the base
// pose (seed 003 Tables 5-8, redone in the world frame; seed 004 Props. 3-5).
//
// Inverse dynamics of order 0 maps the state and the accelerations to the
// generalized forces,
//   τ̄ = (Q₁; τ) = ID(C₁, q, V₁, q̇, V̇₁, q̈),
// with the base acceleration V̇₁ a free input (seed 003's "extended" inverse
// dynamics: nothing forces the motion to be consistent with a zero wrench).
// One call returns, at the given state,
//   d_configuration = ∂τ̄/∂(ξ; q)    ξ = (angular; linear) in the base frame,
//                                    perturbing C₁ → C₁ exp([ξ]) (left-trivialized,
//                                    seed 003 §4.3), V₁ and V̇₁ held fixed
//                                    (they are spatial, world-frame twists),
//   d_velocity      = ∂τ̄/∂(V₁; q̇),
//   mass_matrix     = ∂τ̄/∂(V̇₁; q̈) = M̄,
//   generalized_force = τ̄ itself.
// Rows and columns follow ν = (V₁; q̇) (a fixed-base tree: joints only).
//
// How (all world frame, so no frame transforms between bodies). With W_i =
// M_i (A_i − G) + V_i ×* M_i V_i the body wrench (A_i = V̇_i, G gravity),
// W^C the subtree sums and τ_l = s_lᵀ W^C_l, moving joint j by δq_j turns the
// subtree of j about its screw Y_j; the wrenches of that subtree then change by
//   δW^C = Y_j ×* W^C − K^C a_j − M^C c_j,   a_j = Y_j × V_λ,
//   c_j = Y_j × (A_λ − G) − a_j × V_λ   (λ = parent of j),
// where K_i = p̄_i + Ṁ_i, p̄ x = x ×* (M_i V_i), is the velocity sensitivity of
// W_i (the ×* term drops out of τ). Likewise ∂W^C/∂q̇_j = K^C Y_j + M^C (2 V_λ × Y_j),
// and the base pose and twist are a 6-DoF "joint" on the world side. Both K^C
// and M^C are sums of ten-parameter inertias (m, h, I) and (p, ḣ, İ), so the
// whole pass is O(n) per body plus one 6-vector dot product per related pair
// of joints: O(n·depth), no per-column recursion, no 6x6 product but the
// base's own 6x6 blocks.
//
// Ball joints (docs/joint-kinds.md): a ball is three joint entries, its screws
// S_a the child's axes through the centre, its coordinates δ (R exp([δ]) at
// δ = 0, R = R_j exp([δ_in]) from `joint_rotation` and q[0]) and its velocity
// the child-frame ω. δ_a turns the subtree about S_a with the ball's own
// screws (δS_b = S_a × S_b), so the covariance argument above holds per
// entry; ω_a's velocity column has u_a = (V_λ + V_j) × S_a (the V_j × U of
// Σ_b Ṡ_b ω_b). A universal joint is two entries θ₁, θ₂ (ordinary coordinates)
// with screws S₁, S₂ through its point: θ₁ turns the subtree about S₁ with the
// joint's own S₂ (ad_{S₁} S₂), θ₂ turns it about S₂ against the intermediate
// frame (V_m = V_λ + S₁ θ̇₁, A'_m), not S₁ — so θ₂'s terms are a 1-DoF joint's
// with m as the parent, and row θ₁ reads column θ₂ as an ancestor's row does.
// A tree of 1-DoF joints keeps its own pass (if constexpr).
//
// Fixed size (dense kDofs × kDofs outputs, trees up to kMaxClosedFormDofs),
// no heap, no exceptions; bad input gives a Status and zero outputs. Applied
// wrenches are not part of this map (a caller with contacts differentiates
// them separately). The state partials of forward dynamics and the geometric
// linearization build on this (hodyn/linearization.hpp); docs/linearization.md.
#pragma once

#include <array>

#include "hodyn/detail/ball_joint.hpp"
#include "hodyn/detail/isa.hpp"
#include "hodyn/detail/root_motion.hpp"
#include "hodyn/detail/series_recursions.hpp"
#include "hodyn/detail/sine_cosine.hpp"
#include "hodyn/detail/small_algebra.hpp"
#include "hodyn/detail/validation.hpp"
#include "hodyn/equations_of_motion.hpp"
#include "hodyn/model.hpp"
#include "hodyn/motion.hpp"
#include "hodyn/pose.hpp"
#include "hodyn/status.hpp"
#include "hodyn/symmetric_matrix3.hpp"
#include "hodyn/tree.hpp"

namespace hodyn {
HODYN_ISA_NAMESPACE_BEGIN

/// The partial derivatives of extended inverse dynamics at one state.
template <class Tree, class Scalar = double>
struct InverseDynamicsDerivatives {
  static constexpr int kDofs = TreeTraits<Tree>::kNumDofs;
  static_assert(kDofs <= kMaxClosedFormDofs, "dense derivatives are for trees up to 64 dofs");
  using Matrix = Eigen::Matrix<Scalar, kDofs, kDofs>;
  using Vector = Eigen::Matrix<Scalar, kDofs, 1>;

  Vector generalized_force = Vector::Zero();  ///< τ̄ = (Q₁ world frame; τ)
  Matrix d_configuration = Matrix::Zero();    ///< ∂τ̄/∂(ξ; q), ξ in the base frame
  Matrix d_velocity = Matrix::Zero();         ///< ∂τ̄/∂(V₁; q̇)
  Matrix mass_matrix = Matrix::Zero();        ///< ∂τ̄/∂(V̇₁; q̈) = M̄

  void set_zero() {
    generalized_force.setZero();
    d_configuration.setZero();
    d_velocity.setZero();
    mass_matrix.setZero();
  }
};

HODYN_ISA_NAMESPACE_END
namespace detail {
HODYN_ISA_NAMESPACE_BEGIN

/// A spatial inertia about the world origin on its ten parameters: mass m,
/// first moment h = m c, rotational inertia I about the origin.
/// M x = (I ω + h × v; m v − h × ω) for x = (ω; v).
template <class S>
struct WorldInertia {
  S mass{0};
  V3<S> first_moment{};
  Sym3<S> inertia{};

  HODYN_ALWAYS_INLINE SV<S> times(const SV<S>& x) const {
    return {inertia * x.ang + cross(first_moment, x.lin),
            mass * x.lin - cross(first_moment, x.ang)};
  }
  /// The dense 6x6 matrix [[I, [h]], [−[h], m 1]] (SpatialInertia's layout).
  Eigen::Matrix<S, 6, 6> matrix() const {
    Eigen::Matrix<S, 6, 6> r;
    r.template topLeftCorner<3, 3>() = inertia.matrix();
    const Eigen::Matrix<S, 3, 3> hx = skew<S>(first_moment.eigen());
    r.template topRightCorner<3, 3>() = hx;
    r.template bottomLeftCorner<3, 3>() = -hx;
    r.template bottomRightCorner<3, 3>() = mass * Eigen::Matrix<S, 3, 3>::Identity();
    return r;
  }
  HODYN_ALWAYS_INLINE WorldInertia& operator+=(const WorldInertia& o) {
    mass += o.mass;
    first_moment += o.first_moment;
    inertia += o.inertia;
    return *this;
  }
};

/// The velocity sensitivity K = p̄ + Ṁ of a body's wrench on its parameters:
/// momentum p = (n; f) = M V and the inertia rate Ṁ = (0, ḣ, İ), with
///   K x  = (ω × n + v × f + İ ω + ḣ × v;  ω × f − ḣ × ω),
///   Kᵀ s = (n × s_ω + f × s_v + İ s_ω + ḣ × s_v;  f × s_ω − ḣ × s_ω).
template <class S>
struct VelocitySensitivity {
  SV<S> momentum{};
  V3<S> first_moment_rate{};
  Sym3<S> inertia_rate{};

  HODYN_ALWAYS_INLINE SV<S> times(const SV<S>& x) const {
    return {cross(x.ang, momentum.ang) + cross(x.lin, momentum.lin) + inertia_rate * x.ang +
                cross(first_moment_rate, x.lin),
            cross(x.ang, momentum.lin) - cross(first_moment_rate, x.ang)};
  }
  HODYN_ALWAYS_INLINE SV<S> transpose_times(const SV<S>& s) const {
    return {cross(momentum.ang, s.ang) + cross(momentum.lin, s.lin) + inertia_rate * s.ang +
                cross(first_moment_rate, s.lin),
            cross(momentum.lin - first_moment_rate, s.ang)};
  }
  /// The dense 6x6 matrix: p̄ = [[−[n], −[f]], [−[f], 0]] plus Ṁ = [[İ, [ḣ]], [−[ḣ], 0]].
  Eigen::Matrix<S, 6, 6> matrix() const {
    Eigen::Matrix<S, 6, 6> r;
    const Eigen::Matrix<S, 3, 3> n = skew<S>(momentum.ang.eigen()),
                                 f = skew<S>(momentum.lin.eigen()),
                                 hd = skew<S>(first_moment_rate.eigen());
    r.template topLeftCorner<3, 3>() = inertia_rate.matrix() - n;
    r.template topRightCorner<3, 3>() = hd - f;
    r.template bottomLeftCorner<3, 3>() = -f - hd;
    r.template bottomRightCorner<3, 3>().setZero();
    return r;
  }
  HODYN_ALWAYS_INLINE VelocitySensitivity& operator+=(const VelocitySensitivity& o) {
    momentum += o.momentum;
    first_moment_rate += o.first_moment_rate;
    inertia_rate += o.inertia_rate;
    return *this;
  }
};

/// The matrix of η ↦ η ×* w: [[−[n], −[f]], [−[f], 0]] for w = (n; f).
template <class S>
Matrix6<S> force_cross_matrix(const SV<S>& w) {
  Matrix6<S> m;
  const Matrix3<S> n = skew<S>(w.ang.eigen()), f = skew<S>(w.lin.eigen());
  m.template topLeftCorner<3, 3>() = -n;
  m.template topRightCorner<3, 3>() = -f;
  m.template bottomLeftCorner<3, 3>() = -f;
  m.template bottomRightCorner<3, 3>().setZero();
  return m;
}

/// x ×* w = −ad_xᵀ w = (ω × n + v × f; ω × f) for x = (ω; v), w = (n; f).
template <class S>
HODYN_ALWAYS_INLINE SV<S> cross_force(const SV<S>& x, const SV<S>& w) {
  return {cross(x.ang, w.ang) + cross(x.lin, w.lin), cross(x.ang, w.lin)};
}

/// Ad_Cᵀ w = (Rᵀ (n − p × f); Rᵀ f) for C = (R, p), w = (n; f) (hodyn::coadjoint
/// in the small types: the out-of-line Eigen call was 5 % of the partials).
template <class S>
HODYN_ALWAYS_INLINE SV<S> coadjoint_small(const M3<S>& r, const V3<S>& p, const SV<S>& w) {
  return {r.transpose_times(w.ang - cross(p, w.lin)), r.transpose_times(w.lin)};
}

/// The base's 6x6 blocks of the partials, column by column in the small
/// types (no 6x6 matrix of ad_V, Ad_C, K or M formed; these products were
/// 12 % of the partials): with K = K^C_0, M = M^C_0, W = W^C_0, the velocity
/// block K + M ad_V and the pose block (W̄ + (K + M ad_V) ad_V + M ad_A) Ad_C,
/// W̄ z = z ×* W. Column k of the pose block is that map at z = Ad_C e_k.
template <class S, class Matrix>
HODYN_ALWAYS_INLINE void base_blocks(const WorldInertia<S>& m, const VelocitySensitivity<S>& k,
                                     const SV<S>& wrench, const SV<S>& v, const SV<S>& a,
                                     const Pose<S>& base_pose, Matrix& dq, Matrix& dv) {
  const M3<S> r = M3<S>::from(base_pose.rotation);
  const V3<S> p = V3<S>::from(base_pose.translation);
  const auto put = [](Matrix& out, int c, const SV<S>& x) {
    out(0, c) = x.ang.x;
    out(1, c) = x.ang.y;
    out(2, c) = x.ang.z;
    out(3, c) = x.lin.x;
    out(4, c) = x.lin.y;
    out(5, c) = x.lin.z;
  };
  for (int c = 0; c < 6; ++c) {
    SV<S> e{};  // the unit twist e_c
    SV<S> z{};  // Ad_C e_c: (R e; p × R e) for an angular unit, (0; R e) for a linear one
    const V3<S> rc = r.col(c % 3);
    if (c < 3) {
      e.ang = c == 0   ? V3<S>{S(1), S(0), S(0)}
              : c == 1 ? V3<S>{S(0), S(1), S(0)}
                       : V3<S>{S(0), S(0), S(1)};
      z = {rc, cross(p, rc)};
    } else {
      e.lin = c == 3   ? V3<S>{S(1), S(0), S(0)}
              : c == 4 ? V3<S>{S(0), S(1), S(0)}
                       : V3<S>{S(0), S(0), S(1)};
      z.lin = rc;
    }
    put(dv, c, k.times(e) + m.times(ad(v, e)));
    const SV<S> y = ad(v, z);
    put(dq, c, cross_force(z, wrench) + k.times(y) + m.times(ad(v, y) + ad(a, z)));
  }
}

/// Per-body workspace of the derivative pass (world frame).
template <class S>
struct DerivativeBody {
  SV<S> screw{};                         ///< Y_j, the joint screw (joint sense included)
  SV<S> twist{};                         ///< V_j
  SV<S> acceleration{};                  ///< A_j − G
  WorldInertia<S> inertia{};             ///< M_j, then the subtree sum M^C_j
  VelocitySensitivity<S> sensitivity{};  ///< K_j, then K^C_j
  SV<S> wrench{};                        ///< W_j, then W^C_j
};

/// What joint l contributes as a row (α, β) and as a column (a, c, u, F, G).
template <class S>
struct DerivativeJoint {
  SV<S> alpha{}, beta{};  ///< K^C_lᵀ Y_l, M^C_l Y_l
  SV<S> a{}, c{}, u{};    ///< Y × V_λ, Y × A'_λ − a × V_λ, 2 V_λ × Y
  SV<S> f{}, g{};         ///< δW^C_l per unit δq_l and per unit δq̇_l
};

HODYN_ISA_NAMESPACE_END
}  // namespace detail
HODYN_ISA_NAMESPACE_BEGIN

/// Workspace and results of `inverse_dynamics_derivatives`.
template <class Tree, class Scalar = double>
struct InverseDynamicsDerivativesData {
  static constexpr int kNumBodies = Tree::kNumBodies;
  /// Per joint entry (three per ball, two per universal joint), none for 1-DoF trees.
  static constexpr int kEntrySlots =
      TreeTraits<Tree>::kSingleDofJoints ? 0 : TreeTraits<Tree>::kNumJointDofs;
  InverseDynamicsDerivatives<Tree, Scalar> result{};
  // workspace
  std::array<detail::BodySeries<0, Scalar>, kNumBodies> placement{};
  std::array<detail::DerivativeBody<Scalar>, kNumBodies> body{};
  std::array<detail::DerivativeJoint<Scalar>, kNumBodies> joint{};
  std::array<detail::SV<Scalar>, kNumBodies> delta_acceleration{};  ///< ΔA_j of stage 2
  std::array<detail::SV<Scalar>, kNumBodies> delta_wrench{};        ///< R_j of stage 2
  /// A tree with a ball or a universal joint: the screw Y_e of every joint
  /// entry e (a ball's three S_a, the child's axes through its centre; a
  /// universal joint's S₁, S₂) and what each contributes.
  std::array<detail::SV<Scalar>, kEntrySlots> entry_screw{};
  std::array<detail::DerivativeJoint<Scalar>, kEntrySlots> entry{};
  /// A tree with a universal joint: the twist V_m = V_λ + S₁ θ̇₁ and the
  /// acceleration A'_m of each one's intermediate frame, which its S₂ turns
  /// against (empty without a universal joint).
  std::array<detail::SV<Scalar>, TreeTraits<Tree>::kNumUniversalJoints> intermediate_twist{};
  std::array<detail::SV<Scalar>, TreeTraits<Tree>::kNumUniversalJoints> intermediate_acceleration{};
};

HODYN_ISA_NAMESPACE_END
namespace detail {
HODYN_ISA_NAMESPACE_BEGIN

/// The rotations R_j of a tree's ball joints (empty without one).
template <class Tree, class Scalar>
using BallRotations = std::array<Matrix3<Scalar>, TreeTraits<Tree>::kNumSphericalJoints>;

/// W = M A' + V ×* M V and K = p̄ + Ṁ of one placed, moving body (its twist
/// and acceleration A' = A − G set).
template <class Tree, class Scalar>
HODYN_ALWAYS_INLINE void derivative_body_terms(const Model<Tree, Scalar>& model,
                                               const BodySeries<0, Scalar>& p,
                                               DerivativeBody<Scalar>& b, int j) noexcept {
  using S = Scalar;
  const S m = model.mass(j);
  const V3<S> c = p.com[0];
  const V3<S> h = m * c;
  // I about the origin: I_c + m((c·c) 1 − c cᵀ).
  const S hc = dot(h, c);
  const Sym3<S>& ic = p.inertia[0];
  b.inertia = {m, h,
               Sym3<S>{ic.xx + hc - h.x * c.x, ic.yy + hc - h.y * c.y, ic.zz + hc - h.z * c.z,
                       ic.xy - h.x * c.y, ic.xz - h.x * c.z, ic.yz - h.y * c.z}};
  const SV<S>& v = b.twist;
  const SV<S> momentum = b.inertia.times(v);
  // ḣ = ω × h + m v;  İ = [ω]I − I[ω] + 2(h·v) 1 − (v hᵀ + h vᵀ).
  const V3<S> hv = v.lin;
  const S two_hv = S(2) * dot(h, hv);
  Sym3<S> i_rate = b.inertia.inertia.skew_commutator(v.ang);
  i_rate +=
      Sym3<S>{two_hv - S(2) * hv.x * h.x, two_hv - S(2) * hv.y * h.y, two_hv - S(2) * hv.z * h.z,
              -(hv.x * h.y + h.x * hv.y), -(hv.x * h.z + h.x * hv.z), -(hv.y * h.z + h.y * hv.z)};
  b.sensitivity = {momentum, cross(v.ang, h) + m * hv, i_rate};
  b.wrench = b.inertia.times(b.acceleration) + cross_force(v, momentum);
}

/// Order 0 of a ball joint j: F_j = F_p T(c) R T(−c) with R = R_j exp([δ]) and
/// c the centre (home, world), so the centre is now p = F_p(c); its three
/// screws S_a = (R_F e_a; p × R_F e_a) are the child's axes through p.
template <class Tree, class S>
HODYN_ALWAYS_INLINE void place_ball(const Model<Tree, S>& model, int j,
                                    const BodySeries<0, S>& parent, const Matrix3<S>& r_j,
                                    const V3<S>& delta, BodySeries<0, S>& b, SV<S>* screws) {
  const V3<S> c = V3<S>::from(model.joint_axis_point(j));
  const V3<S> centre = parent.rotation * c + parent.translation;
  b.rotation = parent.rotation * (M3<S>::from(r_j) * rotation_exponential(delta));
  b.translation = centre - b.rotation * c;
  b.screw[0] = SV<S>{};
  for (int a = 0; a < 3; ++a) {
    const V3<S> axis = b.rotation.col(a);
    screws[a] = {axis, cross(centre, axis)};
  }
  b.com[0] = b.rotation * V3<S>::from(model.com_from_axis_point(j)) + centre;
  b.inertia[0] = model.home_inertia(j).congruence(b.rotation);
}

/// Stage 1 of a tree with a ball or a universal joint (`derivative_kinematics`): the same terms
/// per joint entry e (a ball's three screws S_a with ω_a, a 1-DoF joint's Y
/// with q̇): V_j = V_λ + Σ_e Y_e q̇_e, A_j = A_λ + Σ_e (V_λ × Y_e) q̇_e at
/// ν̇ = 0 (for a ball Σ_a Ṡ_a ω_a = V_j × U = V_λ × U, U = Σ_a S_a ω_a; a
/// universal joint's S₂ turns with the intermediate frame, Ṡ₂ = V_m × S₂).
template <class Tree, class Scalar>
void derivative_kinematics_multi_dof(const Model<Tree, Scalar>& model,
                                     InverseDynamicsDerivativesData<Tree, Scalar>& data,
                                     const Pose<Scalar>& base_pose,
                                     const Twist<Scalar>& base_twist_in,
                                     const typename Model<Tree, Scalar>::JointVector& q,
                                     const typename Model<Tree, Scalar>::JointVector& q_dot,
                                     const BallRotations<Tree, Scalar>& joint_rotation,
                                     const SV<Scalar>& gravity) noexcept {
  using S = Scalar;
  using Traits = TreeTraits<Tree>;
  constexpr int kBase = Traits::kBaseDofs;
  auto& place = data.placement;
  auto& body = data.body;
  auto& screw = data.entry_screw;
  auto& mm = data.result.mass_matrix;
  place_base(model, root_pose(model, base_pose), place[0]);
  body[0].twist = SV<S>::from(root_twist<Tree>(base_twist_in));
  body[0].acceleration = S(-1) * gravity;
  derivative_body_terms(model, place[0], body[0], 0);
  for_each_joint<Tree>([&](auto kind, int j) {
    constexpr JointKind K = decltype(kind)::value;
    constexpr int n = joint_dofs(K);
    const int parent = Tree::kParent[j];
    const int e0 = Traits::joint_entry(j);
    if constexpr (is_spherical(K)) {
      const auto ball =
          static_cast<std::size_t>(Traits::kSphericalIndex[static_cast<std::size_t>(j)]);
      place_ball(model, j, place[parent], joint_rotation[ball], V3<S>{q(e0), q(e0 + 1), q(e0 + 2)},
                 place[j], &screw[static_cast<std::size_t>(e0)]);
    } else if constexpr (is_universal(K)) {
      place_universal(model, j, place[parent], q(e0), q(e0 + 1), place[j],
                      screw[static_cast<std::size_t>(e0)], screw[static_cast<std::size_t>(e0 + 1)]);
    } else {
      place_body<K>(model, j, place[parent], q(e0), place[j]);
      screw[static_cast<std::size_t>(e0)] = place[j].screw[0];
    }
    auto& b = body[j];
    b.screw = place[j].screw[0];
    if constexpr (is_universal(K)) {  // S₂ turns with the intermediate frame: Ṡ₂ = V_m × S₂
      const auto u = static_cast<std::size_t>(Traits::kUniversalIndex[static_cast<std::size_t>(j)]);
      const SV<S>& s1 = screw[static_cast<std::size_t>(e0)];
      const SV<S>& s2 = screw[static_cast<std::size_t>(e0 + 1)];
      SV<S>& vm = data.intermediate_twist[u];
      SV<S>& am = data.intermediate_acceleration[u];
      vm = body[parent].twist + q_dot(e0) * s1;
      am = body[parent].acceleration + q_dot(e0) * ad(body[parent].twist, s1);
      b.twist = vm + q_dot(e0 + 1) * s2;
      b.acceleration = am + q_dot(e0 + 1) * ad(vm, s2);
    } else {
      b.twist = body[parent].twist;
      b.acceleration = body[parent].acceleration;
      for (int a = 0; a < n; ++a) {
        const SV<S>& y = screw[static_cast<std::size_t>(e0 + a)];
        const S qd = q_dot(e0 + a);
        b.twist += qd * y;
        b.acceleration += qd * ad(body[parent].twist, y);
      }
    }
    derivative_body_terms(model, place[j], b, j);
  });
  for_each_joint_reverse<Tree>([&](auto, int j) {  // subtree sums M^C, K^C, W^C
    auto& p = body[Tree::kParent[j]];
    const auto& b = body[j];
    p.inertia += b.inertia;
    p.sensitivity += b.sensitivity;
    p.wrench += b.wrench;
  });
  for_each_joint<Tree>([&](auto kind, int l) {  // M̄: β_e · Y_f for f of j ⪯ l
    constexpr int n = joint_dofs(decltype(kind)::value);
    const int e0 = Traits::joint_entry(l);
    for (int a = 0; a < n; ++a) {
      const auto e = static_cast<std::size_t>(e0 + a);
      auto& t = data.entry[e];
      t.beta = body[l].inertia.times(screw[e]);
      const int ce = kBase + e0 + a;
      if constexpr (kBase > 0) {
        mm.template block<6, 1>(0, ce) = t.beta.eigen();
        mm.template block<1, 6>(ce, 0) = t.beta.eigen().transpose();
      }
      for (int j = l; j > 0; j = Tree::kParent[j]) {
        const int f0 = Traits::joint_entry(j);
        const int f1 = f0 + joint_dofs(Tree::kJoint[static_cast<std::size_t>(j)]);
        for (int f = f0; f < f1; ++f)
          mm(ce, kBase + f) = mm(kBase + f, ce) = dot(t.beta, screw[static_cast<std::size_t>(f)]);
      }
    }
  });
  if constexpr (kBase > 0) mm.template topLeftCorner<6, 6>() = body[0].inertia.matrix();
}

/// Stage 1 of a tree of 1-DoF joints: poses, screws, twists, the accelerations
/// and body wrenches at ν̇ = (V̇₁; q̈) (`base_acceleration` world-frame, the root
/// twist's convention applied), the velocity sensitivities, the subtree sums
/// M^C, K^C, W^C, β_l = M^C_l Y_l and the mass matrix M̄ (rows and columns of
/// the result; the caller has zeroed it). With ν̇ = 0 this is the stage 1 that
/// `derivative_accelerations` completes; `inverse_dynamics_derivatives` passes
/// its ν̇ here and skips that stage. Inputs are checked by the caller.
template <class Tree, class Scalar>
void derivative_kinematics_single(
    const Model<Tree, Scalar>& model, InverseDynamicsDerivativesData<Tree, Scalar>& data,
    const Pose<Scalar>& base_pose, const Twist<Scalar>& base_twist_in,
    const typename Model<Tree, Scalar>::JointVector& q,
    const typename Model<Tree, Scalar>::JointVector& q_dot, const SV<Scalar>& base_acceleration,
    const typename Model<Tree, Scalar>::JointVector& q_ddot) noexcept {
  using S = Scalar;
  constexpr int kBase = TreeTraits<Tree>::kBaseDofs;
  auto& place = data.placement;
  auto& body = data.body;
  auto& mm = data.result.mass_matrix;
  SV<S> gravity{};
  gravity.lin = V3<S>::from(model.gravity());
  const auto body_terms = [&](int j) { derivative_body_terms(model, place[j], body[j], j); };
  place_base(model, root_pose(model, base_pose), place[0]);
  body[0].twist = SV<S>::from(root_twist<Tree>(base_twist_in));
  body[0].acceleration = base_acceleration - gravity;
  body_terms(0);
  JointSineCosine<S, Tree::kNumBodies> angle;  // all joints' in one vectorized pass
  angle.compute([&](int j) { return model.joint_sense(j) * q(j - 1); });
  for_each_joint<Tree>([&](auto kind, int j) {
    constexpr JointKind K = decltype(kind)::value;
    const int parent = Tree::kParent[j];
    const auto jj = static_cast<std::size_t>(j);
    place_body<K>(model, j, place[parent], q(j - 1), angle.cosine[jj], angle.sine[jj], place[j]);
    auto& b = body[j];
    const SV<S>& y = place[j].screw[0];
    const S qd = q_dot(j - 1);
    b.screw = y;
    b.twist = body[parent].twist + qd * y;
    // A_j = A_λ + Y_j q̈_j + (V_λ × Y_j) q̇_j.
    b.acceleration = body[parent].acceleration + qd * ad(body[parent].twist, y) + q_ddot(j - 1) * y;
    body_terms(j);
  });
  // The loops below do not depend on the joint kind: plain loops keep one copy
  // of their code (for_each_joint's would be one per kind, out of line).
  for (int j = Tree::kNumBodies - 1; j >= 1; --j) {  // subtree sums M^C, K^C, W^C
    auto& p = body[Tree::kParent[j]];
    const auto& b = body[j];
    p.inertia += b.inertia;
    p.sensitivity += b.sensitivity;
    p.wrench += b.wrench;
  }
  constexpr auto col = [](int j) { return TreeTraits<Tree>::joint_dof(j); };
  for (int l = 1; l < Tree::kNumBodies; ++l) {  // M̄ = ∂τ̄/∂ν̇: β_l · Y_j for j ⪯ l
    auto& t = data.joint[l];
    t.beta = body[l].inertia.times(body[l].screw);
    if constexpr (kBase > 0) {
      mm.template block<6, 1>(0, col(l)) = t.beta.eigen();
      mm.template block<1, 6>(col(l), 0) = t.beta.eigen().transpose();
    }
    for (int j = l; j > 0; j = Tree::kParent[j])
      mm(col(l), col(j)) = mm(col(j), col(l)) = dot(t.beta, body[j].screw);
  }
  if constexpr (kBase > 0) mm.template topLeftCorner<6, 6>() = body[0].inertia.matrix();
}

/// Stage 1 (velocities only): poses, screws, twists, the accelerations and body
/// wrenches at ν̇ = 0, the velocity sensitivities, the subtree sums M^C, K^C,
/// W^C(ν̇ = 0), β = M^C Y of every joint entry and the mass matrix M̄ (the
/// caller has zeroed the result and checked the inputs). A tree of 1-DoF
/// joints takes its own code (the rotations are then an empty array).
template <class Tree, class Scalar>
HODYN_ALWAYS_INLINE void derivative_kinematics(
    const Model<Tree, Scalar>& model, InverseDynamicsDerivativesData<Tree, Scalar>& data,
    const Pose<Scalar>& base_pose, const Twist<Scalar>& base_twist,
    const typename Model<Tree, Scalar>::JointVector& q,
    const typename Model<Tree, Scalar>::JointVector& q_dot,
    const BallRotations<Tree, Scalar>& joint_rotation) noexcept {
  if constexpr (TreeTraits<Tree>::kSingleDofJoints) {
    (void)joint_rotation;
    derivative_kinematics_single(model, data, base_pose, base_twist, q, q_dot, SV<Scalar>{},
                                 Model<Tree, Scalar>::JointVector::Zero());
  } else {
    SV<Scalar> gravity{};
    gravity.lin = V3<Scalar>::from(model.gravity());
    derivative_kinematics_multi_dof(model, data, base_pose, base_twist, q, q_dot, joint_rotation,
                                    gravity);
  }
}

/// The joint entries of joint j: [joint_entry(j), joint_entry(j) + n_j).
template <class Tree>
HODYN_ALWAYS_INLINE constexpr int entry_end(int j) {
  return TreeTraits<Tree>::joint_entry(j) + joint_dofs(Tree::kJoint[static_cast<std::size_t>(j)]);
}

/// `derivative_bias` of a tree with a ball or a universal joint: τ_e = Y_eᵀ W^C_j per joint entry.
template <class Tree, class Scalar>
void derivative_bias_multi_dof(
    const InverseDynamicsDerivativesData<Tree, Scalar>& data,
    Eigen::Matrix<Scalar, TreeTraits<Tree>::kNumDofs, 1>& bias) noexcept {
  constexpr int kBase = TreeTraits<Tree>::kBaseDofs;
  if constexpr (kBase > 0) bias.template head<6>() = data.body[0].wrench.eigen();
  for_each_joint<Tree>([&](auto, int l) {
    for (int e = TreeTraits<Tree>::joint_entry(l); e < entry_end<Tree>(l); ++e)
      bias(kBase + e) = dot(data.entry_screw[static_cast<std::size_t>(e)], data.body[l].wrench);
  });
}

/// `derivative_accelerations` of a tree with a ball or a universal joint
/// (A'_m += ΔA_λ + S₁ θ̈₁ for its intermediate frame): ΔA_j = ΔA_λ + Σ_e Y_e q̈_e
/// (a ball: Σ_a S_a ω̇_a), R_λ += R_j + Σ_e β_e q̈_e.
template <class Tree, class Scalar>
void derivative_accelerations_multi_dof(
    InverseDynamicsDerivativesData<Tree, Scalar>& data, const Twist<Scalar>& base_acceleration,
    const typename Model<Tree, Scalar>::JointVector& q_ddot) noexcept {
  using S = Scalar;
  auto& body = data.body;
  auto& delta = data.delta_acceleration;
  auto& rest = data.delta_wrench;
  delta[0] = SV<S>::from(root_twist<Tree>(base_acceleration));
  for_each_joint<Tree>([&](auto kind, int j) {
    const int e0 = TreeTraits<Tree>::joint_entry(j);
    if constexpr (is_universal(decltype(kind)::value)) {  // A'_m += ΔA_λ + S₁ θ̈₁
      const auto u =
          static_cast<std::size_t>(TreeTraits<Tree>::kUniversalIndex[static_cast<std::size_t>(j)]);
      data.intermediate_acceleration[u] +=
          delta[Tree::kParent[j]] + q_ddot(e0) * data.entry_screw[static_cast<std::size_t>(e0)];
    }
    delta[j] = delta[Tree::kParent[j]];
    for (int e = e0; e < entry_end<Tree>(j); ++e)
      delta[j] += q_ddot(e) * data.entry_screw[static_cast<std::size_t>(e)];
    rest[j] = SV<S>{};
  });
  rest[0] = SV<S>{};
  for_each_joint_reverse<Tree>([&](auto, int j) {
    SV<S> r = rest[j];
    for (int e = TreeTraits<Tree>::joint_entry(j); e < entry_end<Tree>(j); ++e)
      r += q_ddot(e) * data.entry[static_cast<std::size_t>(e)].beta;
    rest[Tree::kParent[j]] += r;
  });
  for (int j = 0; j < Tree::kNumBodies; ++j) {
    body[j].acceleration += delta[j];
    body[j].wrench += body[j].inertia.times(delta[j]) + rest[j];
  }
}

/// `derivative_partials` of a tree with a ball or a universal joint, per joint entry. A ball's δ_a
/// (R = R exp([δ]), the child's axis a) turns its child's subtree about S_a,
/// its own three screws included (δS_b = S_a × S_b), so the covariance
/// argument of the 1-DoF joints holds unchanged: column F_a = S_a ×* W^C −
/// K^C a_a − M^C c_a with a_a = S_a × V_λ, c_a = S_a × A'_λ − a_a × V_λ, and
/// row b of the same ball against it −α_b·a_a − β_b·c_a. Its ω_a moves V_j by
/// S_a and, through Σ_b Ṡ_b ω_b = V_j × U, the accelerations below by
/// u_a = (V_λ + V_j) × S_a (2 V_λ × Y for a 1-DoF joint, whose V_j × Y = V_λ × Y).
/// A universal joint's θ₁ is such a column (it turns S₂ too: row θ₂ against
/// it is −α₂·a₁ − β₂·c₁), its θ₂ the column of a 1-DoF joint whose parent is
/// the intermediate frame (a₂ = S₂ × V_m, c₂ = S₂ × A'_m − a₂ × V_m,
/// u₂ = 2 V_m × S₂; u₁ = 2 V_λ × S₁ as the θ₁θ̇₂ terms cancel), and θ₂ does
/// not turn S₁: row θ₁ against it is S₁·F₂.
template <class Tree, class Scalar>
void derivative_partials_multi_dof(InverseDynamicsDerivativesData<Tree, Scalar>& data,
                                   const Pose<Scalar>& base_pose) noexcept {
  using S = Scalar;
  using Traits = TreeTraits<Tree>;
  constexpr int kBase = Traits::kBaseDofs;
  auto& out = data.result;
  auto& body = data.body;
  auto& dq = out.d_configuration;
  auto& dv = out.d_velocity;
  const auto& screw = data.entry_screw;
  for_each_joint<Tree>([&](auto kind, int l) {
    constexpr bool kBall = is_spherical(decltype(kind)::value);
    constexpr bool kUniversal = is_universal(decltype(kind)::value);
    const auto& bl = body[l];
    const auto& parent = body[Tree::kParent[l]];
    const int e0 = Traits::joint_entry(l), e1 = entry_end<Tree>(l);
    for (int e = e0; e < e1; ++e) {  // columns first: a ball's rows read all three
      auto& t = data.entry[static_cast<std::size_t>(e)];
      const SV<S>& y = screw[static_cast<std::size_t>(e)];
      // What the screw turns against: the parent, or for a universal joint's S₂
      // the intermediate frame (V_m, A'_m), θ₂'s parent as for a 1-DoF joint.
      const SV<S>* v_in = &parent.twist;
      const SV<S>* a_in = &parent.acceleration;
      if constexpr (kUniversal) {
        if (e > e0) {
          const auto u =
              static_cast<std::size_t>(Traits::kUniversalIndex[static_cast<std::size_t>(l)]);
          v_in = &data.intermediate_twist[u];
          a_in = &data.intermediate_acceleration[u];
        }
      }
      t.a = ad(y, *v_in);
      t.c = ad(y, *a_in) - ad(t.a, *v_in);
      if constexpr (kBall)
        t.u = ad(parent.twist + bl.twist, y);
      else
        t.u = S(2) * ad(*v_in, y);
      t.f = cross_force(y, bl.wrench) - bl.sensitivity.times(t.a) - bl.inertia.times(t.c);
      t.g = bl.sensitivity.times(y) + bl.inertia.times(t.u);
      t.alpha = bl.sensitivity.transpose_times(y);
      out.generalized_force(kBase + e) = dot(y, bl.wrench);
      if constexpr (kBase > 0) {
        dq.template block<6, 1>(0, kBase + e) = t.f.eigen();
        dv.template block<6, 1>(0, kBase + e) = t.g.eigen();
      }
    }
    for (int e = e0; e < e1; ++e) {
      const auto& t = data.entry[static_cast<std::size_t>(e)];
      for (int j = l; j > 0; j = Tree::kParent[j]) {
        for (int f = Traits::joint_entry(j); f < entry_end<Tree>(j); ++f) {
          const auto& tj = data.entry[static_cast<std::size_t>(f)];
          const SV<S>& yj = screw[static_cast<std::size_t>(f)];
          // θ₂ does not turn the universal joint's own S₁ (before it in the
          // product): row θ₁ reads column θ₂ as an ancestor's row does.
          if (kUniversal && j == l && f > e)
            dq(kBase + e, kBase + f) = dot(screw[static_cast<std::size_t>(e)], tj.f);
          else
            dq(kBase + e, kBase + f) = -dot(t.alpha, tj.a) - dot(t.beta, tj.c);
          dv(kBase + e, kBase + f) = dot(t.alpha, yj) + dot(t.beta, tj.u);
          if (j != l) {
            dq(kBase + f, kBase + e) = dot(yj, t.f);
            dv(kBase + f, kBase + e) = dot(yj, t.g);
          }
        }
      }
    }
  });
  if constexpr (kBase > 0) {  // the base: as in derivative_partials, rows per joint entry
    const auto& b0 = body[0];
    const SV<S>& base_twist = b0.twist;
    const SV<S>& base_acceleration = b0.acceleration;
    out.generalized_force.template head<6>() = b0.wrench.eigen();
    base_blocks(b0.inertia, b0.sensitivity, b0.wrench, base_twist, base_acceleration, base_pose, dq,
                dv);
    const M3<S> rotation = M3<S>::from(base_pose.rotation);
    const V3<S> origin = V3<S>::from(base_pose.translation);
    for (int e = 0; e < Traits::kNumJointDofs; ++e) {
      const auto& t_e = data.entry[static_cast<std::size_t>(e)];
      const SV<S> v_beta = cross_force(base_twist, t_e.beta);
      const SV<S> twist_row = t_e.alpha - v_beta;
      const SV<S> w =
          cross_force(base_twist, v_beta - t_e.alpha) - cross_force(base_acceleration, t_e.beta);
      const SV<S> pose_row = coadjoint_small(rotation, origin, w);
      dv.template block<1, 6>(kBase + e, 0) = twist_row.eigen().transpose();
      dq.template block<1, 6>(kBase + e, 0) = pose_row.eigen().transpose();
    }
  } else {
    (void)base_pose;
  }
}

/// τ̄ at the accelerations of stage 1 (ν̇ = 0): the bias h + g in the world frame.
template <class Tree, class Scalar>
void derivative_bias(const InverseDynamicsDerivativesData<Tree, Scalar>& data,
                     Eigen::Matrix<Scalar, TreeTraits<Tree>::kNumDofs, 1>& bias) noexcept {
  if constexpr (!TreeTraits<Tree>::kSingleDofJoints) return derivative_bias_multi_dof(data, bias);
  if constexpr (TreeTraits<Tree>::kBaseDofs > 0)
    bias.template head<6>() = data.body[0].wrench.eigen();
  for_each_joint<Tree>([&](auto, int l) {
    bias(TreeTraits<Tree>::joint_dof(l)) = dot(data.body[l].screw, data.body[l].wrench);
  });
}

/// Stage 2: adds the accelerations ν̇ = (V̇₁; q̈): ΔA_j = ΔA_λ + Y_j q̈_j (ΔA_0 = V̇₁),
/// and the subtree wrenches ΔW^C_j = M^C_j ΔA_j + R_j with R_j = Σ_children (R_c + β_c q̈_c).
/// For `linearize` (which needs the bias at ν̇ = 0 first) and the trees with a ball or a
/// universal joint; `inverse_dynamics_derivatives` of a 1-DoF tree passes ν̇ to stage 1.
template <class Tree, class Scalar>
void derivative_accelerations(InverseDynamicsDerivativesData<Tree, Scalar>& data,
                              const Twist<Scalar>& base_acceleration,
                              const typename Model<Tree, Scalar>::JointVector& q_ddot) noexcept {
  if constexpr (!TreeTraits<Tree>::kSingleDofJoints)
    return derivative_accelerations_multi_dof(data, base_acceleration, q_ddot);
  using S = Scalar;
  auto& body = data.body;
  auto& delta = data.delta_acceleration;
  auto& rest = data.delta_wrench;
  delta[0] = SV<S>::from(root_twist<Tree>(base_acceleration));
  for (int j = 1; j < Tree::kNumBodies; ++j) {
    delta[j] = delta[Tree::kParent[j]] + q_ddot(j - 1) * body[j].screw;
    rest[j] = SV<S>{};
  }
  rest[0] = SV<S>{};
  for (int j = Tree::kNumBodies - 1; j >= 1; --j)
    rest[Tree::kParent[j]] += rest[j] + q_ddot(j - 1) * data.joint[j].beta;
  for (int j = 0; j < Tree::kNumBodies; ++j) {
    body[j].acceleration += delta[j];
    body[j].wrench += body[j].inertia.times(delta[j]) + rest[j];
  }
}

/// Stage 3: τ̄ and the configuration and velocity partials at the accelerations
/// of stages 1-2 (`base_pose` as in stage 1).
template <class Tree, class Scalar>
void derivative_partials(InverseDynamicsDerivativesData<Tree, Scalar>& data,
                         const Pose<Scalar>& base_pose) noexcept {
  if constexpr (!TreeTraits<Tree>::kSingleDofJoints)
    return derivative_partials_multi_dof(data, base_pose);
  using S = Scalar;
  constexpr int kBase = TreeTraits<Tree>::kBaseDofs;
  auto& out = data.result;
  auto& body = data.body;
  auto& dq = out.d_configuration;
  auto& dv = out.d_velocity;
  constexpr auto col = [](int j) { return TreeTraits<Tree>::joint_dof(j); };
  // Every joint l once, as a row (α_l = K^C_lᵀ Y_l, β_l = M^C_l Y_l) and as a
  // column (a_l, c_l, u_l, and F_l, G_l: what the rows of its ancestors read).
  // Plain loops: the terms do not depend on the joint kind (one copy of the code).
  for (int l = 1; l < Tree::kNumBodies; ++l) {
    const auto& bl = body[l];
    const auto& parent = body[Tree::kParent[l]];
    auto& t = data.joint[l];
    const SV<S>& y = bl.screw;
    t.a = ad(y, parent.twist);
    t.c = ad(y, parent.acceleration) - ad(t.a, parent.twist);
    t.u = S(2) * ad(parent.twist, y);
    t.f = cross_force(y, bl.wrench) - bl.sensitivity.times(t.a) - bl.inertia.times(t.c);
    t.g = bl.sensitivity.times(y) + bl.inertia.times(t.u);
    t.alpha = bl.sensitivity.transpose_times(y);
    out.generalized_force(col(l)) = dot(y, bl.wrench);
    if constexpr (kBase > 0) {
      dq.template block<6, 1>(0, col(l)) = t.f.eigen();
      dv.template block<6, 1>(0, col(l)) = t.g.eigen();
    }
    // Row l against its ancestors j and itself: ∂τ_l/∂q_j = −α_l·a_j − β_l·c_j,
    // ∂τ_l/∂q̇_j = α_l·Y_j + β_l·u_j; row j against column l: Y_j·F_l, Y_j·G_l.
    for (int j = l; j > 0; j = Tree::kParent[j]) {
      const auto& tj = data.joint[j];
      const SV<S>& yj = body[j].screw;
      dq(col(l), col(j)) = -dot(t.alpha, tj.a) - dot(t.beta, tj.c);
      dv(col(l), col(j)) = dot(t.alpha, yj) + dot(t.beta, tj.u);
      if (j != l) {
        dq(col(j), col(l)) = dot(yj, t.f);
        dv(col(j), col(l)) = dot(yj, t.g);
      }
    }
  }
  if constexpr (kBase > 0) {
    const auto& b0 = body[0];
    const SV<S>& base_twist = b0.twist;
    const SV<S>& base_acceleration = b0.acceleration;  // V̇₁ − G
    out.generalized_force.template head<6>() = b0.wrench.eigen();
    // Base columns. Base rows: ∂W^C/∂V₁ = K^C + M^C ad_V₁ and, the base-frame ξ
    // being the world η = Ad_C₁ ξ, δW^C = η ×* W^C − K^C a − M^C c with
    // a = η × V₁, c = η × A'₁ − a × V₁:  ∂W^C/∂ξ = (W̄^C + K^C ad_V₁ + M^C (ad_A'₁ + ad_V₁²)) Ad_C₁.
    base_blocks(b0.inertia, b0.sensitivity, b0.wrench, base_twist, base_acceleration, base_pose, dq,
                dv);
    const M3<S> rotation = M3<S>::from(base_pose.rotation);
    const V3<S> origin = V3<S>::from(base_pose.translation);
    // Joint rows, by the same terms as row vectors: ∂τ_l/∂V₁ = (α_l − V₁ ×* β_l)ᵀ,
    // ∂τ_l/∂ξ = (Ad_C₁ᵀ w_l)ᵀ with w_l = −V₁ ×* α_l − A'₁ ×* β_l + V₁ ×* (V₁ ×* β_l).
    for (int l = 1; l < Tree::kNumBodies; ++l) {
      const auto& t_l = data.joint[l];
      const SV<S> v_beta = cross_force(base_twist, t_l.beta);
      const SV<S> twist_row = t_l.alpha - v_beta;
      const SV<S> w =
          cross_force(base_twist, v_beta - t_l.alpha) - cross_force(base_acceleration, t_l.beta);
      const SV<S> pose_row = coadjoint_small(rotation, origin, w);
      dv.template block<1, 6>(col(l), 0) = twist_row.eigen().transpose();
      dq.template block<1, 6>(col(l), 0) = pose_row.eigen().transpose();
    }
  } else {
    (void)base_pose;
  }
}

/// The outputs are finite (else they are zeroed): kOk or kNonFiniteResult.
template <class Tree, class Scalar>
Status check_derivative_result(InverseDynamicsDerivatives<Tree, Scalar>& out) noexcept {
  if (!all_finite_wide(out.d_configuration) || !all_finite_wide(out.d_velocity) ||
      !all_finite_wide(out.mass_matrix) || !all_finite(out.generalized_force)) {
    out.set_zero();
    return Status::kNonFiniteResult;
  }
  return Status::kOk;
}

HODYN_ISA_NAMESPACE_END
}  // namespace detail
HODYN_ISA_NAMESPACE_BEGIN

/// ∂τ̄ with respect to the base pose (left-trivialized, base frame), q, V₁, q̇,
/// and V̇₁, q̈ (M̄), at the state base_pose, base_twist[0], q[0], q[1] and the
/// accelerations base_twist[1], q[2] of `motion`. For a fixed-base tree the
/// base fields are ignored and the outputs have joint rows and columns only.
/// A ball's columns are ∂/∂δ (right perturbation of R_j exp([δ_in]), read from
/// `joint_rotation` and q[0]) and ∂/∂ω; a bad `joint_rotation` gives
/// kNonOrthonormalRotation or kNonFiniteInput and zero outputs. A universal
/// joint's are ∂/∂θ₁, ∂/∂θ₂ and ∂/∂θ̇₁, ∂/∂θ̇₂.
template <class Tree, int MaxOrder, class Scalar>
Status inverse_dynamics_derivatives(
    const Model<Tree, Scalar>& model, InverseDynamicsDerivativesData<Tree, Scalar>& data,
    const MotionDerivatives<Tree, MaxOrder, Scalar>& motion) noexcept {
  constexpr int kBase = TreeTraits<Tree>::kBaseDofs;
  auto& out = data.result;
  Status status = Status::kOk;
  if constexpr (kBase > 0) {
    status = detail::check_pose(motion.base_pose);
    if (status == Status::kOk &&
        (!detail::all_finite(motion.base_twist[0]) || !detail::all_finite(motion.base_twist[1])))
      status = Status::kNonFiniteInput;
  }
  for (int k = 0; status == Status::kOk && k <= 2; ++k)
    if (!detail::all_finite(motion.q[k])) status = Status::kNonFiniteInput;
  if (status == Status::kOk) status = detail::check_joint_rotations(motion.joint_rotation);
  out.set_zero();
  if (status != Status::kOk) return status;
  if constexpr (TreeTraits<Tree>::kSingleDofJoints) {  // ν̇ in stage 1: no stage 2
    detail::derivative_kinematics_single(
        model, data, motion.base_pose, motion.base_twist[0], motion.q[0], motion.q[1],
        detail::SV<Scalar>::from(detail::root_twist<Tree>(motion.base_twist[1])), motion.q[2]);
  } else {
    detail::derivative_kinematics(model, data, motion.base_pose, motion.base_twist[0], motion.q[0],
                                  motion.q[1], motion.joint_rotation);
    detail::derivative_accelerations(data, motion.base_twist[1], motion.q[2]);
  }
  detail::derivative_partials(data, detail::root_pose(model, motion.base_pose));
  return detail::check_derivative_result(out);
}

HODYN_ISA_NAMESPACE_END
}  // namespace hodyn
