// hodyn/equations_of_motion.hpp — the closed-form equations of motion of a
// floating-base tree (seed 000 Prop. 1, Lemma 1) and their first time derivatives.
//
//   τ̄ = M̄(Q) ν̇ + h(Q, ν) + g(Q) + τ_app(Q)                               (eq. 10)
//   τ̄ = (Q₁ ; τ + τ_ext),  ν = (V₁ ; q̇),  h = C ν
// with, for generalized velocities l, i with screws s_l, s_i moving bodies
// b(l), b(i) (base velocities: unit screws on the base) and d the deeper of
// the two bodies when one is an ancestor of the other (otherwise the entry is 0):
//   M̄_li = s_lᵀ M^C_d s_i                                  (eq. 11, composite inertia)
//   C_li = s_lᵀ (M^C_d ṡ_i − P^C_d s_i),  P_k = ad_{V_k}ᵀ M_k    (Lemma 1, eq. 21)
//   g_l  = −s_lᵀ M^C_{b(l)} G,   τ_app,l = −s_lᵀ W^C_{app,b(l)}  (eqs. 12-13)
// where X^C_d sums X_k over the subtree of d. The first derivatives follow by
// differentiating each factor: Ṁ_k = −(M_k ad_{V_k} + ad_{V_k}ᵀ M_k), ṡ = ad_V s
// (zero for the base, digest erratum E3), s̈ = ad_V̇ s + ad_V ṡ, so that
//   τ̄̇ = M̄ ν̈ + Ṁ̄ ν̇ + Ċ ν + C ν̇ + ġ + τ̇_app                               (eq. 14, corrected)
//
// `mass_matrix` is the fast path for M̄ alone (composite rigid bodies on the
// ten inertia parameters, no 6x6 products); it takes ball joints, given the
// configuration as a MotionDerivatives (their rotations R_j are in it), and
// universal joints (two columns, S = [Rot(e₂, θ₂)ᵀ e₁, e₂] in the child's frame).
// `equations_of_motion` computes everything; it uses dense 6x6 body matrices
// and is meant for analysis, controllers that need C, and tests, not for the
// innermost loop. Sizes are compile-time: trees up to kMaxClosedFormDofs
// generalized velocities.
#pragma once

#include <array>
#include <atomic>
#include <type_traits>
#include <utility>

#include "hodyn/detail/applied_loads.hpp"
#include "hodyn/detail/ball_joint.hpp"
#include "hodyn/detail/isa.hpp"
#include "hodyn/detail/joint_frame_articulated.hpp"
#include "hodyn/detail/joint_frame_recursions.hpp"
#include "hodyn/detail/moving_frame.hpp"
#include "hodyn/detail/root_motion.hpp"
#include "hodyn/detail/series_recursions.hpp"
#include "hodyn/detail/sine_cosine.hpp"
#include "hodyn/detail/small_algebra.hpp"
#include "hodyn/detail/validation.hpp"
#include "hodyn/model.hpp"
#include "hodyn/motion.hpp"
#include "hodyn/spatial_inertia.hpp"
#include "hodyn/status.hpp"
#include "hodyn/tree.hpp"

namespace hodyn {
HODYN_ISA_NAMESPACE_BEGIN

/// Largest number of generalized velocities (6 + joints) for the dense closed forms.
inline constexpr int kMaxClosedFormDofs = 64;

HODYN_ISA_NAMESPACE_END
namespace detail {
HODYN_ISA_NAMESPACE_BEGIN

/// A spatial inertia on its ten parameters in a body's joint frame: mass,
/// first moment h, rotational inertia I about the frame origin.
template <class S>
struct CompositeInertia {
  S mass{0};
  V3<S> first_moment{};
  Sym3<S> inertia{};

  /// M s for a joint screw: revolute s = (e; 0) → (I e; −h × e), prismatic
  /// s = (0; e) → (h × e; m e).
  /// Helical s = (e; p e), `pitch` = p: the sum of both, (I e + p h × e; e × h + p m e).
  /// An axis-aligned revolute kind picks column a of I and components of h.
  template <JointKind K>
  HODYN_ALWAYS_INLINE SV<S> times_screw(const V3<S>& e, const S& pitch = S(0)) const {
    constexpr int a = aligned_axis(K);
    if constexpr (is_revolute(K) && a >= 0)
      return {a == 0   ? V3<S>{inertia.xx, inertia.xy, inertia.xz}
              : a == 1 ? V3<S>{inertia.xy, inertia.yy, inertia.yz}
                       : V3<S>{inertia.xz, inertia.yz, inertia.zz},
              axis_cross<K>(e, first_moment)};
    else if constexpr (is_revolute(K))
      return {inertia * e, cross(e, first_moment)};
    else if constexpr (is_helical(K))
      return {inertia * e + pitch * cross(first_moment, e),
              cross(e, first_moment) + (pitch * mass) * e};
    else
      return {cross(first_moment, e), mass * e};
  }
  /// The same inertia in the parent frame, for the child frame at (R, d):
  /// h' = R h + m d,  I' = R I Rᵀ − ([Rh][d] + [d][Rh]) − m [d]²  (eq. 60 on ten parameters).
  HODYN_ALWAYS_INLINE CompositeInertia in_parent(const M3<S>& r, const V3<S>& d) const {
    return CompositeInertia{mass, r * first_moment, inertia.congruence(r)}.shifted(d);
  }
  /// The rotation part for R = Rot(e_A, θ), c = cos θ, s = sin θ, with
  /// b = A + 1, d = A + 2 (mod 3): I_aa stays, (I_ab, I_ad) and h turn by θ,
  /// and the (b, d) block, mean ± (half-difference, I_bd) turned by 2θ:
  ///   I'_bb − I'_dd = 2 (C₂ δ − S₂ I_bd),  I'_bd = S₂ δ + C₂ I_bd,
  /// δ = (I_bb − I_dd)/2, C₂ = c² − s², S₂ = 2cs; about 20 operations for the
  /// congruence's 75.
  template <int A>
  HODYN_ALWAYS_INLINE CompositeInertia rotated_about_axis(const S& c, const S& s) const {
    const Sym3<S>& i = inertia;
    // (I_bb, I_dd, I_ab, I_ad, I_bd) in the axis order (a, b, d).
    const S ibb = A == 0 ? i.yy : A == 1 ? i.zz : i.xx;
    const S idd = A == 0 ? i.zz : A == 1 ? i.xx : i.yy;
    const S iab = A == 0 ? i.xy : A == 1 ? i.yz : i.xz;
    const S iad = A == 0 ? i.xz : A == 1 ? i.xy : i.yz;
    const S ibd = A == 0 ? i.yz : A == 1 ? i.xz : i.xy;
    const S c2 = c * c - s * s, s2 = S(2) * (c * s);
    const S mean = S(0.5) * (ibb + idd), half = S(0.5) * (ibb - idd);
    const S turn = c2 * half - s2 * ibd;
    const S rbb = mean + turn, rdd = mean - turn, rbd = s2 * half + c2 * ibd;
    const S rab = c * iab - s * iad, rad = s * iab + c * iad;
    const S iaa = A == 0 ? i.xx : A == 1 ? i.yy : i.zz;
    Sym3<S> out;
    if constexpr (A == 0)
      out = {iaa, rbb, rdd, rab, rad, rbd};
    else if constexpr (A == 1)
      out = {rdd, iaa, rbb, rad, rbd, rab};
    else
      out = {rbb, rdd, iaa, rbd, rab, rad};
    const S hb = component<(A + 1) % 3>(first_moment), hd = component<(A + 2) % 3>(first_moment);
    return {mass,
            from_axis_components<A>(component<A>(first_moment), c * hb - s * hd, s * hb + c * hd),
            out};
  }
  /// The translation part: the inertia of a frame at d of the parent, in the
  /// parent (axes parallel): h' = h + m d and
  /// I' = I − ([h][d] + [d][h]) − m [d]² = I − [d][h'] − [h][d]
  ///    = I + (d·(h + h')) 1 − (h' dᵀ + d hᵀ)   ([a][b] = b aᵀ − (a·b) 1),
  /// symmetric since h' dᵀ − d h'ᵀ = h dᵀ − d hᵀ: 18 operations.
  HODYN_ALWAYS_INLINE CompositeInertia shifted(const V3<S>& d) const {
    const V3<S>& h = first_moment;
    const V3<S> hp = h + mass * d;
    const V3<S> g = h + hp;
    const S t = dot(d, g);
    Sym3<S> i = inertia;
    i.xx += t - d.x * g.x;
    i.yy += t - d.y * g.y;
    i.zz += t - d.z * g.z;
    i.xy -= hp.x * d.y + d.x * h.y;
    i.xz -= hp.x * d.z + d.x * h.z;
    i.yz -= hp.y * d.z + d.y * h.z;
    return {mass, hp, i};
  }
  HODYN_ALWAYS_INLINE CompositeInertia& operator+=(const CompositeInertia& o) {
    mass += o.mass;
    first_moment += o.first_moment;
    inertia += o.inertia;
    return *this;
  }
};

/// Carries a wrench f of body C's joint frame to the base's frame B_0 through
/// C's ancestors, calling emit(row of ν, S_iᵀ f) at every ancestor joint i;
/// f holds the wrench in B_0 on return. X_c = T(d_c) Rot(e_c, θ_c) (revolute),
/// T(d_c + e_c θ_c) (prismatic), T(d_c + h_c θ_c e_c) Rot(e_c, θ_c) (helical)
/// or T(d_c) R_c (ball, R_c in `rot`), the translation folded into `offset`;
/// Ad_{X_c}⁻ᵀ f = (R n + d × R f; R f). A ball ancestor i gets three rows,
/// S_iᵀ f = f_ang (S_i = [1; 0] in its child's frame); a universal ancestor
/// (X_c = T(d_c) Rot(e₁, θ₁) Rot(e₂, θ₂) in `rot`) two, (Rot₂ᵀ e₁)ᵀ f_ang and
/// e₂ᵀ f_ang.
template <class Tree, int C, class S, class Model, class Rotations, class Offsets, class Angles,
          class Emit>
HODYN_ALWAYS_INLINE void carry_column_to_root(const Model& model, const Rotations& rot,
                                              const Offsets& offset, const Angles& sc, SV<S>& f,
                                              Emit&& emit) {
  if constexpr (C > 0) {
    constexpr JointKind K = Tree::kJoint[C];
    constexpr int P = Tree::kParent[C];
    constexpr auto c = static_cast<std::size_t>(C);
    if constexpr (is_spherical(K) || is_universal(K)) {
      f = {rot[c] * f.ang, rot[c] * f.lin};
    } else if constexpr (joint_rotates(K)) {
      if constexpr (aligned_axis(K) >= 0) {
        const V3<S> e = V3<S>::from(model.joint_axis(C));
        f = {axis_rotate<K, false, true>(e, sc.cosine[c], sc.sine[c], f.ang),
             axis_rotate<K, false, true>(e, sc.cosine[c], sc.sine[c], f.lin)};
      } else {
        f = {rot[c] * f.ang, rot[c] * f.lin};
      }
    }
    f.ang += cross(offset[c], f.lin);
    if constexpr (P > 0) {
      constexpr JointKind KP = Tree::kJoint[P];
      if constexpr (is_spherical(KP)) {
        constexpr int row = TreeTraits<Tree>::joint_dof(P);
        emit(row, f.ang.x);
        emit(row + 1, f.ang.y);
        emit(row + 2, f.ang.z);
      } else if constexpr (is_universal(KP)) {
        // S = [Rot₂ᵀ e₁, e₂] in P's frame; Rot₂ᵀ e₁ = (Rot₁ Rot₂)ᵀ e₁ (Rot₁ e₁ = e₁).
        constexpr int row = TreeTraits<Tree>::joint_dof(P);
        const auto p = static_cast<std::size_t>(P);
        const V3<S> e1 = rot[p].transpose_times(V3<S>::from(model.joint_axis(P)));
        emit(row, dot(e1, f.ang));
        emit(row + 1, dot(V3<S>::from(model.joint_second_axis(P)), f.ang));
      } else {
        const V3<S> ep = V3<S>::from(model.joint_axis(P));
        emit(TreeTraits<Tree>::joint_dof(P),
             model.joint_sense(P) * screw_dot<KP>(ep, f, pitch_axis<KP>(model, P)));
      }
      carry_column_to_root<Tree, P>(model, rot, offset, sc, f, emit);
    }
  }
}

HODYN_ISA_NAMESPACE_END
}  // namespace detail
HODYN_ISA_NAMESPACE_BEGIN

/// Closed-form terms of eq. 10 and their first derivatives (eq. 14).
template <class Tree, class Scalar = double>
struct EquationsOfMotion {
  static constexpr int kDofs = TreeTraits<Tree>::kNumDofs;
  static_assert(kDofs <= kMaxClosedFormDofs, "closed forms are for trees up to 64 dofs");
  using Matrix = Eigen::Matrix<Scalar, kDofs, kDofs>;
  using Vector = Eigen::Matrix<Scalar, kDofs, 1>;

  Matrix mass_matrix = Matrix::Zero();      ///< M̄ (symmetric positive definite)
  Matrix coriolis_matrix = Matrix::Zero();  ///< C of Lemma 1: ½ dM̄/dt − C is skew
  Vector coriolis = Vector::Zero();         ///< h = C ν
  Vector gravity = Vector::Zero();          ///< g
  Vector applied = Vector::Zero();          ///< τ_app = −Sᵀ G_c W_app (applied wrenches)
  // First time derivatives (computed when requested):
  Matrix mass_matrix_rate = Matrix::Zero();      ///< dM̄/dt
  Matrix coriolis_matrix_rate = Matrix::Zero();  ///< dC/dt
  Vector coriolis_rate = Vector::Zero();         ///< dh/dt = Ċ ν + C ν̇
  Vector gravity_rate = Vector::Zero();          ///< dg/dt
  Vector applied_rate = Vector::Zero();          ///< dτ_app/dt

  void set_zero() { *this = EquationsOfMotion{}; }
};

/// Workspace and results of the closed forms. Both `mass_matrix` (on a
/// MotionDerivatives) and `equations_of_motion` take trees with ball joints
/// (a ball's configuration is its joint_rotation entry R_j times exp([δ]),
/// its three entries of ν the child-frame ω; docs/joint-kinds.md) and trees
/// with universal joints (θ₁, θ₂ two entries of q).
template <class Tree, class Scalar = double>
struct EquationsOfMotionData {
  static constexpr int kNumBodies = Tree::kNumBodies;
  static constexpr int kDofs = TreeTraits<Tree>::kNumDofs;
  EquationsOfMotion<Tree, Scalar> result{};
  // workspace
  std::array<detail::BodySeries<1, Scalar>, kNumBodies> body{};
  detail::JointSineCosine<Scalar, kNumBodies> joint_sine_cosine{};    ///< cos θ_j, sin θ_j
  std::array<Matrix6<Scalar>, kNumBodies> composite_inertia{};        ///< M^C
  std::array<Matrix6<Scalar>, kNumBodies> composite_inertia_rate{};   ///< Ṁ^C
  std::array<Matrix6<Scalar>, kNumBodies> composite_coriolis{};       ///< P^C
  std::array<Matrix6<Scalar>, kNumBodies> composite_coriolis_rate{};  ///< Ṗ^C
  std::array<Wrench<Scalar>, kNumBodies> composite_applied{};         ///< W^C_app
  std::array<Wrench<Scalar>, kNumBodies> composite_applied_rate{};    ///< Ẇ^C_app
  /// Taylor coefficients S_i,[k], k = 0..2, of every ball's three screws
  /// (i = x, y, z of the child's joint frame; empty without a ball).
  std::array<std::array<std::array<detail::SV<Scalar>, 3>, 3>,
             TreeTraits<Tree>::kNumSphericalJoints>
      ball_screw{};
  /// Taylor coefficients S_i,[k], k = 0..2, of every universal joint's two
  /// screws (i = 1, 2: about e₁ and e₂; empty without a universal joint).
  std::array<std::array<std::array<detail::SV<Scalar>, 3>, 2>,
             TreeTraits<Tree>::kNumUniversalJoints>
      universal_screw{};
};

HODYN_ISA_NAMESPACE_END
namespace detail {
HODYN_ISA_NAMESPACE_BEGIN

/// ancestor_or_self[a][b]: body a lies on the path from the base to body b.
template <class Tree>
constexpr auto ancestor_table() {
  constexpr int n = Tree::kNumBodies;
  std::array<std::array<bool, n>, n> t{};
  for (int b = 0; b < n; ++b)
    for (int a = b; a >= 0; a = Tree::kParent[a]) t[a][b] = true;
  return t;
}

/// Order 0 of a universal joint j's body: F_j = F_p T(a) Rot(e₁, θ₁)
/// Rot(e₂, θ₂) T(−a) (a its point at home; the frames parallel to the world at
/// home), its centre of mass and inertia, and its two screws
/// S₁ = (R_p e₁; a_w × R_p e₁), S₂ = (R_m e₂; a_w × R_m e₂) through the moved
/// point a_w = F_p a (R_m = R_p Rot(e₁, θ₁), the intermediate frame). Also the
/// placement of the state partials (inverse_dynamics_derivatives.hpp).
template <int MaxOrder, class Tree, class Scalar>
void place_universal(const Model<Tree, Scalar>& model, int j,
                     const BodySeries<MaxOrder, Scalar>& parent, const Scalar& theta1,
                     const Scalar& theta2, BodySeries<MaxOrder, Scalar>& b, SV<Scalar>& s1,
                     SV<Scalar>& s2) {
  using S = Scalar;
  using std::cos;
  using std::sin;
  const V3<S> e1 = V3<S>::from(model.joint_axis(j));
  const V3<S> e2 = V3<S>::from(model.joint_second_axis(j));
  const M3<S> middle = parent.rotation * axis_rotation<JointKind::kRevolute>(
                                             e1, S(1), S(cos(theta1)), S(sin(theta1)));
  const V3<S> a = V3<S>::from(model.joint_axis_point(j));
  const V3<S> a_world = parent.rotation * a + parent.translation;
  b.rotation =
      middle * axis_rotation<JointKind::kRevolute>(e2, S(1), S(cos(theta2)), S(sin(theta2)));
  b.translation = a_world - b.rotation * a;
  b.com[0] = b.rotation * V3<S>::from(model.com_from_axis_point(j)) + a_world;
  b.inertia[0] = model.home_inertia(j).congruence(b.rotation);
  const V3<S> a1 = parent.rotation * e1, a2 = middle * e2;
  s1 = {a1, cross(a_world, a1)};
  s2 = {a2, cross(a_world, a2)};
}

/// A ball joint j's body: F_j = F_p T(c) R T(−c) (c its centre at home,
/// R = R_j exp([δ]) the child's rotation relative to the parent, both frames
/// parallel to the world at home), its three screws S_i = (F_j e_i; c_w × F_j e_i)
/// through the moved centre c_w = F_p c, and (k ≤ `kinematic_order`) the
/// coefficients V_[k] = V_p,[k] + Σ_i Σ_{m≤k} S_i,[m] ω_i,[k−m] and
/// S_i,[k+1] = Σ_{m≤k} ad(V_[m], S_i,[k−m]) / (k+1): the screws turn with the
/// child (Ṡ_i = ad_{V_j} S_i, as in the kinematics).
template <class Tree, class Scalar, class Screws>
void place_and_move_ball(const Model<Tree, Scalar>& model, int j,
                         const MotionDerivatives<Tree, 1, Scalar>& motion, int kinematic_order,
                         const BodySeries<1, Scalar>& parent, BodySeries<1, Scalar>& b,
                         Screws& screw) {
  using S = Scalar;
  const int entry = TreeTraits<Tree>::joint_entry(j);
  const auto ball =
      static_cast<std::size_t>(TreeTraits<Tree>::kSphericalIndex[static_cast<std::size_t>(j)]);
  const auto& d = motion.q[0];
  const M3<S> r = M3<S>::from(motion.joint_rotation[ball]) *
                  rotation_exponential(V3<S>{d(entry), d(entry + 1), d(entry + 2)});
  const V3<S> c = V3<S>::from(model.joint_axis_point(j));
  const V3<S> c_world = parent.rotation * c + parent.translation;
  b.rotation = parent.rotation * r;
  b.translation = c_world - b.rotation * c;
  b.com[0] = b.rotation * V3<S>::from(model.com_from_axis_point(j)) + c_world;
  b.inertia[0] = model.home_inertia(j).congruence(b.rotation);
  auto& s = screw[ball];
  for (int i = 0; i < 3; ++i) {
    const V3<S> axis = b.rotation.col(i);
    s[static_cast<std::size_t>(i)][0] = {axis, cross(c_world, axis)};
  }
  for (int k = 0; k <= kinematic_order; ++k) {
    SV<S> v = parent.twist[k];
    for (int m = 0; m <= k; ++m)
      for (int i = 0; i < 3; ++i)
        v += (inverse_factorial<S>(k - m) *
              motion.q[static_cast<std::size_t>(k - m + 1)](entry + i)) *
             s[static_cast<std::size_t>(i)][static_cast<std::size_t>(m)];
    b.twist[k] = v;
    for (auto& si : s) {
      SV<S> sum{};
      for (int m = 0; m <= k; ++m) sum += ad(b.twist[m], si[static_cast<std::size_t>(k - m)]);
      si[static_cast<std::size_t>(k + 1)] = reciprocal<S>(k + 1) * sum;
    }
  }
}

/// A universal joint j's body and its two screws S₁, S₂ (`place_universal`),
/// and (k ≤ `kinematic_order`) the coefficients of the intermediate frame's
/// twist V_m = V_p + S₁ θ̇₁ and the child's V_j = V_m + S₂ θ̇₂, with
/// S₁,[k+1] = Σ_{m≤k} ad(V_p,[m], S₁,[k−m]) / (k+1) (S₁ turns with the
/// intermediate frame; ad_{S₁} S₁ = 0) and S₂,[k+1] the same with V_m (it
/// turns with the child, ad_{S₂} S₂ = 0): as in the kinematics.
template <class Tree, class Scalar, class Screws>
void place_and_move_universal(const Model<Tree, Scalar>& model, int j,
                              const MotionDerivatives<Tree, 1, Scalar>& motion, int kinematic_order,
                              const BodySeries<1, Scalar>& parent, BodySeries<1, Scalar>& b,
                              Screws& screw) {
  using S = Scalar;
  const int entry = TreeTraits<Tree>::joint_entry(j);
  const auto u =
      static_cast<std::size_t>(TreeTraits<Tree>::kUniversalIndex[static_cast<std::size_t>(j)]);
  auto& s1 = screw[u][0];
  auto& s2 = screw[u][1];
  place_universal(model, j, parent, motion.q[0](entry), motion.q[0](entry + 1), b, s1[0], s2[0]);
  std::array<SV<S>, 2> vm{};
  for (int k = 0; k <= kinematic_order; ++k) {
    const auto kk = static_cast<std::size_t>(k);
    SV<S> v = parent.twist[kk];
    for (int m = 0; m <= k; ++m)
      v += (inverse_factorial<S>(k - m) * motion.q[static_cast<std::size_t>(k - m + 1)](entry)) *
           s1[static_cast<std::size_t>(m)];
    vm[kk] = v;
    for (int m = 0; m <= k; ++m)
      v +=
          (inverse_factorial<S>(k - m) * motion.q[static_cast<std::size_t>(k - m + 1)](entry + 1)) *
          s2[static_cast<std::size_t>(m)];
    b.twist[kk] = v;
    SV<S> sum1{}, sum2{};
    for (int m = 0; m <= k; ++m) {
      sum1 += ad(parent.twist[static_cast<std::size_t>(m)], s1[static_cast<std::size_t>(k - m)]);
      sum2 += ad(vm[static_cast<std::size_t>(m)], s2[static_cast<std::size_t>(k - m)]);
    }
    s1[kk + 1] = reciprocal<S>(k + 1) * sum1;
    s2[kk + 1] = reciprocal<S>(k + 1) * sum2;
  }
}

/// Poses, screws and (when `motion` is given) the Taylor coefficients of
/// twists to `kinematic_order` and screws to `kinematic_order` + 1 (a tree of
/// 1-DoF joints).
template <class Tree, class Scalar>
void place_and_move(const Model<Tree, Scalar>& model,
                    std::array<BodySeries<1, Scalar>, Tree::kNumBodies>& body,
                    const Pose<Scalar>& base_pose,
                    const typename Model<Tree, Scalar>::JointVector& q,
                    const MotionDerivatives<Tree, 1, Scalar>* motion, int kinematic_order) {
  place_base(model, root_pose(model, base_pose), body[0]);
  if (motion != nullptr)
    for (int k = 0; k <= kinematic_order; ++k)
      body[0].twist[k] =
          inverse_factorial<Scalar>(k) * SV<Scalar>::from(root_twist<Tree>(motion->base_twist[k]));
  for_each_joint<Tree>([&](auto kind, int j) {
    constexpr JointKind K = decltype(kind)::value;
    auto& b = body[j];
    const auto& parent = body[Tree::kParent[j]];
    place_body<K>(model, j, parent, q(j - 1), b);
    if (motion == nullptr) return;
    const auto qd = [&](int n) -> Scalar {
      return inverse_factorial<Scalar>(n) * motion->q[n + 1](j - 1);
    };
    for (int k = 0; k <= kinematic_order; ++k) {
      if (k > 0) screw_coefficient<K>(k, b);
      twist_coefficient<K>(k, parent.twist[k], qd, b);
    }
    screw_coefficient<K>(kinematic_order + 1, b);
  });
}

/// The same for a tree with ball or universal joints: a 1-DoF joint reads
/// its entry of q (TreeTraits::joint_entry), a ball's body and three screws
/// come from place_and_move_ball (its screws into `ball_screw`), a universal
/// joint's body and two screws from place_and_move_universal (into
/// `universal_screw`).
template <class Tree, class Scalar, class BallScrews, class UniversalScrews>
void place_and_move_with_balls(const Model<Tree, Scalar>& model,
                               std::array<BodySeries<1, Scalar>, Tree::kNumBodies>& body,
                               const MotionDerivatives<Tree, 1, Scalar>& motion,
                               int kinematic_order, BallScrews& ball_screw,
                               UniversalScrews& universal_screw) {
  place_base(model, root_pose(model, motion.base_pose), body[0]);
  for (int k = 0; k <= kinematic_order; ++k)
    body[0].twist[k] =
        inverse_factorial<Scalar>(k) * SV<Scalar>::from(root_twist<Tree>(motion.base_twist[k]));
  for_each_joint<Tree>([&](auto kind, int j) {
    constexpr JointKind K = decltype(kind)::value;
    auto& b = body[j];
    const auto& parent = body[Tree::kParent[j]];
    if constexpr (is_spherical(K)) {
      place_and_move_ball(model, j, motion, kinematic_order, parent, b, ball_screw);
    } else if constexpr (is_universal(K)) {
      place_and_move_universal(model, j, motion, kinematic_order, parent, b, universal_screw);
    } else {
      const int entry = TreeTraits<Tree>::joint_entry(j);
      place_body<K>(model, j, parent, motion.q[0](entry), b);
      const auto qd = [&](int n) -> Scalar {
        return inverse_factorial<Scalar>(n) * motion.q[n + 1](entry);
      };
      for (int k = 0; k <= kinematic_order; ++k) {
        if (k > 0) screw_coefficient<K>(k, b);
        twist_coefficient<K>(k, parent.twist[k], qd, b);
      }
      screw_coefficient<K>(kinematic_order + 1, b);
    }
  });
}

HODYN_ISA_NAMESPACE_END
}  // namespace detail
HODYN_ISA_NAMESPACE_BEGIN

HODYN_ISA_NAMESPACE_END
namespace detail {
HODYN_ISA_NAMESPACE_BEGIN

/// Body j's spatial inertia in its joint frame on ten parameters: m, h = m c,
/// I about the frame origin, I_c − m [c]² = I_c + m ((c·c) 1 − c cᵀ), kept by
/// the model (Model::joint_frame_inertia; recomputing it was ~200 of ~3300
/// instructions a call on the baseline build, callgrind).
template <class Tree, class S>
HODYN_ALWAYS_INLINE CompositeInertia<S> body_inertia(const Model<Tree, S>& model, int j) {
  const S m = model.mass(j);
  const V3<S> c = V3<S>::from(model.local_com(j));
  return {m, m * c, model.joint_frame_inertia(j)};
}
template <class Tree, class S, std::size_t... Js>
HODYN_ALWAYS_INLINE std::array<CompositeInertia<S>, sizeof...(Js)> body_inertias(
    const Model<Tree, S>& model, std::index_sequence<Js...>) {
  return {body_inertia(model, static_cast<int>(Js))...};
}

/// Some joint of the tree needs its rotation as a matrix in the CRBA (not an
/// axis-aligned revolute joint, not a prismatic one).
template <class Tree>
inline constexpr bool kJointRotationMatrices = [] {
  for (int j = 1; j < Tree::kNumBodies; ++j) {
    const JointKind k = Tree::kJoint[j];
    if (!(is_prismatic(k) || (is_revolute(k) && aligned_axis(k) >= 0))) return true;
  }
  return false;
}();

/// Zeros M̄_lk for every pair of joint rows and columns whose bodies are not
/// on one path from the base (the entries the CRBA never writes).
template <class Tree, class Matrix>
HODYN_ALWAYS_INLINE void write_structural_zeros(Matrix& mm) {
  constexpr auto related = ancestor_table<Tree>();
  for_each_index<1, Tree::kNumBodies>([&](auto ic) {
    constexpr int i = decltype(ic)::value;
    for_each_index<i + 1, Tree::kNumBodies>([&](auto jc) {
      constexpr int j = decltype(jc)::value;
      if constexpr (!related[i][j]) {
        constexpr int ri = TreeTraits<Tree>::joint_dof(i), rj = TreeTraits<Tree>::joint_dof(j);
        for (int a = 0; a < joint_dofs(Tree::kJoint[i]); ++a)
          for (int b = 0; b < joint_dofs(Tree::kJoint[j]); ++b)
            mm(ri + a, rj + b) = mm(rj + b, ri + a) = typename Matrix::Scalar(0);
      }
    });
  });
}

/// x − x is 0 for finite x and NaN otherwise: one sum over all the values.
template <class S, class... Rest>
HODYN_ALWAYS_INLINE bool all_finite_values(const S& first, const Rest&... rest) {
  if constexpr (std::is_floating_point<S>::value)
    return ((first - first) + ... + (rest - rest)) == S(0);
  else
    return ScalarTraits<S>::is_finite(first) && (... && ScalarTraits<S>::is_finite(rest));
}

/// The CRBA of `mass_matrix` (below) at (base_pose, q) with the balls' R_j in
/// `ball_rotations` (empty without a ball).
///
/// Cost (issue 22, callgrind and Google Benchmark): the composite inertias
/// stay on their ten parameters and an axis-aligned revolute joint turns them
/// with rotated_about_axis (no rotation matrix, no congruence); a prismatic
/// one only shifts them. Each column F = M^C_j S_j is carried up with
/// component picks and S_iᵀ F read off at the ancestors; only the base rows
/// need the world frame, done for all columns at once as two 3 × 3 products
/// on a structure-of-arrays block (one column per lane).
template <class Tree, class Scalar, class BallRotations>
Status mass_matrix_at(const Model<Tree, Scalar>& model, EquationsOfMotionData<Tree, Scalar>& data,
                      const Pose<Scalar>& base_pose,
                      const typename Model<Tree, Scalar>::JointVector& q,
                      const BallRotations& ball_rotations) noexcept {
  using S = Scalar;
  constexpr int kBodies = Tree::kNumBodies;
  constexpr int kJointDofs = TreeTraits<Tree>::kNumJointDofs;
  constexpr int kBase = TreeTraits<Tree>::kBaseDofs;
  constexpr bool kFloating = !TreeTraits<Tree>::kFixedBase;
  auto& mm = data.result.mass_matrix;
  Status s = Status::kOk;
  if constexpr (kFloating) s = detail::check_pose(base_pose);
  if (s == Status::kOk && !detail::all_finite(q)) s = Status::kNonFiniteInput;
  if constexpr (TreeTraits<Tree>::kNumSphericalJoints > 0)
    if (s == Status::kOk) s = detail::check_joint_rotations(ball_rotations);
  if (s != Status::kOk) {
    mm.setZero();
    return s;
  }
  // Every entry is written once below: the structural zeros (neither joint an
  // ancestor of the other) here, the rest as computed.
  write_structural_zeros<Tree>(mm);
  // Composite inertias, rotations and offsets are locals, not workspace in
  // `data`: no store to M̄ can alias them, so they stay in registers across
  // the columns (measured faster). Rotation matrices only for the kinds that are
  // neither axis-aligned revolute nor prismatic.
  std::array<CompositeInertia<S>, kBodies> comp =
      body_inertias(model, std::make_index_sequence<static_cast<std::size_t>(kBodies)>{});
  std::array<M3<S>, kJointRotationMatrices<Tree> ? kBodies : 0> rot;
  // cos θ_j and sin θ_j of every joint in one vectorized batch (libm's calls
  // were a third of the call, perf), offsets once per call.
  auto& sc = data.joint_sine_cosine;
  sc.compute_joints([&](int j) {  // θ about the positive axis (a ball's δ_x: unused)
    return model.joint_sense(j) * q(TreeTraits<Tree>::joint_entry(j));
  });
  std::array<V3<S>, kBodies> offset;
  for_each_joint<Tree>([&](auto kind, int j) {
    constexpr JointKind K = decltype(kind)::value;
    const auto jj = static_cast<std::size_t>(j);
    const V3<S> e = V3<S>::from(model.joint_axis(j));
    offset[jj] = V3<S>::from(model.local_offset(j));
    if constexpr (is_spherical(K)) {  // X = T(d) R, R = R_j exp([δ]) (detail/ball_joint.hpp)
      const int entry = TreeTraits<Tree>::joint_entry(j);
      const auto ball = static_cast<std::size_t>(TreeTraits<Tree>::kSphericalIndex[jj]);
      rot[jj] = M3<S>::from(ball_rotations[ball]) *
                detail::rotation_exponential(V3<S>{q(entry), q(entry + 1), q(entry + 2)});
    } else if constexpr (is_universal(K)) {  // X = T(d) Rot(e₁, θ₁) Rot(e₂, θ₂)
      using std::cos;
      using std::sin;
      const S theta2 = q(TreeTraits<Tree>::joint_entry(j) + 1);
      rot[jj] = detail::axis_rotation<JointKind::kRevolute>(e, S(1), sc.cosine[jj], sc.sine[jj]) *
                detail::axis_rotation<JointKind::kRevolute>(V3<S>::from(model.joint_second_axis(j)),
                                                            S(1), S(cos(theta2)), S(sin(theta2)));
    } else if constexpr (joint_rotates(K)) {
      if constexpr (!(is_revolute(K) && aligned_axis(K) >= 0))
        rot[jj] = detail::axis_rotation<K>(e, S(1), sc.cosine[jj], sc.sine[jj]);
      if constexpr (is_helical(K)) offset[jj] += (model.joint_pitch(j) * sc.angle[jj]) * e;
    } else {
      offset[jj] += sc.angle[jj] * e;  // prismatic: d + e θ
    }
  });
  // M^C_p += X_j M^C_j (eq. 60 on ten parameters), leaves first.
  for_each_joint_reverse<Tree>([&](auto kind, int j) {
    constexpr JointKind K = decltype(kind)::value;
    const auto jj = static_cast<std::size_t>(j);
    auto& parent = comp[static_cast<std::size_t>(Tree::kParent[jj])];
    if constexpr (is_revolute(K) && aligned_axis(K) >= 0)
      parent += comp[jj]
                    .template rotated_about_axis<aligned_axis(K)>(sc.cosine[jj], sc.sine[jj])
                    .shifted(offset[jj]);
    else if constexpr (is_prismatic(K))
      parent += comp[jj].shifted(offset[jj]);
    else
      parent += comp[jj].in_parent(rot[jj], offset[jj]);
  });
  // Column j: f = M^C_j S_j in B_j, carried up the tree (Ad_{X_c}⁻ᵀ f = (R n + d × R f; R f)),
  // S_iᵀ f at each ancestor i; f in B_0 kept per column (structure of arrays,
  // base_rows[k][column]) for the world components below. Every ancestor and
  // joint kind is a compile-time constant: aligned axes rotate and project by
  // component picks, as in the articulated passes.
  // base_rows[6] holds the column's sign s_j.
  std::array<std::array<S, static_cast<std::size_t>(kFloating ? kJointDofs : 0)>, 7> base_rows;
  bool base_block_finite = true;
  S joint_block_check(0);  // Σ (v − v) over the joint block's computed entries: 0 iff finite
  const auto keep_base_row = [&](int column, const SV<S>& f, const S& sign) {
    if constexpr (kFloating) {
      const auto c = static_cast<std::size_t>(column - kBase);
      base_rows[0][c] = f.ang.x;
      base_rows[1][c] = f.ang.y;
      base_rows[2][c] = f.ang.z;
      base_rows[3][c] = f.lin.x;
      base_rows[4][c] = f.lin.y;
      base_rows[5][c] = f.lin.z;
      base_rows[6][c] = sign;
    } else {
      (void)column;
      (void)f;
      (void)sign;
    }
  };
  detail::for_each_index<1, kBodies>([&](auto jc) {
    constexpr int j = decltype(jc)::value;
    constexpr JointKind K = Tree::kJoint[j];
    constexpr int col = TreeTraits<Tree>::joint_dof(j);
    const auto& cj = comp[static_cast<std::size_t>(j)];
    if constexpr (is_spherical(K)) {
      // A ball's three columns: S = [1; 0] (6 × 3) in B_j, so M^C_j S_a = (I e_a; e_a × h)
      // and the diagonal block Sᵀ M^C_j S is I, the composite inertia about the centre.
      const S block[3][3] = {{cj.inertia.xx, cj.inertia.xy, cj.inertia.xz},
                             {cj.inertia.xy, cj.inertia.yy, cj.inertia.yz},
                             {cj.inertia.xz, cj.inertia.yz, cj.inertia.zz}};
      for (int a = 0; a < 3; ++a) {
        for (int b = 0; b < 3; ++b) {
          mm(col + a, col + b) = block[a][b];
          joint_block_check += block[a][b] - block[a][b];
        }
        const V3<S> ea{S(a == 0 ? 1 : 0), S(a == 1 ? 1 : 0), S(a == 2 ? 1 : 0)};
        SV<S> f{V3<S>{block[0][a], block[1][a], block[2][a]}, cross(ea, cj.first_moment)};
        detail::carry_column_to_root<Tree, j>(model, rot, offset, sc, f, [&](int row, const S& v) {
          mm(row, col + a) = v;
          mm(col + a, row) = v;
          joint_block_check += v - v;
        });
        keep_base_row(col + a, f, S(1));
      }
      return;
    }
    if constexpr (is_universal(K)) {
      // Two columns, S = [Rot₂ᵀ e₁, e₂] in B_j (Rot₂ᵀ e₁ = rotᵀ e₁: it turns
      // with θ₂), f_a = M^C_j (s_a; 0) = (I s_a; s_a × h); the diagonal block
      // S_aᵀ M^C_j S_b = s_a · I s_b.
      const V3<S> axes[2] = {
          rot[static_cast<std::size_t>(j)].transpose_times(V3<S>::from(model.joint_axis(j))),
          V3<S>::from(model.joint_second_axis(j))};
      SV<S> f[2] = {cj.template times_screw<JointKind::kRevolute>(axes[0]),
                    cj.template times_screw<JointKind::kRevolute>(axes[1])};
      // s₀ · I s₁ once, both entries a copy of it (s₁ · I s₀ rounds differently).
      const S d0 = dot(axes[0], f[0].ang), d1 = dot(axes[1], f[1].ang),
              off = dot(axes[0], f[1].ang);
      mm(col, col) = d0;
      mm(col + 1, col + 1) = d1;
      mm(col, col + 1) = mm(col + 1, col) = off;
      joint_block_check += (d0 - d0) + (d1 - d1) + (off - off);
      for (int a = 0; a < 2; ++a) {
        detail::carry_column_to_root<Tree, j>(model, rot, offset, sc, f[a],
                                              [&](int row, const S& v) {
                                                mm(row, col + a) = v;
                                                mm(col + a, row) = v;
                                                joint_block_check += v - v;
                                              });
        keep_base_row(col + a, f[a], S(1));
      }
      return;
    }
    // S_j = s_j (e; 0) or s_j (0; e): f is carried for the positive axis and
    // every entry takes the sign s_j = ±1 (exact) once.
    const V3<S> e = V3<S>::from(model.joint_axis(j));
    const S sense = model.joint_sense(j);
    SV<S> f = cj.template times_screw<K>(e, model.joint_pitch(j));  // M^C_j (e; 0) in frame j
    const S diagonal = detail::screw_dot<K>(e, f, detail::pitch_axis<K>(model, j));  // s_j² = 1
    mm(col, col) = diagonal;
    joint_block_check += diagonal - diagonal;
    detail::carry_column_to_root<Tree, j>(model, rot, offset, sc, f, [&](int row, const S& v) {
      mm(row, col) = mm(col, row) = sense * v;
      joint_block_check += v - v;
    });
    keep_base_row(col, f, sense);
  });
  if constexpr (kFloating) {
    // World frame of the base: P₀ = C₁ (A⁰_0)⁻¹.
    const Pose<S> p0 = detail::root_pose(model, base_pose) * model.base_home_pose_inverse();
    const M3<S> r0 = M3<S>::from(p0.rotation);
    const V3<S> x0 = V3<S>::from(p0.translation);
    // The base's composite inertia in the world (the frame B_0 sits at P₀), on
    // its ten parameters; as a 6 × 6 matrix [I [h]; −[h] m 1] (SpatialInertia::matrix).
    const auto w = comp[0].in_parent(r0, x0);
    const auto& i = w.inertia;
    const V3<S>& h = w.first_moment;
    base_block_finite =
        all_finite_values(w.mass, h.x, h.y, h.z, i.xx, i.yy, i.zz, i.xy, i.xz, i.yz);
    // Its upper triangle here; the lower one is copied from M̄ after the base
    // rows (below).
    mm(0, 0) = i.xx;
    mm(0, 1) = i.xy;
    mm(0, 2) = i.xz;
    mm(0, 3) = S(0);
    mm(0, 4) = -h.z;
    mm(0, 5) = h.y;
    mm(1, 1) = i.yy;
    mm(1, 2) = i.yz;
    mm(1, 3) = h.z;
    mm(1, 4) = S(0);
    mm(1, 5) = -h.x;
    mm(2, 2) = i.zz;
    mm(2, 3) = -h.y;
    mm(2, 4) = h.x;
    mm(2, 5) = S(0);
    mm(3, 3) = w.mass;
    mm(3, 4) = S(0);
    mm(3, 5) = S(0);
    mm(4, 4) = w.mass;
    mm(4, 5) = S(0);
    mm(5, 5) = w.mass;
    // Base rows: the world components Ad_{P₀}⁻ᵀ f = (R₀ n + x₀ × R₀ f; R₀ f) of
    // every column at once, one column per lane, both halves of M̄ written
    // here and their finiteness summed from registers: reading M̄ back (wide
    // loads of what scalar stores had just written) stalled store forwarding;
    // without it the call went ~290 → ~250 ns on x86-64 baseline and ~185 →
    // ~176 ns with AVX-512 (profiling driver).
    const auto& r = r0.a;
    std::array<S, static_cast<std::size_t>(kJointDofs)> base_row_check;
    for (int c = 0; c < kJointDofs; ++c) {
      const auto cc = static_cast<std::size_t>(c);
      const S sign = base_rows[6][cc];
      const S n0 = sign * base_rows[0][cc], n1 = sign * base_rows[1][cc],
              n2 = sign * base_rows[2][cc];
      const S f0 = sign * base_rows[3][cc], f1 = sign * base_rows[4][cc],
              f2 = sign * base_rows[5][cc];
      const S l0 = r[0] * f0 + r[1] * f1 + r[2] * f2;
      const S l1 = r[3] * f0 + r[4] * f1 + r[5] * f2;
      const S l2 = r[6] * f0 + r[7] * f1 + r[8] * f2;
      const S w0 = r[0] * n0 + r[1] * n1 + r[2] * n2 + (x0.y * l2 - x0.z * l1);
      const S w1 = r[3] * n0 + r[4] * n1 + r[5] * n2 + (x0.z * l0 - x0.x * l2);
      const S w2 = r[6] * n0 + r[7] * n1 + r[8] * n2 + (x0.x * l1 - x0.y * l0);
      mm(0, kBase + c) = mm(kBase + c, 0) = w0;
      mm(1, kBase + c) = mm(kBase + c, 1) = w1;
      mm(2, kBase + c) = mm(kBase + c, 2) = w2;
      mm(3, kBase + c) = mm(kBase + c, 3) = l0;
      mm(4, kBase + c) = mm(kBase + c, 4) = l1;
      mm(5, kBase + c) = mm(kBase + c, 5) = l2;
      base_row_check[cc] =
          ((w0 - w0) + (w1 - w1)) + ((w2 - w2) + (l0 - l0)) + ((l1 - l1) + (l2 - l2));
    }
    for (const S& v : base_row_check) joint_block_check += v;
    // M̄ = M̄ᵀ bit for bit (issue 21 item 5): each entry of the base block is
    // computed once and its mirror is a copy read back from M̄. Storing one
    // value twice is not enough: with FMA available (-march=native), g++ -O3's
    // SLP vectorizer recomputed i.xy in two vector lanes and the default
    // -ffp-contract=fast fused the two copies differently, (0,1) ≠ (1,0) by
    // an ulp. The signal fence is a compiler barrier only (no instruction):
    // the loads after it cannot be replaced by the expressions stored before it.
    std::atomic_signal_fence(std::memory_order_seq_cst);
    // (Written out: a loop over the triangle stayed a loop at -O2, +168
    // instructions a call; the structural zeros need no copy.)
    mm(1, 0) = mm(0, 1);
    mm(2, 0) = mm(0, 2);
    mm(4, 0) = mm(0, 4);
    mm(5, 0) = mm(0, 5);
    mm(2, 1) = mm(1, 2);
    mm(3, 1) = mm(1, 3);
    mm(5, 1) = mm(1, 5);
    mm(3, 2) = mm(2, 3);
    mm(4, 2) = mm(2, 4);
    mm(3, 0) = mm(4, 1) = mm(5, 2) = mm(4, 3) = mm(5, 3) = mm(5, 4) = S(0);
  }
  // Every computed entry is in the base block's ten parameters or in the sum:
  // finite iff M̄ is.
  if (!base_block_finite || !all_finite_values(joint_block_check)) {
    mm.setZero();
    return Status::kNonFiniteResult;
  }
  return Status::kOk;
}

HODYN_ISA_NAMESPACE_END
}  // namespace detail
HODYN_ISA_NAMESPACE_BEGIN

/// M̄ alone: the composite-rigid-body algorithm in the bodies' joint frames
/// (see detail/joint_frame_recursions.hpp), where every body inertia is
/// constant. Result in data.result.mass_matrix; ν = (V₁ spatial; q̇).
/// A tree with a ball joint needs the balls' rotations: the overload below
/// (a universal joint's θ₁, θ₂ are in q: both overloads take it).
template <class Tree, class Scalar>
Status mass_matrix(const Model<Tree, Scalar>& model, EquationsOfMotionData<Tree, Scalar>& data,
                   const Pose<Scalar>& base_pose,
                   const typename Model<Tree, Scalar>::JointVector& q) noexcept {
  static_assert(TreeTraits<Tree>::kNumSphericalJoints == 0,
                "mass_matrix of a tree with a ball joint takes the configuration as a "
                "MotionDerivatives (base_pose, q[0], joint_rotation)");
  return detail::mass_matrix_at(model, data, base_pose, q, std::array<Matrix3<Scalar>, 0>{});
}

/// M̄ at the configuration of `configuration`: base_pose, q[0] and, for ball
/// joints, joint_rotation (R = R_j exp([δ]), δ the ball's entries of q[0]);
/// its velocities and higher orders are not read. A ball's three rows and
/// columns are those of its ω (child frame). A `joint_rotation` that is not a
/// rotation, or not finite, gives kNonOrthonormalRotation / kNonFiniteInput
/// and a zero M̄.
template <class Tree, int MaxOrder, class Scalar>
Status mass_matrix(const Model<Tree, Scalar>& model, EquationsOfMotionData<Tree, Scalar>& data,
                   const MotionDerivatives<Tree, MaxOrder, Scalar>& configuration) noexcept {
  return detail::mass_matrix_at(model, data, configuration.base_pose, configuration.q[0],
                                configuration.joint_rotation);
}

/// All closed-form terms at the state of `motion` (base_pose, base_twist[0],
/// q[0], q[1]); with `with_rates`, also their first time derivatives, which
/// read base_twist[1] and q[2] (ν̇). `loads` (order ≤ 1 entries) may be null.
template <class Tree, class Scalar>
Status equations_of_motion(const Model<Tree, Scalar>& model,
                           EquationsOfMotionData<Tree, Scalar>& data,
                           const MotionDerivatives<Tree, 1, Scalar>& motion,
                           const ExternalLoads<Tree, 1, Scalar>* loads, bool with_rates) noexcept {
  constexpr int n = Tree::kNumBodies;
  constexpr int dofs = TreeTraits<Tree>::kNumDofs;
  auto& out = data.result;
  const int kin = with_rates ? 1 : 0;
  Status s = Status::kOk;
  if constexpr (!TreeTraits<Tree>::kFixedBase) {  // a fixed root ignores the base fields
    s = detail::check_pose(motion.base_pose);
    for (int k = 0; s == Status::kOk && k <= kin; ++k)
      if (!detail::all_finite(motion.base_twist[k])) s = Status::kNonFiniteInput;
  }
  for (int k = 0; s == Status::kOk && k <= kin + 1; ++k)
    if (!detail::all_finite(motion.q[k])) s = Status::kNonFiniteInput;
  if (s == Status::kOk && loads != nullptr)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k <= kin; ++k)
        if ((loads->has_world_wrench[j] && !detail::all_finite(loads->world_wrench[j][k])) ||
            (loads->has_body_wrench[j] && !detail::all_finite(loads->body_wrench[j][k])))
          s = Status::kNonFiniteInput;
  if constexpr (TreeTraits<Tree>::kNumSphericalJoints > 0)  // R_j of the balls
    if (s == Status::kOk) s = detail::check_joint_rotations(motion.joint_rotation);
  if (s != Status::kOk) {
    out.set_zero();
    return s;
  }
  if constexpr (!TreeTraits<Tree>::kSingleDofJoints)
    detail::place_and_move_with_balls(model, data.body, motion, kin, data.ball_screw,
                                      data.universal_screw);
  else
    detail::place_and_move<Tree, Scalar>(model, data.body, motion.base_pose, motion.q[0], &motion,
                                         kin);

  Wrench<Scalar> gravity_twist = Wrench<Scalar>::Zero();
  linear(gravity_twist) = model.gravity();
  for (int j = 0; j < n; ++j) {
    const auto& b = data.body[j];
    const Matrix6<Scalar> m = detail::spatial_inertia_matrix(model.mass(j), b.com[0], b.inertia[0]);
    const Twist<Scalar> v = b.twist[0].eigen();
    const Twist<Scalar> v_dot = b.twist[1].eigen();      // V_[1] = V̇
    const Matrix6<Scalar> y = m * ad_matrix<Scalar>(v);  // M ad_V
    data.composite_inertia[j] = m;
    data.composite_coriolis[j] = y.transpose();           // ad_Vᵀ M
    const Matrix6<Scalar> m_rate = -(y + y.transpose());  // Ṁ
    data.composite_inertia_rate[j] = m_rate;
    data.composite_coriolis_rate[j] =
        with_rates ? Matrix6<Scalar>(ad_matrix<Scalar>(v_dot).transpose() * m +
                                     ad_matrix<Scalar>(v).transpose() * m_rate)
                   : Matrix6<Scalar>::Zero();
    data.composite_applied[j].setZero();
    data.composite_applied_rate[j].setZero();
    if (loads != nullptr) {
      if (loads->has_world_wrench[j]) {
        data.composite_applied[j] += loads->world_wrench[j][0];
        data.composite_applied_rate[j] += loads->world_wrench[j][1];
      }
      if (loads->has_body_wrench[j]) {
        std::array<detail::SV<Scalar>, 2> applied{};
        detail::applied_wrench_coefficients(model, *loads, j, kin, b, applied);
        // the world-frame part was added above; applied[] holds world + body parts
        if (loads->has_world_wrench[j]) {
          applied[0] -= detail::SV<Scalar>::from(loads->world_wrench[j][0]);
          applied[1] -= detail::SV<Scalar>::from(loads->world_wrench[j][1]);
        }
        data.composite_applied[j] += applied[0].eigen();
        if (with_rates)
          data.composite_applied_rate[j] += applied[1].eigen();  // coefficient 1 = rate
      }
    }
  }
  for_each_joint_reverse<Tree>([&](auto, int j) {
    const int p = Tree::kParent[j];
    data.composite_inertia[p] += data.composite_inertia[j];
    data.composite_coriolis[p] += data.composite_coriolis[j];
    data.composite_inertia_rate[p] += data.composite_inertia_rate[j];
    data.composite_coriolis_rate[p] += data.composite_coriolis_rate[j];
    data.composite_applied[p] += data.composite_applied[j];
    data.composite_applied_rate[p] += data.composite_applied_rate[j];
  });

  // Screws of the generalized velocities: unit twists for the base, S_j for joints.
  // S^(k) = k! S_[k]: the screw, its rate and its second derivative.
  // A ball's three entries of ν have its three screws S_x, S_y, S_z, a
  // universal joint's two its S₁, S₂.
  const auto screw = [&](int l, int order) -> Twist<Scalar> {
    if (l < TreeTraits<Tree>::kBaseDofs)
      return order == 0 ? Twist<Scalar>(Twist<Scalar>::Unit(l)) : Twist<Scalar>::Zero();
    if constexpr (TreeTraits<Tree>::kNumSphericalJoints > 0) {
      const int body = TreeTraits<Tree>::dof_body(l);
      const int ball = TreeTraits<Tree>::kSphericalIndex[static_cast<std::size_t>(body)];
      if (ball >= 0)
        return detail::factorial<Scalar>(order) *
               data.ball_screw[static_cast<std::size_t>(ball)][static_cast<std::size_t>(
                   l - TreeTraits<Tree>::joint_dof(body))][static_cast<std::size_t>(order)]
                   .eigen();
    }
    if constexpr (TreeTraits<Tree>::kNumUniversalJoints > 0) {
      const int body = TreeTraits<Tree>::dof_body(l);
      const int u = TreeTraits<Tree>::kUniversalIndex[static_cast<std::size_t>(body)];
      if (u >= 0)
        return detail::factorial<Scalar>(order) *
               data.universal_screw[static_cast<std::size_t>(u)][static_cast<std::size_t>(
                   l - TreeTraits<Tree>::joint_dof(body))][static_cast<std::size_t>(order)]
                   .eigen();
    }
    return detail::factorial<Scalar>(order) *
           data.body[TreeTraits<Tree>::dof_body(l)].screw[order].eigen();
  };
  constexpr auto related = detail::ancestor_table<Tree>();
  for (int l = 0; l < dofs; ++l) {
    const int bl = TreeTraits<Tree>::dof_body(l);
    const Twist<Scalar> sl = screw(l, 0), sl_dot = screw(l, 1);
    out.gravity(l) = -sl.dot(data.composite_inertia[bl] * gravity_twist);
    out.applied(l) = -sl.dot(data.composite_applied[bl]);
    if (with_rates) {
      out.gravity_rate(l) = -sl_dot.dot(data.composite_inertia[bl] * gravity_twist) -
                            sl.dot(data.composite_inertia_rate[bl] * gravity_twist);
      out.applied_rate(l) =
          -sl_dot.dot(data.composite_applied[bl]) - sl.dot(data.composite_applied_rate[bl]);
    }
    for (int i = 0; i < dofs; ++i) {
      const int bi = TreeTraits<Tree>::dof_body(i);
      if (!related[bl][bi] && !related[bi][bl]) {
        out.mass_matrix(l, i) = out.coriolis_matrix(l, i) = Scalar(0);
        out.mass_matrix_rate(l, i) = out.coriolis_matrix_rate(l, i) = Scalar(0);
        continue;
      }
      const int d = related[bl][bi] ? bi : bl;  // the deeper body
      const Matrix6<Scalar>& mc = data.composite_inertia[d];
      const Matrix6<Scalar>& pc = data.composite_coriolis[d];
      const Twist<Scalar> si = screw(i, 0), si_dot = screw(i, 1);
      const Wrench<Scalar> mc_si = mc * si;
      const Wrench<Scalar> c_col = mc * si_dot - pc * si;
      out.mass_matrix(l, i) = sl.dot(mc_si);
      out.coriolis_matrix(l, i) = sl.dot(c_col);
      if (with_rates) {
        const Matrix6<Scalar>& mc_rate = data.composite_inertia_rate[d];
        const Matrix6<Scalar>& pc_rate = data.composite_coriolis_rate[d];
        const Twist<Scalar> si_ddot = screw(i, 2);
        out.mass_matrix_rate(l, i) = sl_dot.dot(mc_si) + sl.dot(mc_rate * si) + sl.dot(mc * si_dot);
        out.coriolis_matrix_rate(l, i) =
            sl_dot.dot(c_col) +
            sl.dot(mc_rate * si_dot + mc * si_ddot - pc_rate * si - pc * si_dot);
      }
    }
  }
  using Vector = typename EquationsOfMotion<Tree, Scalar>::Vector;
  Vector nu, nu_dot;
  constexpr int kBase = TreeTraits<Tree>::kBaseDofs;
  if constexpr (kBase > 0) nu.template head<kBase>() = motion.base_twist[0];
  nu.template tail<dofs - kBase>() = motion.q[1];
  out.coriolis = out.coriolis_matrix * nu;
  if (with_rates) {
    if constexpr (kBase > 0) nu_dot.template head<kBase>() = motion.base_twist[1];
    nu_dot.template tail<dofs - kBase>() = motion.q[2];
    out.coriolis_rate = out.coriolis_matrix_rate * nu + out.coriolis_matrix * nu_dot;
  } else {
    out.mass_matrix_rate.setZero();
    out.coriolis_matrix_rate.setZero();
    out.coriolis_rate.setZero();
    out.gravity_rate.setZero();
    out.applied_rate.setZero();
  }
  if (!detail::all_finite(out.mass_matrix) || !detail::all_finite(out.coriolis_matrix) ||
      !detail::all_finite(out.coriolis_rate) || !detail::all_finite(out.mass_matrix_rate)) {
    out.set_zero();
    return Status::kNonFiniteResult;
  }
  return Status::kOk;
}

/// All closed-form terms without applied wrenches.
template <class Tree, class Scalar>
Status equations_of_motion(const Model<Tree, Scalar>& model,
                           EquationsOfMotionData<Tree, Scalar>& data,
                           const MotionDerivatives<Tree, 1, Scalar>& motion,
                           bool with_rates) noexcept {
  return equations_of_motion(
      model, data, motion, static_cast<const ExternalLoads<Tree, 1, Scalar>*>(nullptr), with_rates);
}

HODYN_ISA_NAMESPACE_END
}  // namespace hodyn
