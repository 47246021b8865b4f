// hodyn/forward_dynamics.hpp — higher-order forward dynamics of a floating-base
// tree (H-GABI-FBS, seed 000 Alg. 3, Lemma 2) and its hybrid generalization
// (H-GHYB-FBS, Alg. 4).
//
// Forward dynamics of order r: given the state (base pose C₁, base twist V₁,
// q, q̇) and the derivatives 0..r of the propulsion wrench (world frame Q₁^(k),
// or base frame dᵏ/dtᵏ(Ad_C₁ᵀ Q₁)) and of the joint torques τ^(k), compute
// V₁^(k+1) and q^(k+2) for every k = 0..r. A fixed-base tree (root welded to
// the world, JointKind::kFixedBase) ignores the base fields of the input: its
// root is at rest at its mount, and base_wrench returns the wrench the mount
// exerts on it (as hybrid dynamics does for a base whose motion is given).
//
// Everything runs in body-fixed joint frames (detail/joint_frame_articulated.hpp,
// the frames of the inverse dynamics), not in the paper's world frame. The
// articulated inertias M^A_j (eq. 23), the joint scalars D_j = s_jᵀ M^A_j s_j
// and the Schur-complement inverse blocks of the base's M^A are computed once and reused at every
// order (Lemma 2); each order only runs a bias pass, a backward pass (eqs.
// 24-25, with W^A_{j,r} read as the order-r bias, digest erratum E9) and a
// forward pass (eq. 26), and the kinematics of the next order follow from the
// solved accelerations (erratum E10). The joint wrenches of lower orders are
// stored for the biases of the higher ones.
//
// Hybrid dynamics (Alg. 4): any subset of joints has prescribed accelerations
// and their derivatives q^(k+2); the others have prescribed torques. The base
// is driven either by its wrench or by prescribed V₁^(k+1). The outputs then
// also hold the torques of the prescribed joints and the base wrench.
//
// No heap, no exceptions; bad input or a singular articulated inertia gives a
// Status and zero outputs.
#pragma once

#include <array>
#include <cmath>
#include <limits>
#include <type_traits>

#include "hodyn/detail/applied_loads.hpp"
#include "hodyn/detail/compile_time.hpp"
#include "hodyn/detail/isa.hpp"
#include "hodyn/detail/joint_frame_articulated.hpp"
#include "hodyn/detail/joint_frame_recursions.hpp"
#include "hodyn/detail/moving_frame.hpp"
#include "hodyn/detail/root_motion.hpp"
#include "hodyn/detail/series_recursions.hpp"
#include "hodyn/detail/small_algebra.hpp"
#include "hodyn/detail/validation.hpp"
#include "hodyn/model.hpp"
#include "hodyn/motion.hpp"
#include "hodyn/status.hpp"
#include "hodyn/tree.hpp"

namespace hodyn {
HODYN_ISA_NAMESPACE_BEGIN

/// In which frame a propulsion-wrench input is given.
enum class WrenchFrame : std::uint8_t {
  kWorld,  ///< spatial Q₁^(k): world axes, moment about the world origin
  kBase,   ///< dᵏ/dtᵏ (Ad_C₁ᵀ Q₁): base-frame components (what propellers produce)
};

/// Inputs of forward dynamics of order r (entries 0..r of the derivative lists).
template <class Tree, int MaxOrder, class Scalar = double>
struct ForwardDynamicsInput {
  using JointVector = typename Model<Tree, Scalar>::JointVector;
  Pose<Scalar> base_pose{};                          ///< C₁
  Twist<Scalar> base_twist = Twist<Scalar>::Zero();  ///< V₁ (spatial)
  JointVector q = JointVector::Zero();               ///< q (a ball: δ, motion.hpp)
  JointVector q_dot = JointVector::Zero();           ///< q̇ (a ball: ω, child frame)
  /// R_j of every ball joint (motion.hpp); empty for a tree without one.
  std::array<Matrix3<Scalar>, TreeTraits<Tree>::kNumSphericalJoints> joint_rotation{};
  WrenchFrame base_wrench_frame = WrenchFrame::kWorld;
  std::array<Wrench<Scalar>, MaxOrder + 1> base_wrench{};  ///< propulsion wrench derivatives
  std::array<JointVector, MaxOrder + 1> joint_torque{};    ///< τ^(k)

  ForwardDynamicsInput() {
    for (auto& w : base_wrench) w.setZero();
    for (auto& t : joint_torque) t.setZero();
    for (auto& r : joint_rotation) r.setIdentity();
  }
};

/// How the base is driven in hybrid dynamics.
enum class BaseInput : std::uint8_t {
  kWrench,  ///< base_wrench given (as in forward dynamics), V₁^(k+1) computed
  kMotion,  ///< base_acceleration V₁^(k+1) given, base wrench Q₁^(k) computed
};

/// Inputs of hybrid dynamics: those of forward dynamics plus the prescribed motions.
template <class Tree, int MaxOrder, class Scalar = double>
struct HybridDynamicsInput : ForwardDynamicsInput<Tree, MaxOrder, Scalar> {
  using JointVector = typename Model<Tree, Scalar>::JointVector;
  static constexpr int kNumJoints = Tree::kNumBodies - 1;
  BaseInput base_input = BaseInput::kWrench;
  std::array<Twist<Scalar>, MaxOrder + 1> base_acceleration{};  ///< V₁^(k+1), k = 0..r
  /// Joint j (entry j−1) true: its q^(k+2) is prescribed in joint_acceleration;
  /// false: its torque τ^(k) is prescribed in joint_torque.
  std::array<bool, (kNumJoints > 0 ? kNumJoints : 1)> motion_prescribed{};
  std::array<JointVector, MaxOrder + 1> joint_acceleration{};  ///< q^(k+2), k = 0..r

  HybridDynamicsInput() {
    for (auto& v : base_acceleration) v.setZero();
    for (auto& a : joint_acceleration) a.setZero();
  }
};

/// Workspace and results of forward and hybrid dynamics.
template <class Tree, int MaxOrder, class Scalar = double>
struct ForwardDynamicsData {
  static constexpr int kNumBodies = Tree::kNumBodies;
  using JointVector = typename Model<Tree, Scalar>::JointVector;

  // ---- results, valid for the order of the last successful call ----
  /// The state and its derivatives: base_twist[k] = V₁^(k) for k = 0..r+1 and
  /// q[k] = q^(k) for k = 0..r+2 (entries 0 and 0, 1 are the input state).
  MotionDerivatives<Tree, MaxOrder, Scalar> motion{};
  /// Q₁^(k), world frame: the input converted, or (hybrid, base motion given) computed.
  std::array<Wrench<Scalar>, MaxOrder + 1> base_wrench{};
  /// τ^(k): the input torques, and (hybrid) the torques of the prescribed joints.
  std::array<JointVector, MaxOrder + 1> joint_torque{};
  /// Order of the last successful call; −1 before one and after a failed one.
  /// The articulated inertias of that call: `articulated_inertia(data, j, M)`.
  int order = -1;

  // ---- workspace (Taylor coefficients in joint frames, i.e. /k!) ----
  detail::ArticulatedWorkspace<Tree, MaxOrder, Scalar> workspace{};

  ForwardDynamicsData() { clear_results(); }
  void clear_results() {
    motion = MotionDerivatives<Tree, MaxOrder, Scalar>{};
    for (auto& w : base_wrench) w.setZero();
    for (auto& t : joint_torque) t.setZero();
    order = -1;
  }
};

template <class Tree, int MaxOrder, class Scalar = double>
using HybridDynamicsData = ForwardDynamicsData<Tree, MaxOrder, Scalar>;

/// The top order r of `forward_inverse_dynamics`: the motion is given there
/// and the forces are computed (inverse dynamics), where the orders below r
/// are forward dynamics.
template <class Tree, class Scalar = double>
struct InverseTopOrder {
  using JointVector = typename Model<Tree, Scalar>::JointVector;
  // ---- inputs ----
  Twist<Scalar> base_acceleration = Twist<Scalar>::Zero();  ///< V₁^(r+1), spatial (floating base)
  JointVector joint_acceleration = JointVector::Zero();     ///< q^(r+2) (a ball: ω^(r+1))
  // ---- options (a real-time caller's savings; the defaults do everything) ----
  /// false: the world-frame base wrenches (data.base_wrench[0..r] but a
  /// world-frame input's copy, and base_wrench below) are not formed and read
  /// zero. A caller that works in the base frame, as propellers do, skips
  /// their conversion at every order.
  bool world_base_wrench = true;
  /// false: the caller vouches for the input — finite, the base rotation a
  /// rotation, the balls' too — because it checked what it built the input
  /// from (the controller checks its measurement). The order is still
  /// checked, the results are still checked for finiteness.
  bool check_input = true;
  // ---- results ----
  Wrench<Scalar> base_wrench = Wrench<Scalar>::Zero();       ///< Q₁^(r), world
  Wrench<Scalar> base_wrench_body = Wrench<Scalar>::Zero();  ///< dʳ/dtʳ (Ad_C₁ᵀ Q₁), base frame
  JointVector joint_torque = JointVector::Zero();            ///< τ^(r)
};

HODYN_ISA_NAMESPACE_END
namespace detail {
HODYN_ISA_NAMESPACE_BEGIN

template <class Tree, int MaxOrder, class Scalar>
Status check_forward_input(const ForwardDynamicsInput<Tree, MaxOrder, Scalar>& in,
                           const HybridDynamicsInput<Tree, MaxOrder, Scalar>* hybrid,
                           const ExternalLoads<Tree, MaxOrder, Scalar>* loads, int order) {
  if (order < 0 || order > MaxOrder) return Status::kOrderOutOfRange;
  constexpr bool kFloating = !TreeTraits<Tree>::kFixedBase;  // a fixed root ignores the base fields
  if constexpr (kFloating) {
    const Status pose = check_pose(in.base_pose);
    if (pose != Status::kOk) return pose;
    if (!all_finite(in.base_twist)) return Status::kNonFiniteInput;
  }
  if (!all_finite(in.q) || !all_finite(in.q_dot)) return Status::kNonFiniteInput;
  const Status rotations = check_joint_rotations(in.joint_rotation);  // ball joints
  if (rotations != Status::kOk) return rotations;
  for (int k = 0; k <= order; ++k) {
    if (!all_finite(in.joint_torque[k])) return Status::kNonFiniteInput;
    if (kFloating && (hybrid == nullptr || hybrid->base_input == BaseInput::kWrench) &&
        !all_finite(in.base_wrench[k]))
      return Status::kNonFiniteInput;
    if (hybrid != nullptr) {
      if (kFloating && hybrid->base_input == BaseInput::kMotion &&
          !all_finite(hybrid->base_acceleration[k]))
        return Status::kNonFiniteInput;
      if (!all_finite(hybrid->joint_acceleration[k])) return Status::kNonFiniteInput;
    }
  }
  if (loads != nullptr && !loads_finite(*loads, order)) return Status::kNonFiniteInput;
  return Status::kOk;
}

/// The Newton–Euler terms of f_[k] that do not contain ã_[k] (joint frame,
/// centre of mass c and rotational inertia I constant):
///   lin = m Σ_i ω_[i] × (v + ω × c)_[k−i],   ang = Σ_i ω_[i] × (I ω)_[k−i] + c × lin.
template <int MaxOrder, class S>
HODYN_ALWAYS_INLINE SV<S> own_bias(int k, const ArticulatedBody<MaxOrder, S>& b, const S& mass,
                                   const V3<S>& com) {
  V3<S> lin = cross(b.twist[0].ang, b.com_velocity[k]);
  V3<S> ang = cross(b.twist[0].ang, b.spin[k]);
  for (int i = 1; i <= k; ++i) {
    lin += cross(b.twist[i].ang, b.com_velocity[k - i]);
    ang += cross(b.twist[i].ang, b.spin[k - i]);
  }
  lin = mass * lin;
  return {ang + cross(com, lin), lin};
}

/// M^A_j x: the 6×6 product, or on a scalar target (no SIMD lanes: Cortex-M)
/// for a leaf, whose M^A_j is its rigid inertia, the rigid body's — about half
/// the multiplications and a third of the loads there (−191 instructions per
/// step on the M7), but slower where the 6×6 product is vectorized (forward
/// dynamics of order 1 +8 % on AVX-512).
template <class Tree, class S, class Bodies>
HODYN_ALWAYS_INLINE SV<S> articulated_times(const Model<Tree, S>& model, const Bodies& body, int j,
                                            const SV<S>& x) {
  if constexpr (HODYN_COEFFICIENT_LANE_BYTES == 0) {
    if (TreeTraits<Tree>::kLeaf[static_cast<std::size_t>(j)])
      return rigid_inertia_times(model.mass(j), V3<S>::from(model.local_com(j)),
                                 model.home_inertia(j), x);
  } else {
    (void)model;
  }
  return body[static_cast<std::size_t>(j)].inertia * x;
}

/// The momentum factors of level k of the Newton–Euler sums.
template <int MaxOrder, class S>
HODYN_ALWAYS_INLINE void momentum_factors(int k, ArticulatedBody<MaxOrder, S>& b, const V3<S>& com,
                                          const Sym3<S>& inertia) {
  b.com_velocity[k] = b.twist[k].lin + cross(b.twist[k].ang, com);
  b.spin[k] = inertia * b.twist[k].ang;
}

/// U_j = M^A_j s_j: a column of M^A_j for an axis-aligned screw.
template <JointKind K, class S>
HODYN_ALWAYS_INLINE SV<S> inertia_times_screw(const Inertia6<S>& m, const V3<S>& e) {
  constexpr int a = aligned_axis(K);
  if constexpr (a >= 0) {
    if constexpr (is_revolute(K))
      return {m.a.col(a), {m.b.a[3 * a], m.b.a[3 * a + 1], m.b.a[3 * a + 2]}};
    else
      return {m.b.col(a), m.c.col(a)};
  } else {
    if constexpr (is_revolute(K))
      return {m.a * e, m.b.transpose_times(e)};
    else
      return {m.b * e, m.c * e};
  }
}
/// U_j = M^A_j (e; h e) for a helical joint (`he` = h e).
template <class S>
HODYN_ALWAYS_INLINE SV<S> inertia_times_helical_screw(const Inertia6<S>& m, const V3<S>& e,
                                                      const V3<S>& he) {
  return {m.a * e + m.b * he, m.b.transpose_times(e) + m.c * he};
}

/// ã_0,[k] = (Ad_{P_0}⁻¹ (V̇₁ − G))_[k] from the world series in ws.base_input
/// (hybrid dynamics with the base motion given; call for k = 0, 1, …).
template <class Tree, int MaxOrder, class S>
SV<S> base_acceleration_in_frame(int k, ArticulatedWorkspace<Tree, MaxOrder, S>& ws) {
  if (k < 0 || k > MaxOrder) return {};  // (never; keeps GCC 12's -Warray-bounds quiet)
  return twist_in_frame(k, ws.base_frame.rotation, ws.base_frame.origin, ws.base_input, ws.scratch);
}

/// Order 0, once for all orders (Lemma 2): the joint-frame twists, the
/// articulated inertias M^A_j, U_j, D_j⁻¹ and the factor of the base's M^A.
/// Returns false when a joint inertia D_j or the base's M^A is singular.
/// kVelocities = false (M̄⁻¹, which depends on the configuration only) skips
/// the twists and momenta of the 1-DoF joints and the base.
template <bool kHybrid, bool kVelocities = true, class Tree, int MaxOrder, class Scalar>
bool articulated_inertias(const Model<Tree, Scalar>& model,
                          ForwardDynamicsData<Tree, MaxOrder, Scalar>& data,
                          const ForwardDynamicsInput<Tree, MaxOrder, Scalar>& in,
                          const HybridDynamicsInput<Tree, MaxOrder, Scalar>* hybrid,
                          bool factor_base, bool need_gravity) {
  using S = Scalar;
  using Traits = ScalarTraits<S>;
  using Primal = decltype(Traits::primal(S(0)));
  auto& ws = data.workspace;
  auto& body = ws.body;
  {
    const Pose<S> p0 = model.base_home_is_identity()
                           ? root_pose(model, in.base_pose)
                           : root_pose(model, in.base_pose) * model.base_home_pose_inverse();
    const M3<S> r0 = M3<S>::from(p0.rotation);
    const V3<S> x0 = V3<S>::from(p0.translation);
    ws.base_frame.start(r0, x0);
    auto& b = body[0];
    if constexpr (kVelocities) {
      const SV<S> v = SV<S>::from(root_twist<Tree>(in.base_twist));
      ws.base_twist[0] = v;
      b.twist[0] = {r0.transpose_times(v.ang), r0.transpose_times(v.lin - cross(x0, v.ang))};
    }
    if (need_gravity) b.gravity[0] = r0.transpose_times(V3<S>::from(model.gravity()));
    const V3<S> com = V3<S>::from(model.local_com(0));
    if constexpr (kVelocities) momentum_factors(0, b, com, model.home_inertia(0));
    set_rigid_inertia(b.inertia, model.mass(0), com, model.home_inertia(0));
  }
  // Internally θ_j = s_j q_j about the positive axis (s_j: joint sense, model.hpp).
  ws.joint_sine_cosine.compute(
      [&](int j) { return model.joint_sense(j) * in.q(TreeTraits<Tree>::joint_entry(j)); });
  for_each_joint<Tree>([&](auto kind, int j) {
    constexpr JointKind K = decltype(kind)::value;
    auto& b = body[j];
    const auto& parent = body[Tree::kParent[j]];
    const V3<S> d = V3<S>::from(model.local_offset(j));
    const V3<S> e = V3<S>::from(model.joint_axis(j));
    const int entry = TreeTraits<Tree>::joint_entry(j);
    if constexpr (is_spherical(K)) {  // X = T(d) R, R = R_j exp([δ]); v = Rᵀ offset(v_p) + (ω; 0)
      const auto index = static_cast<std::size_t>(ball_index<Tree>(j));
      auto& bl = ws.ball[index];
      bl.rotation[0] = M3<S>::from(in.joint_rotation[index]) *
                       rotation_exponential(V3<S>{in.q(entry), in.q(entry + 1), in.q(entry + 2)});
      bl.rate[0] = V3<S>{in.q_dot(entry), in.q_dot(entry + 1), in.q_dot(entry + 2)};
      if (need_gravity) b.gravity[0] = bl.rotation[0].transpose_times(parent.gravity[0]);
      b.twist[0] = ball_twist_to_child(bl, d, parent.twist[0]);
      b.twist[0].ang += bl.rate[0];
      const V3<S> com = V3<S>::from(model.local_com(j));
      momentum_factors(0, b, com, model.home_inertia(j));
      set_rigid_inertia(b.inertia, model.mass(j), com, model.home_inertia(j));
      return;
    } else if constexpr (is_universal(K)) {
      // Two revolute steps through the intermediate frame m (no body there):
      // v_m = Rot₁ᵀ offset(v_p) + (e₁ θ̇₁; 0), v = Rot₂ᵀ v_m + (e₂ θ̇₂; 0).
      using std::cos;
      using std::sin;
      constexpr JointKind R = JointKind::kRevolute;
      auto& un = ws.universal[static_cast<std::size_t>(universal_index<Tree>(j))];
      const V3<S> e2 = V3<S>::from(model.joint_second_axis(j));
      b.q[0] = model.joint_sense(j) * in.q(entry);
      b.rate[0] = model.joint_sense(j) * in.q_dot(entry);
      b.cos_q[0] = ws.joint_sine_cosine.cosine[static_cast<std::size_t>(j)];
      b.sin_q[0] = ws.joint_sine_cosine.sine[static_cast<std::size_t>(j)];
      un.q2[0] = in.q(entry + 1);
      un.rate2[0] = in.q_dot(entry + 1);
      un.cos2[0] = S(cos(un.q2[0]));
      un.sin2[0] = S(sin(un.q2[0]));
      if (need_gravity) {
        un.gravity_m[0] = axis_rotate<R, true, true>(e, b.cos_q[0], b.sin_q[0], parent.gravity[0]);
        b.gravity[0] = axis_rotate<R, true, true>(e2, un.cos2[0], un.sin2[0], un.gravity_m[0]);
      }
      SV<S> vm = twist_to_child<R>(b, d, e, parent.twist[0]);
      vm.ang += b.rate[0] * e;
      un.twist_m[0] = vm;
      b.twist[0] = universal_twist_to_child(un, e2, vm);
      b.twist[0].ang += un.rate2[0] * e2;
      const V3<S> com = V3<S>::from(model.local_com(j));
      momentum_factors(0, b, com, model.home_inertia(j));
      set_rigid_inertia(b.inertia, model.mass(j), com, model.home_inertia(j));
      return;
    }
    b.q[0] = model.joint_sense(j) * in.q(entry);
    b.rate[0] = model.joint_sense(j) * in.q_dot(entry);
    if constexpr (is_helical(K)) b.pitch = model.joint_pitch(j);
    if constexpr (joint_rotates(K)) {
      b.cos_q[0] = ws.joint_sine_cosine.cosine[static_cast<std::size_t>(j)];
      b.sin_q[0] = ws.joint_sine_cosine.sine[static_cast<std::size_t>(j)];
      if (need_gravity)
        b.gravity[0] = axis_rotate<K, true, true>(e, b.cos_q[0], b.sin_q[0], parent.gravity[0]);
    } else {
      if (need_gravity) b.gravity[0] = parent.gravity[0];
    }
    if constexpr (kVelocities) {
      b.twist[0] = twist_to_child<K>(b, d, e, parent.twist[0]);
      add_screw<K>(e, b.rate[0], b.twist[0], pitch_axis<K>(model, j));
    }
    const V3<S> com = V3<S>::from(model.local_com(j));
    if constexpr (kVelocities) momentum_factors(0, b, com, model.home_inertia(j));
    set_rigid_inertia(b.inertia, model.mass(j), com, model.home_inertia(j));
  });
  bool singular = false;
  for_each_joint_reverse<Tree>([&](auto kind, int j) {
    constexpr JointKind K = decltype(kind)::value;
    auto& b = body[j];
    auto& parent = body[Tree::kParent[j]];
    const V3<S> d = V3<S>::from(model.local_offset(j));
    const V3<S> e = V3<S>::from(model.joint_axis(j));
    if constexpr (is_spherical(K)) {
      // U = M^A S = [A; Bᵀ], D = A: the reduced inertia M^A − U D⁻¹ Uᵀ keeps
      // only C − Bᵀ A⁻¹ B (a ball passes forces, no moments), then R and d.
      auto& bl = ws.ball[static_cast<std::size_t>(ball_index<Tree>(j))];
      bool torque_driven = true;
      if constexpr (kHybrid) torque_driven = !hybrid->motion_prescribed[j - 1];
      Inertia6<S> carried = b.inertia;
      if (torque_driven) {
        const Primal tiny =
            Traits::primal(b.inertia.trace()) * std::numeric_limits<Primal>::epsilon() * 64;
        if (!invert_positive_definite(b.inertia.a, tiny, bl.inverse_d)) {
          singular = true;
          return;
        }
        const M3<S> ab = bl.inverse_d * b.inertia.b;  // A⁻¹ B
        for (int i = 0; i < 3; ++i)
          for (int c = 0; c < 3; ++c) {
            S x = b.inertia.c.a[3 * i + c];
            for (int l = 0; l < 3; ++l) x -= b.inertia.b.a[3 * l + i] * ab.a[3 * l + c];
            carried.c.a[3 * i + c] = x;
          }
        carried.a = M3<S>{};
        carried.b = M3<S>{};
      }
      M3<S> t;
      rotate_general(carried.a, bl.rotation[0], t);
      carried.a = t;
      rotate_general(carried.b, bl.rotation[0], t);
      carried.b = t;
      rotate_general(carried.c, bl.rotation[0], t);
      carried.c = t;
      translate_inertia(carried, d);
      parent.inertia += carried;
      return;
    } else if constexpr (is_universal(K)) {
      // Across θ₂ in the child's frame (U₂ = M^A_j s₂, D₂), rotated into m
      // (M^A_m), across θ₁ there (U₁ = M^A_m s₁, D₁), carried by Rot₁ and d.
      constexpr JointKind R = JointKind::kRevolute;
      auto& un = ws.universal[static_cast<std::size_t>(universal_index<Tree>(j))];
      const V3<S> e2 = V3<S>::from(model.joint_second_axis(j));
      bool torque_driven = true;
      if constexpr (kHybrid) torque_driven = !hybrid->motion_prescribed[j - 1];
      const SV<S> u2 = inertia_times_screw<R>(b.inertia, e2);
      b.screw_inertia = u2;
      Inertia6<S> mm;
      if (torque_driven) {
        const S d2 = dot(e2, u2.ang);
        const Primal tiny =
            Traits::primal(b.inertia.trace()) * std::numeric_limits<Primal>::epsilon() * 64;
        if (!Traits::is_finite(d2) || !(Traits::primal(d2) > tiny)) {
          singular = true;
          return;
        }
        b.inverse_d = S(1) / d2;
        reduce_rank_one(b.inertia, u2, b.inverse_d, mm);
      } else {
        mm = b.inertia;
      }
      carry_inertia_to_parent<R>(mm, e2, un.cos2[0], un.sin2[0], V3<S>{});
      un.inertia_m = mm;
      const SV<S> u1 = inertia_times_screw<R>(mm, e);
      un.screw_inertia = u1;
      Inertia6<S> carried;
      if (torque_driven) {
        const S d1 = dot(e, u1.ang);
        const Primal tiny =
            Traits::primal(mm.trace()) * std::numeric_limits<Primal>::epsilon() * 64;
        if (!Traits::is_finite(d1) || !(Traits::primal(d1) > tiny)) {
          singular = true;
          return;
        }
        un.inverse_d = S(1) / d1;
        reduce_rank_one(mm, u1, un.inverse_d, carried);
      } else {
        carried = mm;
      }
      carry_inertia_to_parent<R>(carried, e, b.cos_q[0], b.sin_q[0], d);
      parent.inertia += carried;
      return;
    }
    const V3<S> he = pitch_axis<K>(model, j);
    SV<S> u;
    if constexpr (is_helical(K))
      u = inertia_times_helical_screw(b.inertia, e, he);
    else
      u = inertia_times_screw<K>(b.inertia, e);
    b.screw_inertia = u;
    bool torque_driven = true;
    if constexpr (kHybrid) torque_driven = !hybrid->motion_prescribed[j - 1];
    if (torque_driven) {
      const S dj = screw_dot<K>(e, u, he);
      const Primal tiny =
          Traits::primal(b.inertia.trace()) * std::numeric_limits<Primal>::epsilon() * 64;
      if (!Traits::is_finite(dj) || !(Traits::primal(dj) > tiny)) {
        singular = true;
        return;
      }
      b.inverse_d = S(1) / dj;
      if constexpr (is_revolute(K) && aligned_axis(K) >= 0) {
        // The hot path: reduce, rotate, translate and accumulate in one step.
        add_reduced_revolute<aligned_axis(K)>(b.inertia, u, b.inverse_d, b.cos_q[0], b.sin_q[0], d,
                                              parent.inertia);
        return;
      }
    }
    Inertia6<S> carried;
    if (torque_driven) {
      reduce_rank_one(b.inertia, u, b.inverse_d, carried);
    } else {
      carried = b.inertia;
    }
    if constexpr (is_revolute(K)) {
      carry_inertia_to_parent<K>(carried, e, b.cos_q[0], b.sin_q[0], d);
    } else if constexpr (is_helical(K)) {  // X = T(d + h q e) Rot(e, q)
      carry_inertia_to_parent<K>(carried, e, b.cos_q[0], b.sin_q[0], V3<S>(d + b.q[0] * he));
    } else {
      V3<S> p = d;
      add_along_axis<K>(e, b.q[0], p);
      carry_inertia_to_parent<K>(carried, e, S(1), S(0), p);
    }
    parent.inertia += carried;
  });
  if (singular) return false;
  if (!factor_base) return true;
  return ws.base_factor.compute(body[0].inertia);
}

/// The top order's accelerations fixed before the call (no command).
struct NoTopCommand {
  template <class Motion, class Top>
  void operator()(const Motion&, Top&) const noexcept {}
};

/// The top order k of `forward_inverse_dynamics`: inverse dynamics of order
/// k in the joint frames, on the biases b.bias (Newton–Euler terms and applied
/// loads) and c_j,[k] that the caller has just formed, with the rigid bodies'
/// inertias instead of the articulated ones (seed 000 eq. 13 in coefficients):
///   ã₀,[k] = (Ad_{P₀}⁻¹ (V̇₁ − G))_[k],  ã_j,[k] = Ad_{X_j}⁻¹ ã_p,[k] + c_j,[k] + s_j q̈_j,[k],
///   f_j,[k] = I_j ã_j,[k] + b_j + Σ_children Σ_i (Ad_{X_c}⁻ᵀ)_[i] f_c,[k−i],  τ_j,[k] = s_jᵀ
///   f_j,[k].
template <class Tree, int MaxOrder, class Scalar, class Order, bool kLoads = true>
void inverse_top_order(Order k_value, const Model<Tree, Scalar>& model,
                       ForwardDynamicsData<Tree, MaxOrder, Scalar>& data,
                       const ForwardDynamicsInput<Tree, MaxOrder, Scalar>& in,
                       const ExternalLoads<Tree, MaxOrder, Scalar>* loads,
                       InverseTopOrder<Tree, Scalar>& top) {
  using S = Scalar;
  const int k = k_value;  // (an int, or a std::integral_constant that unrolls the sums)
  auto& ws = data.workspace;
  auto& body = ws.body;
  auto& motion = data.motion;
  auto& b0 = body[0];
  const S fact = factorial<S>(k);
  const S inv_fact = S(1) / fact;
  // f = I ã + b for the rigid body j.
  const auto rigid_wrench = [&](int j, const SV<S>& a, const SV<S>& bias) -> SV<S> {
    return rigid_inertia_times(model.mass(j), V3<S>::from(model.local_com(j)),
                               model.home_inertia(j), a) +
           bias;
  };
  // ---- base: (V̇₁ − G)_[m] = (m+1) V₁,[m+1] below k (solved), given at k ----
  Twist<S> given = Twist<S>::Zero();
  if constexpr (!TreeTraits<Tree>::kFixedBase) given = top.base_acceleration;
  // (The orders below k left their terms of the series in ws.scratch.)
  for (int m = 0; m < k; ++m) ws.base_input[m] = S(m + 1) * ws.base_twist[m + 1];
  ws.base_input[k] = inv_fact * SV<S>::from(given);
  ws.base_input[0].lin -= V3<S>::from(model.gravity());
  const SV<S> a0 = base_acceleration_in_frame(k, ws);
  b0.acceleration[k] = a0;
  b0.wrench[k] = rigid_wrench(0, a0, b0.bias);
  ws.base_twist[k + 1] = reciprocal<S>(k + 1) * SV<S>::from(given);
  motion.base_twist[k + 1] = given;
  // ---- forward pass: accelerations and the bodies' own wrenches ----
  for_each_joint<Tree>([&](auto kind, int j) {
    constexpr JointKind K = decltype(kind)::value;
    auto& b = body[j];
    const auto& parent = body[Tree::kParent[j]];
    const V3<S> d = V3<S>::from(model.local_offset(j));
    const V3<S> e = V3<S>::from(model.joint_axis(j));
    const int entry = TreeTraits<Tree>::joint_entry(j);
    SV<S> a;
    if constexpr (is_spherical(K)) {
      auto& bl = ws.ball[static_cast<std::size_t>(ball_index<Tree>(j))];
      const auto& qa = top.joint_acceleration;
      const V3<S> alpha = inv_fact * V3<S>{qa(entry), qa(entry + 1), qa(entry + 2)};
      a = ball_twist_to_child(bl, d, parent.acceleration[k]) + b.acceleration_bias;
      a.ang += alpha;
      bl.rate[k + 1] = reciprocal<S>(k + 1) * alpha;
      for (int i = 0; i < 3; ++i) motion.q[k + 2](entry + i) = qa(entry + i);
    } else if constexpr (is_universal(K)) {  // through the intermediate frame m
      constexpr JointKind R = JointKind::kRevolute;
      auto& un = ws.universal[static_cast<std::size_t>(universal_index<Tree>(j))];
      const V3<S> e2 = V3<S>::from(model.joint_second_axis(j));
      const S alpha1 = inv_fact * (model.joint_sense(j) * top.joint_acceleration(entry));
      const S alpha2 = inv_fact * top.joint_acceleration(entry + 1);
      SV<S> am = twist_to_child<R>(b, d, e, parent.acceleration[k]) + un.acceleration_bias;
      am.ang += alpha1 * e;
      un.acceleration_m[k] = am;
      a = universal_twist_to_child(un, e2, am) + b.acceleration_bias;
      a.ang += alpha2 * e2;
      b.rate[k + 1] = reciprocal<S>(k + 1) * alpha1;
      un.rate2[k + 1] = reciprocal<S>(k + 1) * alpha2;
      motion.q[k + 2](entry) = top.joint_acceleration(entry);
      motion.q[k + 2](entry + 1) = top.joint_acceleration(entry + 1);
    } else {
      const S alpha = inv_fact * (model.joint_sense(j) * top.joint_acceleration(entry));
      a = twist_to_child<K>(b, d, e, parent.acceleration[k]) + b.acceleration_bias;
      add_screw<K>(e, alpha, a, pitch_axis<K>(model, j));
      b.rate[k + 1] = reciprocal<S>(k + 1) * alpha;
      motion.q[k + 2](entry) = top.joint_acceleration(entry);
    }
    b.acceleration[k] = a;
    b.wrench[k] = rigid_wrench(j, a, b.bias);
  });
  // ---- backward pass: each joint's wrench to its parent, torques ----
  for_each_joint_reverse<Tree>([&](auto kind, int j) {
    constexpr JointKind K = decltype(kind)::value;
    auto& b = body[j];
    auto& parent = body[Tree::kParent[j]];
    const V3<S> d = V3<S>::from(model.local_offset(j));
    const V3<S> e = V3<S>::from(model.joint_axis(j));
    const int entry = TreeTraits<Tree>::joint_entry(j);
    const SV<S>& f = b.wrench[k];
    if constexpr (is_spherical(K)) {  // τ = f_ang; the parent gets Σ_i R_[i] f_[k−i] moved by d
      const auto& bl = ws.ball[static_cast<std::size_t>(ball_index<Tree>(j))];
      V3<S> tau = f.ang;
      if (kLoads && loads != nullptr) {
        const auto& lk = loads->joint_torque[k];
        tau -= inv_fact * V3<S>{lk(entry), lk(entry + 1), lk(entry + 2)};
      }
      data.joint_torque[k](entry) = fact * tau.x;
      data.joint_torque[k](entry + 1) = fact * tau.y;
      data.joint_torque[k](entry + 2) = fact * tau.z;
      parent.wrench[k] +=
          ball_wrench_to_parent(k, bl, d, [&](int m) -> const SV<S>& { return b.wrench[m]; });
    } else if constexpr (is_universal(K)) {  // τ₂ = e₂ · f, f_m = Rot₂ ⊛ f, τ₁ = e₁ · f_m
      constexpr JointKind R = JointKind::kRevolute;
      auto& un = ws.universal[static_cast<std::size_t>(universal_index<Tree>(j))];
      const V3<S> e2 = V3<S>::from(model.joint_second_axis(j));
      const S sense = model.joint_sense(j);
      un.wrench_m[k] = {
          axis_rotate_series<R, false, 0>(k, un.cos2, un.sin2, e2,
                                          [&](int m) -> V3<S> { return b.wrench[m].ang; }),
          axis_rotate_series<R, false, 0>(k, un.cos2, un.sin2, e2,
                                          [&](int m) -> V3<S> { return b.wrench[m].lin; })};
      S tau1 = dot(e, un.wrench_m[k].ang);
      S tau2 = dot(e2, f.ang);
      if (kLoads && loads != nullptr) {
        tau1 -= inv_fact * (sense * loads->joint_torque[k](entry));
        tau2 -= inv_fact * loads->joint_torque[k](entry + 1);
      }
      data.joint_torque[k](entry) = fact * (sense * tau1);
      data.joint_torque[k](entry + 1) = fact * tau2;
      parent.wrench[k] +=
          wrench_to_parent<R>(k, b, d, e, [&](int m) -> const SV<S>& { return un.wrench_m[m]; });
    } else {
      const S sense = model.joint_sense(j);
      S tau = screw_dot<K>(e, f, pitch_axis<K>(model, j));
      if (kLoads && loads != nullptr) tau -= inv_fact * (sense * loads->joint_torque[k](entry));
      data.joint_torque[k](entry) = fact * (sense * tau);
      parent.wrench[k] +=
          wrench_to_parent<K>(k, b, d, e, [&](int m) -> const SV<S>& { return b.wrench[m]; });
    }
  });
  // ---- results: Q₁^(k) in the world, dᵏ/dtᵏ (Ad_C₁ᵀ Q₁) in the base frame ----
  // (to_world keeps the lower orders' forces, which the forward orders took
  // straight from a world-frame input without it.)
  if (top.world_base_wrench) {
    if (!TreeTraits<Tree>::kFixedBase && in.base_wrench_frame == WrenchFrame::kWorld)
      for (int m = 0; m < k; ++m) (void)ws.base_frame.to_world(m, b0.wrench);
    data.base_wrench[k] = (fact * ws.base_frame.to_world(k, b0.wrench)).eigen();
  } else {
    data.base_wrench[k].setZero();
  }
  top.base_wrench = data.base_wrench[k];
  top.base_wrench_body =
      model.base_home_is_identity()
          ? Wrench<S>(fact * b0.wrench[k].eigen())
          : Wrench<S>(fact * coadjoint(model.home_pose(0), Wrench<S>(b0.wrench[k].eigen())));
  top.joint_torque = data.joint_torque[k];
}

/// Orders 0..order of Alg. 3 (kHybrid = false) or Alg. 4 (kHybrid = true) in
/// joint frames; a FixedOrder ≥ 0 makes the order a compile-time constant
/// (small orders unroll). Everything of order k is a Taylor coefficient, and
/// the unknowns ã_0,[k], q̈_j,[k] = q_j^(k+2)/k! satisfy the order-0
/// articulated-body equations with the biases of order k (Lemma 2).
template <int FixedOrder, bool kHybrid, class Tree, int MaxOrder, class Scalar,
          class TopCommand = NoTopCommand, bool kLoads = true>
void articulated_orders(int run_order, const Model<Tree, Scalar>& model,
                        ForwardDynamicsData<Tree, MaxOrder, Scalar>& data,
                        const ForwardDynamicsInput<Tree, MaxOrder, Scalar>& in,
                        const HybridDynamicsInput<Tree, MaxOrder, Scalar>* hybrid,
                        const ExternalLoads<Tree, MaxOrder, Scalar>* loads, bool base_motion_given,
                        InverseTopOrder<Tree, Scalar>* top = nullptr, TopCommand command = {}) {
  using S = Scalar;
  constexpr int n = Tree::kNumBodies;
  const int order = FixedOrder >= 0 ? FixedOrder : run_order;
  auto& ws = data.workspace;
  auto& body = ws.body;
  auto& motion = data.motion;
  auto& b0 = body[0];
  const V3<S> g = V3<S>::from(model.gravity());
  std::array<S, MaxOrder + 2> inv_fact{}, fact{};
  inv_fact[0] = fact[0] = S(1);
  for (int m = 1; m <= order + 1; ++m) {
    fact[m] = fact[m - 1] * S(m);
    inv_fact[m] = inv_fact[m - 1] * reciprocal<S>(m);
  }
  const auto prescribed = [&](int j) -> bool {
    if constexpr (kHybrid) return hybrid->motion_prescribed[j - 1];
    return false;
  };
  const bool world_input = !base_motion_given && in.base_wrench_frame == WrenchFrame::kWorld;
  const bool world_wrench = top == nullptr || top->world_base_wrench;

  // One order k: a function of a compile-time k where the orders are few (the
  // inner Cauchy sums unroll), of a run-time k otherwise.
  const auto order_step = [&](auto k_value) {
    const int k = k_value;
    // ---- biases: the Newton–Euler terms, c_j,[k], applied loads ----
    b0.bias = own_bias(k, b0, model.mass(0), V3<S>::from(model.local_com(0)));
    for_each_joint<Tree>([&](auto kind, int j) {
      constexpr JointKind K = decltype(kind)::value;
      auto& b = body[j];
      const auto& parent = body[Tree::kParent[j]];
      const V3<S> e = V3<S>::from(model.joint_axis(j));
      b.bias = own_bias(k, b, model.mass(j), V3<S>::from(model.local_com(j)));
      // c = Σ_{i≥1} (Ad_X⁻¹)_[i] ã_p,[k−i] − Σ_i q̇_[i] ad_s v_[k−i]  (ad_s u = ad_s v).
      SV<S> c{};
      if constexpr (is_spherical(K)) {  // Rᵀ_[i] ⊛ offset ã_p, − ω ⊛ × v (ad_{(ω;0)} v)
        const auto& bl = ws.ball[static_cast<std::size_t>(ball_index<Tree>(j))];
        const V3<S> d = V3<S>::from(model.local_offset(j));
        for (int i = 1; i <= k; ++i) {
          const SV<S>& a = parent.acceleration[k - i];
          c.ang += bl.rotation[i].transpose_times(a.ang);
          c.lin += bl.rotation[i].transpose_times(a.lin - cross(d, a.ang));
        }
        for (int i = 0; i <= k; ++i) {
          c.ang -= cross(bl.rate[i], b.twist[k - i].ang);
          c.lin -= cross(bl.rate[i], b.twist[k - i].lin);
        }
        b.acceleration_bias = c;
        return;
      } else if constexpr (is_universal(K)) {
        // c_m = Σ_{i≥1} Rot₁ᵀ_[i] offset(ã_p) − θ̇₁ ⊛ ad_{s₁} v_m (the first step),
        // c_j = Σ_{i≥1} Rot₂ᵀ_[i] ã_m − θ̇₂ ⊛ ad_{s₂} v_j (the second; its
        // ad_{s₂} v_j carries the Ṡ q̇ term through v_m's e₁ θ̇₁).
        constexpr JointKind R = JointKind::kRevolute;
        auto& un = ws.universal[static_cast<std::size_t>(universal_index<Tree>(j))];
        const V3<S> e2 = V3<S>::from(model.joint_second_axis(j));
        const V3<S> d = V3<S>::from(model.local_offset(j));
        SV<S> cm{};
        if (k > 0) {
          cm.ang = axis_rotate_series<R, true, 1>(
              k, b.cos_q, b.sin_q, e, [&](int m) -> V3<S> { return parent.acceleration[m].ang; });
          cm.lin = axis_rotate_series<R, true, 1>(k, b.cos_q, b.sin_q, e, [&](int m) -> V3<S> {
            return parent.acceleration[m].lin - cross(d, parent.acceleration[m].ang);
          });
          c.ang = axis_rotate_series<R, true, 1>(
              k, un.cos2, un.sin2, e2, [&](int m) -> V3<S> { return un.acceleration_m[m].ang; });
          c.lin = axis_rotate_series<R, true, 1>(
              k, un.cos2, un.sin2, e2, [&](int m) -> V3<S> { return un.acceleration_m[m].lin; });
        }
        for (int i = 0; i <= k; ++i) {
          cm.ang -= b.rate[i] * cross(e, un.twist_m[k - i].ang);
          cm.lin -= b.rate[i] * cross(e, un.twist_m[k - i].lin);
          c.ang -= un.rate2[i] * cross(e2, b.twist[k - i].ang);
          c.lin -= un.rate2[i] * cross(e2, b.twist[k - i].lin);
        }
        un.acceleration_bias = cm;
        b.acceleration_bias = c;
        return;
      }
      if constexpr (joint_rotates(K)) {
        if (k > 0) {
          c.ang = axis_rotate_series<K, true, 1>(
              k, b.cos_q, b.sin_q, e, [&](int m) -> V3<S> { return parent.acceleration[m].ang; });
          const V3<S> d = V3<S>::from(model.local_offset(j));
          c.lin = axis_rotate_series<K, true, 1>(k, b.cos_q, b.sin_q, e, [&](int m) -> V3<S> {
            return parent.acceleration[m].lin - cross(d, parent.acceleration[m].ang);
          });
        }
        for (int i = 0; i <= k; ++i) {
          c.ang -= b.rate[i] * axis_cross<K>(e, b.twist[k - i].ang);
          c.lin -= b.rate[i] * axis_cross<K>(e, b.twist[k - i].lin);
        }
        if constexpr (is_helical(K)) {
          // X = T(d + h q e) Rot(e, q): (Ad_X⁻¹ ã_p).lin also loses
          // h (q ⊛ e × Rot(−q)⊛ã_p,ang)_[k] less its order-0 term (the one with
          // ã_p,[k], which twist_to_child applies); s = (e; h e) adds
          // − h q̇ ⊛ e × v_ang to the ad_s term.
          const S h = b.pitch;
          const auto parent_ang = [&](int m) -> V3<S> { return parent.acceleration[m].ang; };
          if (k > 0)
            c.lin -= (h * b.q[0]) *
                     cross(e, axis_rotate_series<K, true, 1>(k, b.cos_q, b.sin_q, e, parent_ang));
          for (int i = 1; i <= k; ++i)
            c.lin -= (h * b.q[i]) * cross(e, axis_rotate_series<K, true, 0>(k - i, b.cos_q, b.sin_q,
                                                                            e, parent_ang));
          for (int i = 0; i <= k; ++i) c.lin -= (h * b.rate[i]) * cross(e, b.twist[k - i].ang);
        }
      } else {
        for (int i = 1; i <= k; ++i)
          c.lin -= b.q[i] * axis_cross<K>(e, parent.acceleration[k - i].ang);
        for (int i = 0; i <= k; ++i) c.lin -= b.rate[i] * axis_cross<K>(e, b.twist[k - i].ang);
      }
      b.acceleration_bias = c;
    });
    if (kLoads && loads != nullptr) {
      for (int j = 0; j < n; ++j) {
        if (!loads->has_world_wrench[j] && !loads->has_body_wrench[j]) continue;
        auto& b = body[j];
        if (loads->has_body_wrench[j]) {
          // Body frame C_j = P_j K_j with the constant K_j = T(−o_j) A⁰_j.
          const Pose<S> kj = Pose<S>::from_translation(model.local_com(j) - model.home_com(j)) *
                             model.home_pose(j);
          b.bias -=
              SV<S>::from(coadjoint_inverse(kj, Wrench<S>(inv_fact[k] * loads->body_wrench[j][k])));
        }
        if (loads->has_world_wrench[j]) {
          MovingFrame<MaxOrder, S> frame;
          if constexpr (TreeTraits<Tree>::kNumUniversalJoints > 0) {
            // R_c,[i] of a ball, (Rot(e₁, θ₁) Rot(e₂, θ₂))_[i] of a universal joint.
            joint_frame_pose_series(
                model, ws.base_frame, body, [&](int c, int m) -> S { return body[c].q[m]; }, j, k,
                frame,
                [&](int c, int i) -> M3<S> {
                  if (universal_index<Tree>(c) < 0)
                    return ws.ball[static_cast<std::size_t>(ball_index<Tree>(c))]
                        .rotation[static_cast<std::size_t>(i)];
                  const auto& un = ws.universal[static_cast<std::size_t>(universal_index<Tree>(c))];
                  const auto& bc = body[static_cast<std::size_t>(c)];
                  const V3<S> e1 = V3<S>::from(model.joint_axis(c));
                  const V3<S> e2 = V3<S>::from(model.joint_second_axis(c));
                  M3<S> out;
                  for (int l = 0; l <= i; ++l) {
                    const M3<S> prod =
                        axis_rotation<JointKind::kRevolute>(e1, l == 0 ? S(1) : S(0), bc.cos_q[l],
                                                            bc.sin_q[l]) *
                        axis_rotation<JointKind::kRevolute>(e2, l == i ? S(1) : S(0),
                                                            un.cos2[i - l], un.sin2[i - l]);
                    for (int a = 0; a < 9; ++a) out.a[a] += prod.a[a];
                  }
                  return out;
                });
          } else {
            joint_frame_pose_series(
                model, ws.base_frame, body, [&](int c, int m) -> S { return body[c].q[m]; }, j, k,
                frame,
                [&](int c, int i) -> const M3<S>& {
                  return ws.ball[static_cast<std::size_t>(ball_index<Tree>(c))]
                      .rotation[static_cast<std::size_t>(i)];
                });
          }
          std::array<SV<S>, MaxOrder + 1> w{};
          SV<S> wk{};
          for (int m = 0; m <= k; ++m) {
            w[m] = inv_fact[m] * SV<S>::from(loads->world_wrench[j][m]);
            wk = frame.to_frame(m, w);
          }
          b.bias -= wk;
        }
      }
    }

    if constexpr (!kHybrid) {
      if (top != nullptr && k == order) {  // forward_inverse_dynamics: the top order is given
        command(static_cast<const MotionDerivatives<Tree, MaxOrder, Scalar>&>(motion), *top);
        inverse_top_order<Tree, MaxOrder, Scalar, decltype(k_value), kLoads>(k_value, model, data,
                                                                             in, loads, *top);
        return;
      }
    }

    // ---- backward pass: articulated biases (Alg. 3 eqs. 24-25, Alg. 4) ----
    for_each_joint_reverse<Tree>([&](auto kind, int j) {
      constexpr JointKind K = decltype(kind)::value;
      auto& b = body[j];
      auto& parent = body[Tree::kParent[j]];
      const V3<S> d = V3<S>::from(model.local_offset(j));
      const V3<S> e = V3<S>::from(model.joint_axis(j));
      const SV<S>& c = b.acceleration_bias;
      const S sense = model.joint_sense(j);
      const int entry = TreeTraits<Tree>::joint_entry(j);
      SV<S> pa = b.bias + articulated_times(model, body, j, c);
      if constexpr (is_spherical(K)) {
        // x = ω̇_[k] (3): given, or D⁻¹ (τ_[k] − Sᵀ p − Uᵀ c) = A⁻¹ (τ − (p + M c)_ang);
        // p^A += U x = (A x; Bᵀ x); the parent collects Σ_i R_[i] ⊛ (·) moved by d.
        auto& bl = ws.ball[static_cast<std::size_t>(ball_index<Tree>(j))];
        V3<S> x;
        if (prescribed(j)) {
          if constexpr (kHybrid) {
            const auto& qa = hybrid->joint_acceleration[k];
            x = inv_fact[k] * V3<S>{qa(entry), qa(entry + 1), qa(entry + 2)};
          }
        } else {
          const auto& tk = in.joint_torque[k];
          V3<S> tau = inv_fact[k] * V3<S>{tk(entry), tk(entry + 1), tk(entry + 2)} - pa.ang;
          if (kLoads && loads != nullptr) {
            const auto& lk = loads->joint_torque[k];
            tau += inv_fact[k] * V3<S>{lk(entry), lk(entry + 1), lk(entry + 2)};
          }
          x = bl.inverse_d * tau;
        }
        bl.partial = x;
        pa.ang += b.inertia.a * x;
        pa.lin += b.inertia.b.transpose_times(x);
        parent.bias += ball_wrench_to_parent(
            k, bl, d, [&](int m) -> const SV<S>& { return m == k ? pa : b.wrench[m]; });
        return;
      } else if constexpr (is_universal(K)) {
        // θ₂ in the child's frame: x₂ = D₂⁻¹ (τ₂ − s₂ᵀ p), p += U₂ x₂; into m:
        // p_m = Σ_i Rot₂,[i] ⊛ (p, lower f_j) + M^A_m c_m; θ₁ there: x₁, p_m += U₁ x₁;
        // the parent collects Σ_i (Ad_X₁⁻ᵀ)_[i] (p_m, lower f_m).
        constexpr JointKind R = JointKind::kRevolute;
        auto& un = ws.universal[static_cast<std::size_t>(universal_index<Tree>(j))];
        const V3<S> e2 = V3<S>::from(model.joint_second_axis(j));
        S x2(0), x1(0);
        if (prescribed(j)) {
          if constexpr (kHybrid) {
            x2 = inv_fact[k] * hybrid->joint_acceleration[k](entry + 1);
            x1 = inv_fact[k] * (sense * hybrid->joint_acceleration[k](entry));
          }
        } else {
          S tau = inv_fact[k] * in.joint_torque[k](entry + 1) - dot(e2, pa.ang);
          if (kLoads && loads != nullptr) tau += inv_fact[k] * loads->joint_torque[k](entry + 1);
          x2 = b.inverse_d * tau;
        }
        b.partial = x2;
        pa += x2 * b.screw_inertia;
        SV<S> pm{axis_rotate_series<R, false, 0>(
                     k, un.cos2, un.sin2, e2,
                     [&](int m) -> V3<S> { return (m == k ? pa : b.wrench[m]).ang; }),
                 axis_rotate_series<R, false, 0>(k, un.cos2, un.sin2, e2, [&](int m) -> V3<S> {
                   return (m == k ? pa : b.wrench[m]).lin;
                 })};
        pm += un.inertia_m * un.acceleration_bias;
        if (!prescribed(j)) {
          S tau = inv_fact[k] * (sense * in.joint_torque[k](entry)) - dot(e, pm.ang);
          if (kLoads && loads != nullptr)
            tau += inv_fact[k] * (sense * loads->joint_torque[k](entry));
          x1 = un.inverse_d * tau;
        }
        un.partial = x1;
        pm += x1 * un.screw_inertia;
        parent.bias += wrench_to_parent<R>(
            k, b, d, e, [&](int m) -> const SV<S>& { return m == k ? pm : un.wrench_m[m]; });
        return;
      }
      S x(0);
      if (prescribed(j)) {
        if constexpr (kHybrid) x = inv_fact[k] * (sense * hybrid->joint_acceleration[k](entry));
      } else {
        S tau = inv_fact[k] * (sense * in.joint_torque[k](entry)) -
                screw_dot<K>(e, b.bias, pitch_axis<K>(model, j)) - dot(b.screw_inertia, c);
        if (kLoads && loads != nullptr)
          tau += inv_fact[k] * (sense * loads->joint_torque[k](entry));
        x = b.inverse_d * tau;
      }
      b.partial = x;
      pa += x * b.screw_inertia;
      parent.bias += wrench_to_parent<K>(
          k, b, d, e, [&](int m) -> const SV<S>& { return m == k ? pa : b.wrench[m]; });
    });

    // ---- base ----
    SV<S> a0, f0;
    if (base_motion_given) {
      // V₁^(k+1) given (hybrid) or zero (a fixed root: the wrench is the mount's).
      // Compiled only where it can run: forward dynamics of a floating base never does.
      if constexpr (kHybrid || TreeTraits<Tree>::kFixedBase) {
        Twist<S> given = Twist<S>::Zero();
        if constexpr (kHybrid && !TreeTraits<Tree>::kFixedBase)
          given = hybrid->base_acceleration[k];
        ws.base_input[k] = inv_fact[k] * SV<S>::from(given);
        if (k == 0) ws.base_input[0].lin -= g;
        // ã_0 = Ad_{P_0}⁻¹ (V̇₁ − G), coefficient k.
        a0 = base_acceleration_in_frame(k, ws);
        f0 = b0.inertia * a0 + b0.bias;
        ws.base_twist[k + 1] = inv_fact[k + 1] * SV<S>::from(given);
        motion.base_twist[k + 1] = given;
      }
    } else {
      if (world_input) {
        ws.base_input[k] = inv_fact[k] * SV<S>::from(in.base_wrench[k]);
        f0 = ws.base_frame.to_frame(k, ws.base_input);
      } else if (model.base_home_is_identity()) {  // the joint frame is the base frame
        f0 = inv_fact[k] * SV<S>::from(in.base_wrench[k]);
      } else {
        f0 = SV<S>::from(
            coadjoint_inverse(model.home_pose(0), Wrench<S>(inv_fact[k] * in.base_wrench[k])));
      }
      a0 = ws.base_factor.solve(f0 - b0.bias);
    }
    b0.acceleration[k] = a0;
    b0.wrench[k] = f0;
    if (!base_motion_given) {
      // V̇₁ − G = Ad_{P_0} ã_0: coefficient k by Cauchy products over R_[i], x_[i].
      const auto& rot = ws.base_frame.rotation;
      const auto& org = ws.base_frame.origin;
      V3<S> wang = rot[0] * a0.ang;
      V3<S> wlin = rot[0] * a0.lin;
      for (int i = 1; i <= k; ++i) {
        wang += rot[i] * b0.acceleration[k - i].ang;
        wlin += rot[i] * b0.acceleration[k - i].lin;
      }
      // (V̇₁ − G − x × ω̇)_[k]: the term base_acceleration_in_frame keeps for
      // the orders above (a top order of forward_inverse_dynamics).
      ws.scratch[k] = wlin;
      ws.world_spin[k] = wang;
      for (int i = 0; i <= k; ++i) wlin += cross(org[i], ws.world_spin[k - i]);
      if (k == 0) wlin += g;
      const SV<S> w{wang, wlin};
      ws.base_twist[k + 1] = reciprocal<S>(k + 1) * w;
      motion.base_twist[k + 1] = (fact[k] * w).eigen();
    }
    if (world_input) {
      data.base_wrench[k] = in.base_wrench[k];
    } else if (world_wrench) {
      data.base_wrench[k] = (fact[k] * ws.base_frame.to_world(k, b0.wrench)).eigen();
    } else {
      data.base_wrench[k].setZero();
    }
    data.joint_torque[k] = in.joint_torque[k];

    // ---- forward pass (eq. 26) ----
    const bool need_wrench = FixedOrder != 0 && k < order;
    for_each_joint<Tree>([&](auto kind, int j) {
      constexpr JointKind K = decltype(kind)::value;
      auto& b = body[j];
      const auto& parent = body[Tree::kParent[j]];
      const V3<S> d = V3<S>::from(model.local_offset(j));
      const V3<S> e = V3<S>::from(model.joint_axis(j));
      const int entry = TreeTraits<Tree>::joint_entry(j);
      if constexpr (is_spherical(K)) {  // ω̇_[k] = partial − D⁻¹ Uᵀ x,  Uᵀ x = A x_ang + B x_lin
        auto& bl = ws.ball[static_cast<std::size_t>(ball_index<Tree>(j))];
        const SV<S> x = ball_twist_to_child(bl, d, parent.acceleration[k]);
        V3<S> alpha = bl.partial;
        if (!prescribed(j)) alpha -= bl.inverse_d * (b.inertia.a * x.ang + b.inertia.b * x.lin);
        SV<S> a = x + b.acceleration_bias;
        a.ang += alpha;
        b.acceleration[k] = a;
        bl.rate[k + 1] = reciprocal<S>(k + 1) * alpha;
        for (int i = 0; i < 3; ++i)
          motion.q[k + 2](entry + i) = fact[k] * (i == 0 ? alpha.x : i == 1 ? alpha.y : alpha.z);
        if (need_wrench || prescribed(j)) {
          b.wrench[k] = articulated_times(model, body, j, a) + b.bias;
          if (prescribed(j)) {  // τ = Sᵀ f = f_ang
            V3<S> tau = b.wrench[k].ang;
            if (kLoads && loads != nullptr) {
              const auto& lk = loads->joint_torque[k];
              tau -= inv_fact[k] * V3<S>{lk(entry), lk(entry + 1), lk(entry + 2)};
            }
            data.joint_torque[k](entry) = fact[k] * tau.x;
            data.joint_torque[k](entry + 1) = fact[k] * tau.y;
            data.joint_torque[k](entry + 2) = fact[k] * tau.z;
          }
        }
        return;
      } else if constexpr (is_universal(K)) {
        // θ̈₁,[k] in m, then θ̈₂,[k] in the child's frame (eq. 26 twice).
        constexpr JointKind R = JointKind::kRevolute;
        auto& un = ws.universal[static_cast<std::size_t>(universal_index<Tree>(j))];
        const V3<S> e2 = V3<S>::from(model.joint_second_axis(j));
        const SV<S> x = twist_to_child<R>(b, d, e, parent.acceleration[k]);
        S alpha1 = un.partial;
        if (!prescribed(j)) alpha1 -= un.inverse_d * dot(un.screw_inertia, x);
        SV<S> am = x + un.acceleration_bias;
        am.ang += alpha1 * e;
        un.acceleration_m[k] = am;
        const SV<S> x2 = universal_twist_to_child(un, e2, am);
        S alpha2 = b.partial;
        if (!prescribed(j)) alpha2 -= b.inverse_d * dot(b.screw_inertia, x2);
        SV<S> a = x2 + b.acceleration_bias;
        a.ang += alpha2 * e2;
        b.acceleration[k] = a;
        b.rate[k + 1] = reciprocal<S>(k + 1) * alpha1;
        un.rate2[k + 1] = reciprocal<S>(k + 1) * alpha2;
        const S sense = model.joint_sense(j);
        motion.q[k + 2](entry) = fact[k] * (sense * alpha1);
        motion.q[k + 2](entry + 1) = fact[k] * alpha2;
        if (need_wrench || prescribed(j)) {
          b.wrench[k] = articulated_times(model, body, j, a) + b.bias;
          un.wrench_m[k] = {
              axis_rotate_series<R, false, 0>(k, un.cos2, un.sin2, e2,
                                              [&](int m) -> V3<S> { return b.wrench[m].ang; }),
              axis_rotate_series<R, false, 0>(k, un.cos2, un.sin2, e2,
                                              [&](int m) -> V3<S> { return b.wrench[m].lin; })};
          if (prescribed(j)) {  // τ₁ = e₁ · f_m,ang, τ₂ = e₂ · f_ang
            S tau1 = dot(e, un.wrench_m[k].ang);
            S tau2 = dot(e2, b.wrench[k].ang);
            if (kLoads && loads != nullptr) {
              tau1 -= inv_fact[k] * (sense * loads->joint_torque[k](entry));
              tau2 -= inv_fact[k] * loads->joint_torque[k](entry + 1);
            }
            data.joint_torque[k](entry) = fact[k] * (sense * tau1);
            data.joint_torque[k](entry + 1) = fact[k] * tau2;
          }
        }
        return;
      }
      const SV<S> x = twist_to_child<K>(b, d, e, parent.acceleration[k]);
      S alpha = b.partial;
      if (!prescribed(j)) alpha -= b.inverse_d * dot(b.screw_inertia, x);
      SV<S> a = x + b.acceleration_bias;
      add_screw<K>(e, alpha, a, pitch_axis<K>(model, j));
      b.acceleration[k] = a;
      b.rate[k + 1] = reciprocal<S>(k + 1) * alpha;
      const S sense = model.joint_sense(j);  // q^(k+2) = s θ^(k+2), τ = s τ_θ
      motion.q[k + 2](entry) = fact[k] * (sense * alpha);
      if (need_wrench || prescribed(j)) {
        b.wrench[k] = articulated_times(model, body, j, a) + b.bias;
        if (prescribed(j)) {
          S tau = screw_dot<K>(e, b.wrench[k], pitch_axis<K>(model, j));
          if (kLoads && loads != nullptr)
            tau -= inv_fact[k] * (sense * loads->joint_torque[k](entry));
          data.joint_torque[k](entry) = fact[k] * (sense * tau);
        }
      }
    });

    // ---- kinematics of level k+1 from the solved accelerations ----
    if (FixedOrder != 0 && k < order) {  // (constant false at order 0)
      const S step = reciprocal<S>(k + 1);
      const bool need_gravity = k + 1 < order;
      ws.base_frame.extend(k + 1, ws.base_twist);
      {
        SV<S> v = b0.acceleration[k];
        v.lin += b0.gravity[k];
        b0.twist[k + 1] = step * v;
        if (need_gravity) b0.gravity[k + 1] = ws.base_frame.rotation[k + 1].transpose_times(g);
        momentum_factors(k + 1, b0, V3<S>::from(model.local_com(0)), model.home_inertia(0));
      }
      for_each_joint<Tree>([&](auto kind, int j) {
        constexpr JointKind K = decltype(kind)::value;
        auto& b = body[j];
        const auto& parent = body[Tree::kParent[j]];
        if constexpr (is_spherical(K)) {  // R_[k+1] from the solved ω (ball_joint.hpp)
          auto& bl = ws.ball[static_cast<std::size_t>(ball_index<Tree>(j))];
          bl.rotation[k + 1] = ball_rotation_next(k, bl.rotation, bl.rate);
          SV<S> v = b.acceleration[k];
          v.lin += b.gravity[k];
          b.twist[k + 1] = step * v;
          if (need_gravity) {  // (Rᵀ g_p)_[k+1]
            V3<S> gk{};
            for (int i = 0; i <= k + 1; ++i)
              gk += bl.rotation[i].transpose_times(parent.gravity[k + 1 - i]);
            b.gravity[k + 1] = gk;
          }
          momentum_factors(k + 1, b, V3<S>::from(model.local_com(j)), model.home_inertia(j));
          return;
        } else if constexpr (is_universal(K)) {  // θ₁, θ₂ and the intermediate frame's series
          constexpr JointKind R = JointKind::kRevolute;
          auto& un = ws.universal[static_cast<std::size_t>(universal_index<Tree>(j))];
          b.q[k + 1] = step * b.rate[k];
          un.q2[k + 1] = step * un.rate2[k];
          S sc(0), cc(0), sc2(0), cc2(0);  // (sin θ)' = cos θ θ̇, (cos θ)' = −sin θ θ̇
          for (int i = 0; i <= k; ++i) {
            sc += b.cos_q[i] * b.rate[k - i];
            cc += b.sin_q[i] * b.rate[k - i];
            sc2 += un.cos2[i] * un.rate2[k - i];
            cc2 += un.sin2[i] * un.rate2[k - i];
          }
          b.sin_q[k + 1] = step * sc;
          b.cos_q[k + 1] = -(step * cc);
          un.sin2[k + 1] = step * sc2;
          un.cos2[k + 1] = -(step * cc2);
          SV<S> vm = un.acceleration_m[k];
          vm.lin += un.gravity_m[k];
          un.twist_m[k + 1] = step * vm;
          SV<S> v = b.acceleration[k];
          v.lin += b.gravity[k];
          b.twist[k + 1] = step * v;
          if (need_gravity) {
            const V3<S> e = V3<S>::from(model.joint_axis(j));
            const V3<S> e2 = V3<S>::from(model.joint_second_axis(j));
            un.gravity_m[k + 1] = axis_rotate_series<R, true, 0>(
                k + 1, b.cos_q, b.sin_q, e,
                [&](int m) -> const V3<S>& { return parent.gravity[m]; });
            b.gravity[k + 1] = axis_rotate_series<R, true, 0>(
                k + 1, un.cos2, un.sin2, e2,
                [&](int m) -> const V3<S>& { return un.gravity_m[m]; });
          }
          momentum_factors(k + 1, b, V3<S>::from(model.local_com(j)), model.home_inertia(j));
          return;
        }
        b.q[k + 1] = step * b.rate[k];
        if constexpr (joint_rotates(K)) {
          S sc(0), cc(0);  // (sin q)' = cos q q̇, (cos q)' = −sin q q̇
          for (int i = 0; i <= k; ++i) {
            sc += b.cos_q[i] * b.rate[k - i];
            cc += b.sin_q[i] * b.rate[k - i];
          }
          b.sin_q[k + 1] = step * sc;
          b.cos_q[k + 1] = -(step * cc);
        }
        SV<S> v = b.acceleration[k];
        v.lin += b.gravity[k];
        b.twist[k + 1] = step * v;
        if (need_gravity) {
          if constexpr (joint_rotates(K)) {
            const V3<S> e = V3<S>::from(model.joint_axis(j));
            b.gravity[k + 1] = axis_rotate_series<K, true, 0>(
                k + 1, b.cos_q, b.sin_q, e,
                [&](int m) -> const V3<S>& { return parent.gravity[m]; });
          } else {
            b.gravity[k + 1] = parent.gravity[k + 1];
          }
        }
        momentum_factors(k + 1, b, V3<S>::from(model.local_com(j)), model.home_inertia(j));
      });
    }
  };
  if constexpr (MaxOrder <= 2 || FixedOrder == 0 || FixedOrder == 1) {
    // (also the order-0 and order-1 specializations of larger workspaces)
    order_step(std::integral_constant<int, 0>{});
    if constexpr (MaxOrder >= 1 && FixedOrder != 0)
      if (order >= 1) order_step(std::integral_constant<int, 1>{});
    if constexpr (MaxOrder >= 2 && FixedOrder != 0 && FixedOrder != 1)
      if (order >= 2) order_step(std::integral_constant<int, 2>{});
  } else {
    for (int k = 0; k <= order; ++k) order_step(k);
  }
}

/// Zero results of the top order (a failed forward_inverse_dynamics call).
template <class Tree, class Scalar>
void clear_top(InverseTopOrder<Tree, Scalar>* top) {
  if (top == nullptr) return;
  top->base_wrench.setZero();
  top->base_wrench_body.setZero();
  top->joint_torque.setZero();
}

/// The engine of Alg. 3 (kHybrid = false) and Alg. 4 (kHybrid = true).
/// (kLoads = false: a caller without applied loads; their branches compile out.)
template <bool kHybrid, class Tree, int MaxOrder, class Scalar, class TopCommand = NoTopCommand,
          bool kLoads = true>
Status articulated_body_dynamics(const Model<Tree, Scalar>& model,
                                 ForwardDynamicsData<Tree, MaxOrder, Scalar>& data,
                                 const ForwardDynamicsInput<Tree, MaxOrder, Scalar>& in,
                                 const HybridDynamicsInput<Tree, MaxOrder, Scalar>* hybrid,
                                 const ExternalLoads<Tree, MaxOrder, Scalar>* loads, int order,
                                 InverseTopOrder<Tree, Scalar>* top = nullptr,
                                 TopCommand command = {}) {
  const Status input =
      top == nullptr || top->check_input
          ? check_forward_input(in, hybrid, loads, order)
          : (order < 0 || order > MaxOrder ? Status::kOrderOutOfRange : Status::kOk);
  if (input != Status::kOk) {
    data.clear_results();
    clear_top(top);
    return input;
  }
  // A fixed root is a base whose motion is given: at rest at its mount.
  const bool base_motion_given =
      TreeTraits<Tree>::kFixedBase || (kHybrid && hybrid->base_input == BaseInput::kMotion);
  auto& motion = data.motion;
  motion.base_pose = root_pose(model, in.base_pose);
  motion.base_twist[0] = root_twist<Tree>(in.base_twist);
  motion.q[0] = in.q;
  motion.q[1] = in.q_dot;
  motion.joint_rotation = in.joint_rotation;
  if (!articulated_inertias<kHybrid>(model, data, in, hybrid, !base_motion_given,
                                     order > 0 || top != nullptr)) {
    data.clear_results();
    clear_top(top);
    return Status::kSingularInertia;
  }
  if constexpr (!std::is_same<TopCommand, NoTopCommand>::value) {
    // A commanded top order (a controller's step): one instantiation for
    // every order, not three per command type.
    articulated_orders<-1, kHybrid, Tree, MaxOrder, Scalar, TopCommand, kLoads>(
        order, model, data, in, hybrid, loads, base_motion_given, top, command);
  } else if (order == 0) {
    articulated_orders<0, kHybrid, Tree, MaxOrder, Scalar, TopCommand, kLoads>(
        0, model, data, in, hybrid, loads, base_motion_given, top, command);
  } else if constexpr (MaxOrder >= 1) {
    if (order == 1) {
      articulated_orders<1, kHybrid, Tree, MaxOrder, Scalar, TopCommand, kLoads>(
          1, model, data, in, hybrid, loads, base_motion_given, top, command);
    } else {
      articulated_orders<-1, kHybrid, Tree, MaxOrder, Scalar, TopCommand, kLoads>(
          order, model, data, in, hybrid, loads, base_motion_given, top, command);
    }
  }
  if (top != nullptr &&
      (!all_finite(top->base_acceleration) || !all_finite(top->joint_acceleration))) {
    data.clear_results();  // (a command may have set them only now)
    clear_top(top);
    return Status::kNonFiniteInput;
  }
  // What was computed is checked. Copies of the inputs (forward dynamics'
  // torques, a world-frame wrench) were checked on the way in or vouched
  // for, and world wrenches not formed are zero.
  const bool wrench_copied = !base_motion_given && in.base_wrench_frame == WrenchFrame::kWorld;
  const bool wrench_formed = !wrench_copied && (top == nullptr || top->world_base_wrench);
  for (int k = 0; k <= order; ++k) {
    const bool top_order = top != nullptr && k == order;
    bool finite = all_finite_together(motion.base_twist[k + 1], motion.q[k + 2]);
    if (kHybrid || top_order) finite = finite && all_finite(data.joint_torque[k]);
    if (kHybrid || top_order || wrench_formed) finite = finite && all_finite(data.base_wrench[k]);
    if (top_order) finite = finite && all_finite(top->base_wrench_body);
    if (!finite) {
      data.clear_results();
      clear_top(top);
      return Status::kNonFiniteResult;
    }
  }
  data.order = order;
  return Status::kOk;
}

HODYN_ISA_NAMESPACE_END
}  // namespace detail
HODYN_ISA_NAMESPACE_BEGIN

/// Forward dynamics of orders 0..order (`loads` may be null).
template <class Tree, int MaxOrder, class Scalar>
Status forward_dynamics(const Model<Tree, Scalar>& model,
                        ForwardDynamicsData<Tree, MaxOrder, Scalar>& data,
                        const ForwardDynamicsInput<Tree, MaxOrder, Scalar>& input,
                        const ExternalLoads<Tree, MaxOrder, Scalar>* loads, int order) noexcept {
  return detail::articulated_body_dynamics<false>(
      model, data, input, static_cast<const HybridDynamicsInput<Tree, MaxOrder, Scalar>*>(nullptr),
      loads, order);
}

template <class Tree, int MaxOrder, class Scalar>
Status forward_dynamics(const Model<Tree, Scalar>& model,
                        ForwardDynamicsData<Tree, MaxOrder, Scalar>& data,
                        const ForwardDynamicsInput<Tree, MaxOrder, Scalar>& input,
                        int order) noexcept {
  return forward_dynamics(model, data, input,
                          static_cast<const ExternalLoads<Tree, MaxOrder, Scalar>*>(nullptr),
                          order);
}

/// Forward dynamics of orders 0..r−1, then inverse dynamics of order r along
/// the motion they computed: `top` gives V₁^(r+1) and q^(r+2) and receives
/// Q₁^(r) (world and base frame) and τ^(r). The inputs' base_wrench[r] and
/// joint_torque[r] do not enter (they are checked for finiteness like every
/// input; leave them zero).
///
/// `command(motion, top)`, when given, is called once, after orders 0..r−1
/// are solved and before the top order, with data.motion holding
/// V₁^(0..r) and q^(0..r+1): it sets top's accelerations from them. That is
/// feedback linearization on inverse dynamics of order r in one pass — the
/// law reads the solved accelerations and jerks and commands the next
/// derivative — where forward dynamics of order r and an inverse-dynamics
/// call would each pay for the joint frames, sines and checks again. The top
/// order is the Newton–Euler pass with the rigid bodies' inertias on the
/// joint frames, biases and lower-order wrenches the forward orders built,
/// not an articulated-body solve.
///
/// After the call data.motion holds the top derivatives too, and
/// data.base_wrench[r], data.joint_torque[r] the computed forces (the data
/// reads like a hybrid-dynamics result). kNonFiniteInput when top's
/// accelerations are not finite; on any failure every output, `top`'s
/// results included, is zero. Floating- and fixed-base trees, every joint
/// kind; `loads` (may be null) as in forward_dynamics.
template <class Tree, int MaxOrder, class Scalar, class TopCommand>
Status forward_inverse_dynamics(const Model<Tree, Scalar>& model,
                                ForwardDynamicsData<Tree, MaxOrder, Scalar>& data,
                                const ForwardDynamicsInput<Tree, MaxOrder, Scalar>& input,
                                InverseTopOrder<Tree, Scalar>& top, TopCommand command,
                                const ExternalLoads<Tree, MaxOrder, Scalar>* loads,
                                int order) noexcept {
  return detail::articulated_body_dynamics<false>(
      model, data, input, static_cast<const HybridDynamicsInput<Tree, MaxOrder, Scalar>*>(nullptr),
      loads, order, &top, command);
}

/// The same without applied loads: their branches are not compiled in (the
/// controller's step; smaller code on the flight controller).
template <class Tree, int MaxOrder, class Scalar, class TopCommand,
          class = std::enable_if_t<!std::is_pointer<TopCommand>::value &&
                                   !std::is_null_pointer<TopCommand>::value>>
Status forward_inverse_dynamics(const Model<Tree, Scalar>& model,
                                ForwardDynamicsData<Tree, MaxOrder, Scalar>& data,
                                const ForwardDynamicsInput<Tree, MaxOrder, Scalar>& input,
                                InverseTopOrder<Tree, Scalar>& top, TopCommand command,
                                int order) noexcept {
  return detail::articulated_body_dynamics<false, Tree, MaxOrder, Scalar, TopCommand, false>(
      model, data, input, static_cast<const HybridDynamicsInput<Tree, MaxOrder, Scalar>*>(nullptr),
      static_cast<const ExternalLoads<Tree, MaxOrder, Scalar>*>(nullptr), order, &top, command);
}

/// The same with top's accelerations set before the call.
template <class Tree, int MaxOrder, class Scalar>
Status forward_inverse_dynamics(const Model<Tree, Scalar>& model,
                                ForwardDynamicsData<Tree, MaxOrder, Scalar>& data,
                                const ForwardDynamicsInput<Tree, MaxOrder, Scalar>& input,
                                InverseTopOrder<Tree, Scalar>& top,
                                const ExternalLoads<Tree, MaxOrder, Scalar>* loads,
                                int order) noexcept {
  return forward_inverse_dynamics(model, data, input, top, detail::NoTopCommand{}, loads, order);
}

template <class Tree, int MaxOrder, class Scalar>
Status forward_inverse_dynamics(const Model<Tree, Scalar>& model,
                                ForwardDynamicsData<Tree, MaxOrder, Scalar>& data,
                                const ForwardDynamicsInput<Tree, MaxOrder, Scalar>& input,
                                InverseTopOrder<Tree, Scalar>& top, int order) noexcept {
  return forward_inverse_dynamics(
      model, data, input, top, detail::NoTopCommand{},
      static_cast<const ExternalLoads<Tree, MaxOrder, Scalar>*>(nullptr), order);
}

/// The articulated inertia M^A_j (eq. 23) of the last successful forward or
/// hybrid dynamics call on `data`, order-free (Lemma 2). Body 0 (the base)
/// comes in the world frame, spatial, as eq. 23 and the mass matrix use it;
/// body j ≥ 1 in its joint frame B_j (origin on joint j's axis, axes fixed to
/// the body and parallel to the world at home; see
/// detail/joint_frame_articulated.hpp). Assembled on request from the
/// workspace, so the dynamics calls do not pay for dense 6x6 copies nobody
/// reads. `kInvalidArgument` and a zero `out` for a body index out of range
/// or when `data` holds no successful call.
template <class Tree, int MaxOrder, class Scalar>
Status articulated_inertia(const ForwardDynamicsData<Tree, MaxOrder, Scalar>& data, int body,
                           Matrix6<Scalar>& out) noexcept {
  out.setZero();
  if (data.order < 0 || body < 0 || body >= Tree::kNumBodies) return Status::kInvalidArgument;
  const auto& ws = data.workspace;
  const auto& m = ws.body[static_cast<std::size_t>(body)].inertia;
  if (body > 0) {
    m.to_matrix(out);
    return Status::kOk;
  }
  // The base's M^A in the world frame: Ad_{P_0}⁻ᵀ M^A Ad_{P_0}⁻¹, P_0 = T(x) R.
  const detail::M3<Scalar>& r0 = ws.base_frame.rotation[0];
  detail::Inertia6<Scalar> w;
  detail::rotate_general(m.a, r0, w.a);
  detail::rotate_general(m.b, r0, w.b);
  detail::rotate_general(m.c, r0, w.c);
  detail::translate_inertia(w, ws.base_frame.origin[0]);
  w.to_matrix(out);
  return Status::kOk;
}

/// Hybrid dynamics of orders 0..order (`loads` may be null).
template <class Tree, int MaxOrder, class Scalar>
Status hybrid_dynamics(const Model<Tree, Scalar>& model,
                       HybridDynamicsData<Tree, MaxOrder, Scalar>& data,
                       const HybridDynamicsInput<Tree, MaxOrder, Scalar>& input,
                       const ExternalLoads<Tree, MaxOrder, Scalar>* loads, int order) noexcept {
  return detail::articulated_body_dynamics<true>(model, data, input, &input, loads, order);
}

template <class Tree, int MaxOrder, class Scalar>
Status hybrid_dynamics(const Model<Tree, Scalar>& model,
                       HybridDynamicsData<Tree, MaxOrder, Scalar>& data,
                       const HybridDynamicsInput<Tree, MaxOrder, Scalar>& input,
                       int order) noexcept {
  return hybrid_dynamics(model, data, input,
                         static_cast<const ExternalLoads<Tree, MaxOrder, Scalar>*>(nullptr), order);
}

HODYN_ISA_NAMESPACE_END
}  // namespace hodyn
