// hodyn/inverse_dynamics.hpp — higher-order inverse dynamics of a floating-base
// tree (H-GRNE-FBS, seed 000 Alg. 1-2, App. E eqs. 61-70).
//
// Given the base pose C₁, the base twist derivatives V₁^(0..r+1) and the joint
// derivatives q^(0..r+2) (plus, optionally, applied wrenches and external joint
// torques with derivatives 0..r), one call computes for every k = 0..r:
//   base_wrench[k]       Q₁^(k): the spatial propulsion wrench (world axes,
//                        moment about the world origin) that realises the motion,
//   base_wrench_body[k]  dᵏ/dtᵏ (Ad_C₁ᵀ Q₁): the same wrench in the base frame,
//   joint_torque[k]      τ^(k) = Σ_i C(k,i) (S_j^(k−i))ᵀ W_j^(i) − τ_ext^(k).
// At the home pose at rest, base_wrench[0] = (0,0,0, 0,0, m_total g).
//
// Internally the recursions run on Taylor coefficients (see
// detail/series_recursions.hpp) in a kernel compiled for each order up to
// MaxOrder, so every sum is unrolled. Cost O(N r²); no heap, no exceptions;
// bad input gives a Status and zero outputs.
#pragma once

#include <array>

#include "hodyn/detail/applied_loads.hpp"
#include "hodyn/detail/compile_time.hpp"
#include "hodyn/detail/series_recursions.hpp"
#include "hodyn/detail/small_algebra.hpp"
#include "hodyn/detail/moving_frame.hpp"
#include "hodyn/detail/validation.hpp"
#include "hodyn/model.hpp"
#include "hodyn/motion.hpp"
#include "hodyn/status.hpp"
#include "hodyn/tree.hpp"

namespace hodyn {

/// Workspace and results of `inverse_dynamics` (fixed size, reusable).
template <class Tree, int MaxOrder, class Scalar = double>
struct InverseDynamicsData {
  static constexpr int kNumBodies = Tree::kNumBodies;
  static constexpr int kMaxOrder = MaxOrder;
  using JointVector = typename Model<Tree, Scalar>::JointVector;

  // ---- results, entries 0..order ----
  std::array<Wrench<Scalar>, MaxOrder + 1> base_wrench{};       ///< Q₁^(k), world frame
  std::array<Wrench<Scalar>, MaxOrder + 1> base_wrench_body{};  ///< (Ad_C₁ᵀ Q₁)^(k), base frame
  std::array<JointVector, MaxOrder + 1> joint_torque{};         ///< τ^(k)
  int order = -1;  ///< order of the last successful call, −1 if none

  // ---- workspace (Taylor coefficients) ----
  std::array<detail::BodySeries<MaxOrder, Scalar>, kNumBodies> body{};
  /// W_j,[k]: wrench exerted on body j by its parent through joint j (on the
  /// base: by the propellers), world frame.
  std::array<std::array<detail::SV<Scalar>, MaxOrder + 1>, kNumBodies> joint_wrench{};
  detail::MovingFrame<MaxOrder, Scalar> base_frame{};  ///< the base pose C₁(t)

  InverseDynamicsData() { clear_results(); }
  void clear_results() {
    for (auto& w : base_wrench) w.setZero();
    for (auto& w : base_wrench_body) w.setZero();
    for (auto& t : joint_torque) t.setZero();
    order = -1;
  }
};

namespace detail {

template <class Tree, int MaxOrder, class Scalar>
Status check_inverse_dynamics_input(const MotionDerivatives<Tree, MaxOrder, Scalar>& motion,
                                    const ExternalLoads<Tree, MaxOrder, Scalar>* loads, int order) {
  if (order < 0 || order > MaxOrder) return Status::kOrderOutOfRange;
  const Status pose = check_pose(motion.base_pose);
  if (pose != Status::kOk) return pose;
  for (int k = 0; k <= order + 1; ++k)
    if (!all_finite(motion.base_twist[k])) return Status::kNonFiniteInput;
  for (int k = 0; k <= order + 2; ++k)
    if (!all_finite(motion.q[k])) return Status::kNonFiniteInput;
  if (loads != nullptr && !loads_finite(*loads, order)) return Status::kNonFiniteInput;
  return Status::kOk;
}

template <class Tree, int MaxOrder, class Scalar>
bool results_finite(const InverseDynamicsData<Tree, MaxOrder, Scalar>& data, int order) {
  for (int k = 0; k <= order; ++k)
    if (!all_finite(data.base_wrench[k]) || !all_finite(data.base_wrench_body[k]) ||
        !all_finite(data.joint_torque[k]))
      return false;
  return true;
}

/// The passes of Alg. 1-2 for a compile-time order R (all sums unrolled).
template <int FixedOrder, class Tree, int MaxOrder, class Scalar>
void inverse_dynamics_kernel(int order, const Model<Tree, Scalar>& model,
                             InverseDynamicsData<Tree, MaxOrder, Scalar>& data,
                             const MotionDerivatives<Tree, MaxOrder, Scalar>& motion,
                             const ExternalLoads<Tree, MaxOrder, Scalar>* loads) {
  using S = Scalar;
  // A compile-time order lets the compiler unroll every sum (small orders);
  // FixedOrder < 0 keeps compact loops (larger orders, less code).
  const int r = FixedOrder >= 0 ? FixedOrder : order;
  const V3<S> g = V3<S>::from(model.gravity());

  // ---- forward pass: kinematics to order R+1 and each body's own wrench ----
  auto& base = data.body[0];
  place_base(model, motion.base_pose, base);
  for (int k = 0; k < r + 2; ++k) {
    base.twist[k] = inverse_factorial<S>(k) * SV<S>::from(motion.base_twist[k]);
    base.com[k + 1] = point_next_coefficient(k, base.twist, base.com);
    if (k <= r) inertia_next_coefficient(k, base);
  }
  for (int k = 0; k < r + 1; ++k) {
    data.joint_wrench[0][k] = own_wrench_coefficient(k, model.mass(0), g, base);
  }

  for_each_joint<Tree>([&](auto kind, int j) {
    constexpr JointKind K = decltype(kind)::value;
    const auto& parent = data.body[Tree::kParent[j]];
    auto& b = data.body[j];
    // Taylor coefficient n of q̇_j is q^(n+1)/n!.
    const auto qd = [&](int n) -> S { return inverse_factorial<S>(n) * motion.q[n + 1](j - 1); };
    place_body<K>(model, j, parent, motion.q[0](j - 1), b);
    for (int k = 0; k < r + 2; ++k) {
      if (k > 0) screw_coefficient<K>(k, b);
      twist_coefficient<K>(k, parent.twist[k], qd, b);
      b.com[k + 1] = point_next_coefficient(k, b.twist, b.com);
      if (k <= r) inertia_next_coefficient(k, b);
    }
    for (int k = 0; k < r + 1; ++k) {
      data.joint_wrench[j][k] = own_wrench_coefficient(k, model.mass(j), g, b);
    }
  });

  if (loads != nullptr) {
    std::array<SV<S>, MaxOrder + 1> applied{};
    for (int j = 0; j < Tree::kNumBodies; ++j) {
      if (!loads->has_world_wrench[j] && !loads->has_body_wrench[j]) continue;
      applied_wrench_coefficients(model, *loads, j, r, data.body[j], applied);
      for (int k = 0; k <= r; ++k) data.joint_wrench[j][k] -= applied[k];
    }
  }

  // ---- backward pass: children's wrenches into parents, joint torques ----
  for_each_joint_reverse<Tree>([&](auto, int j) {
    const int p = Tree::kParent[j];
    const auto& b = data.body[j];
    const auto& w = data.joint_wrench[j];
    for (int k = 0; k < r + 1; ++k) {
      S tau = dot(b.screw[0], w[k]);  // τ_[k] = Σ_i S_[i]·W_[k−i]
      for (int i = 1; i < k + 1; ++i) {
        tau += dot(b.screw[i], w[k - i]);
      }
      data.joint_torque[k](j - 1) = factorial<S>(k) * tau;
      data.joint_wrench[p][k] += w[k];
    }
  });
  if (loads != nullptr)
    for (int k = 0; k <= r; ++k) data.joint_torque[k] -= loads->joint_torque[k];

  // Q₁^(k) and its base-frame image (Ad_C₁ᵀ Q₁)^(k) (Table 5(b), any order).
  data.base_frame.start(M3<S>::from(motion.base_pose.rotation),
                        V3<S>::from(motion.base_pose.translation));
  for (int k = 0; k < r + 1; ++k) {
    const S scale = factorial<S>(k);
    data.base_wrench[k] = (scale * data.joint_wrench[0][k]).eigen();
    if (k > 0) data.base_frame.extend(k, base.twist);
    data.base_wrench_body[k] = (scale * data.base_frame.to_frame(k, data.joint_wrench[0])).eigen();
  }
}

}  // namespace detail

/// Inverse dynamics of orders 0..order with applied loads (`loads` may be null).
template <class Tree, int MaxOrder, class Scalar>
Status inverse_dynamics(const Model<Tree, Scalar>& model,
                        InverseDynamicsData<Tree, MaxOrder, Scalar>& data,
                        const MotionDerivatives<Tree, MaxOrder, Scalar>& motion,
                        const ExternalLoads<Tree, MaxOrder, Scalar>* loads, int order) noexcept {
  const Status input = detail::check_inverse_dynamics_input(motion, loads, order);
  if (input != Status::kOk) {
    data.clear_results();
    return input;
  }
  switch (order) {
    case 0: detail::inverse_dynamics_kernel<0>(0, model, data, motion, loads); break;
    case 1: detail::inverse_dynamics_kernel<1>(1, model, data, motion, loads); break;
    default: detail::inverse_dynamics_kernel<-1>(order, model, data, motion, loads); break;
  }
  if (!detail::results_finite(data, order)) {
    data.clear_results();
    return Status::kNonFiniteResult;
  }
  data.order = order;
  return Status::kOk;
}

/// Inverse dynamics of orders 0..order without applied loads.
template <class Tree, int MaxOrder, class Scalar>
Status inverse_dynamics(const Model<Tree, Scalar>& model,
                        InverseDynamicsData<Tree, MaxOrder, Scalar>& data,
                        const MotionDerivatives<Tree, MaxOrder, Scalar>& motion,
                        int order) noexcept {
  return inverse_dynamics(model, data, motion,
                          static_cast<const ExternalLoads<Tree, MaxOrder, Scalar>*>(nullptr),
                          order);
}

}  // namespace hodyn
