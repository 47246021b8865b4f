// hodyn/mass_matrix_times.hpp — the mass matrix times an acceleration at the
// configuration of a forward-dynamics call, without forming the matrix.
//
//   (W; τ) = M̄(C₁, q) (V̇₁; q̈)
//
// is inverse dynamics of order 0 at zero velocity and zero gravity (seed 000
// eq. 13 with V = 0, G = 0). A controller that has just run forward dynamics
// at the same state — the feedback-linearization step does, then maps the
// snap it wants to the wrench and torque rates, (Ẅ; τ̈) = M̄ (ν⃛ − ν⃛₀) — has
// every joint frame of that pass in its ForwardDynamicsData already: the
// joints' sines and cosines (or a ball's R), the base frame P₀. This call
// reuses them instead of running `inverse_dynamics` on a copy of the state,
// so it repeats neither the input checks nor the trigonometry, and it skips
// every velocity product, which are zero. It is the order-0 recursion in the
// joint frames of joint_frame_articulated.hpp:
//   ã₀ = Ad_{P₀}⁻¹ V̇₁,  ã_j = Ad_{X_j}⁻¹ ã_p + s_j q̈_j,
//   f_j = I_j ã_j + Σ_children Ad_{X_c}⁻ᵀ f_c,  τ_j = s_jᵀ f_j,
// and W = Ad_{A⁰₀}ᵀ f₀ in the base frame (as InverseDynamicsData's
// base_wrench_body).
#pragma once

#include <array>

#include "hodyn/detail/isa.hpp"
#include "hodyn/forward_dynamics.hpp"

namespace hodyn {
HODYN_ISA_NAMESPACE_BEGIN

/// base_wrench_body, joint_torque = M̄ (base_acceleration; joint_acceleration)
/// at the state of the last successful `forward_dynamics` or `hybrid_dynamics`
/// call on `data` (its model must be `model`; the masses and inertias are
/// read from `model`, so a payload changed since that call is seen, the
/// geometry is the call's).
///
///   base_acceleration   V̇₁, spatial (world axes, like MotionDerivatives'
///                       base_twist[1]); ignored for a fixed-base tree
///   joint_acceleration  q̈ (a ball: ω̇ in its child's frame; a universal
///                       joint: θ̈₁, θ̈₂, through its intermediate frame)
///   base_wrench_body    the base wrench in the base frame (Ad_C₁ᵀ Q₁); for a
///                       fixed-base tree the mount's reaction
///   joint_torque        τ
///
/// kInvalidArgument when `data` holds no successful call, kNonFiniteInput
/// for a NaN or Inf in the accelerations, kNonFiniteResult on overflow; on
/// any of them both outputs are zero. No allocation, no trigonometry.
template <class Tree, int MaxOrder, class Scalar>
Status mass_matrix_times(const Model<Tree, Scalar>& model,
                         const ForwardDynamicsData<Tree, MaxOrder, Scalar>& data,
                         const Twist<Scalar>& base_acceleration,
                         const typename Model<Tree, Scalar>::JointVector& joint_acceleration,
                         Wrench<Scalar>& base_wrench_body,
                         typename Model<Tree, Scalar>::JointVector& joint_torque) noexcept {
  using S = Scalar;
  using detail::SV;
  using detail::V3;
  constexpr int n = Tree::kNumBodies;
  const auto fail = [&](Status s) {
    base_wrench_body.setZero();
    joint_torque.setZero();
    return s;
  };
  if (data.order < 0) return fail(Status::kInvalidArgument);
  if (!detail::all_finite(base_acceleration) || !detail::all_finite(joint_acceleration))
    return fail(Status::kNonFiniteInput);

  const auto& ws = data.workspace;
  const auto& body = ws.body;
  std::array<SV<S>, n> accel{};   // ã_j, joint frame j
  std::array<SV<S>, n> wrench{};  // f_j, joint frame j
  // f = I ã for the rigid body j.
  const auto rigid_wrench = [&](int j, const SV<S>& a) -> SV<S> {
    return detail::rigid_inertia_times(model.mass(j), V3<S>::from(model.local_com(j)),
                                       model.home_inertia(j), a);
  };
  if constexpr (!TreeTraits<Tree>::kFixedBase) {  // ã₀ = Ad_{P₀}⁻¹ V̇₁
    const SV<S> v = SV<S>::from(base_acceleration);
    const auto& r0 = ws.base_frame.rotation[0];
    const auto& x0 = ws.base_frame.origin[0];
    accel[0] = {r0.transpose_times(v.ang), r0.transpose_times(v.lin - cross(x0, v.ang))};
  }
  wrench[0] = rigid_wrench(0, accel[0]);
  for_each_joint<Tree>([&](auto kind, int j) {
    constexpr JointKind K = decltype(kind)::value;
    const auto& b = body[j];
    const V3<S> d = V3<S>::from(model.local_offset(j));
    const V3<S> e = V3<S>::from(model.joint_axis(j));
    const int entry = TreeTraits<Tree>::joint_entry(j);
    const SV<S>& ap = accel[Tree::kParent[j]];
    SV<S> a;
    if constexpr (is_spherical(K)) {
      a = detail::ball_twist_to_child(
          ws.ball[static_cast<std::size_t>(detail::ball_index<Tree>(j))], d, ap);
      a.ang += V3<S>{joint_acceleration(entry), joint_acceleration(entry + 1),
                     joint_acceleration(entry + 2)};
    } else if constexpr (is_universal(K)) {  // through the intermediate frame m
      const auto& un = ws.universal[static_cast<std::size_t>(detail::universal_index<Tree>(j))];
      SV<S> am = detail::twist_to_child<JointKind::kRevolute>(b, d, e, ap);
      am.ang += (model.joint_sense(j) * joint_acceleration(entry)) * e;
      const V3<S> e2 = V3<S>::from(model.joint_second_axis(j));
      a = detail::universal_twist_to_child(un, e2, am);
      a.ang += joint_acceleration(entry + 1) * e2;
    } else {
      a = detail::twist_to_child<K>(b, d, e, ap);
      detail::add_screw<K>(e, model.joint_sense(j) * joint_acceleration(entry), a,
                           detail::pitch_axis<K>(model, j));
    }
    accel[j] = a;
    wrench[j] = rigid_wrench(j, a);
  });
  for_each_joint_reverse<Tree>([&](auto kind, int j) {
    constexpr JointKind K = decltype(kind)::value;
    const auto& b = body[j];
    const V3<S> d = V3<S>::from(model.local_offset(j));
    const V3<S> e = V3<S>::from(model.joint_axis(j));
    const int entry = TreeTraits<Tree>::joint_entry(j);
    const SV<S>& f = wrench[j];
    SV<S>& parent = wrench[Tree::kParent[j]];
    if constexpr (is_spherical(K)) {  // τ = f_ang; the parent gets R f moved by d
      const auto& r = ws.ball[static_cast<std::size_t>(detail::ball_index<Tree>(j))].rotation[0];
      joint_torque(entry) = f.ang.x;
      joint_torque(entry + 1) = f.ang.y;
      joint_torque(entry + 2) = f.ang.z;
      SV<S> w{r * f.ang, r * f.lin};
      w.ang += cross(d, w.lin);
      parent += w;
    } else if constexpr (is_universal(K)) {  // τ₂ = e₂ · f, f_m = Rot₂ f, τ₁ = e₁ · f_m
      const auto& un = ws.universal[static_cast<std::size_t>(detail::universal_index<Tree>(j))];
      const V3<S> e2 = V3<S>::from(model.joint_second_axis(j));
      const SV<S> fm = detail::universal_wrench_to_m(un, e2, f);
      joint_torque(entry) = model.joint_sense(j) * dot(e, fm.ang);
      joint_torque(entry + 1) = dot(e2, f.ang);
      parent += detail::wrench_to_parent<JointKind::kRevolute>(
          0, b, d, e, [&](int) -> const SV<S>& { return fm; });
    } else {
      joint_torque(entry) =
          model.joint_sense(j) * detail::screw_dot<K>(e, f, detail::pitch_axis<K>(model, j));
      parent += detail::wrench_to_parent<K>(0, b, d, e, [&](int) -> const SV<S>& { return f; });
    }
  });
  base_wrench_body = coadjoint(model.home_pose(0), Wrench<S>(wrench[0].eigen()));
  if (!detail::all_finite(base_wrench_body) || !detail::all_finite(joint_torque))
    return fail(Status::kNonFiniteResult);
  return Status::kOk;
}

HODYN_ISA_NAMESPACE_END
}  // namespace hodyn
