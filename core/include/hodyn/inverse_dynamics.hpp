// hodyn/inverse_dynamics.hpp — higher-order inverse dynamics of a floating-base
// tree (H-GRNE-FBS, seed 000 Alg. 1-2, App. E eqs. 61-70).
//
// Given the base pose C₁, the base twist derivatives V₁^(0..r+1) (a fixed-base
// tree ignores them: its root stays at its mount, detail/root_motion.hpp) and the joint
// derivatives q^(0..r+2) (plus, optionally, applied wrenches and external joint
// torques with derivatives 0..r), one call computes for every k = 0..r:
//   base_wrench[k]       Q₁^(k): the spatial propulsion wrench (world axes,
//                        moment about the world origin) that realises the motion
//                        (fixed base: the wrench the mount exerts on body 0),
//   base_wrench_body[k]  dᵏ/dtᵏ (Ad_C₁ᵀ Q₁): the same wrench in the base frame,
//   joint_torque[k]      τ^(k) = Σ_i C(k,i) (S_j^(k−i))ᵀ W_j^(i) − τ_ext^(k),
//                        positive about the joint axis as set (joint sense, model.hpp).
// At the home pose at rest, base_wrench[0] = (0,0,0, 0,0, m_total g).
//
// Internally the recursions run on Taylor coefficients (see
// detail/series_recursions.hpp) in body-fixed joint frames
// (detail/joint_frame_recursions.hpp): for orders ≥ 1 in double or float on a
// SIMD target with the coefficients of each quantity in one vector
// (detail/joint_frame_lanes.hpp), otherwise — order 0, other scalar types,
// applied body or world wrenches, Cortex-M — in scalar kernels compiled for
// each order up to 3. Cost O(N r²); no heap, no exceptions; bad input gives a
// Status and zero outputs.
#pragma once

#include <array>

#include "hodyn/detail/applied_loads.hpp"
#include "hodyn/detail/coefficient_lanes.hpp"
#include "hodyn/detail/compile_time.hpp"
#include "hodyn/detail/isa.hpp"
#include "hodyn/detail/joint_frame_lanes.hpp"
#include "hodyn/detail/joint_frame_recursions.hpp"
#include "hodyn/detail/moving_frame.hpp"
#include "hodyn/detail/series_recursions.hpp"
#include "hodyn/detail/sine_cosine.hpp"
#include "hodyn/detail/small_algebra.hpp"
#include "hodyn/detail/validation.hpp"
#include "hodyn/model.hpp"
#include "hodyn/motion.hpp"
#include "hodyn/status.hpp"
#include "hodyn/tree.hpp"

namespace hodyn {
HODYN_ISA_NAMESPACE_BEGIN

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

  // ---- workspace (Taylor coefficients, joint frames) ----
  std::array<detail::JointFrameSeries<MaxOrder, Scalar>, kNumBodies> body{};
  std::array<std::array<Scalar, MaxOrder + 1>, kNumBodies> torque{};  ///< τ_j,[k]
  detail::MovingFrame<MaxOrder, Scalar> base_frame{};  ///< P₀(t) = C₁(t) (A⁰_0)⁻¹
  std::array<detail::SV<Scalar>, MaxOrder + 2> base_series{};
  std::array<detail::V3<Scalar>, MaxOrder + 1> scratch{};
  detail::LaneWorkspace<Tree, MaxOrder, Scalar> lanes{};  ///< coefficient lanes (orders ≥ 1)
  detail::JointSineCosine<Scalar, kNumBodies> joint_sine_cosine{};  ///< cos q_j, sin q_j

  InverseDynamicsData() { clear_results(); }
  void clear_results() {
    for (auto& w : base_wrench) w.setZero();
    for (auto& w : base_wrench_body) w.setZero();
    for (auto& t : joint_torque) t.setZero();
    order = -1;
  }
};

HODYN_ISA_NAMESPACE_END
namespace detail {
HODYN_ISA_NAMESPACE_BEGIN

template <class Tree, int MaxOrder, class Scalar>
Status check_inverse_dynamics_input(const MotionDerivatives<Tree, MaxOrder, Scalar>& motion,
                                    const ExternalLoads<Tree, MaxOrder, Scalar>* loads, int order) {
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

/// Converts the coefficients of the joint-frame recursions into the results:
/// Q₁^(k) = k! (Ad_{P₀}⁻ᵀ f₀)_[k], (Ad_C₁ᵀ Q₁)^(k) = k! Ad_{A⁰_0}ᵀ f₀,[k],
/// τ^(k) = k! τ_[k] − τ_ext^(k).
template <class Tree, int MaxOrder, class Scalar>
void write_inverse_dynamics_results(int r, const Model<Tree, Scalar>& model,
                                    InverseDynamicsData<Tree, MaxOrder, Scalar>& data,
                                    const ExternalLoads<Tree, MaxOrder, Scalar>* loads) {
  using S = Scalar;
  const Pose<S>& a0 = model.home_pose(0);
  const auto& f0 = data.body[0].wrench;
  for (int k = 0; k <= r; ++k) {
    const S scale = factorial<S>(k);
    data.base_wrench[k] = (scale * data.base_frame.to_world(k, f0)).eigen();
    data.base_wrench_body[k] = scale * coadjoint(a0, Wrench<S>(f0[k].eigen()));
    for_each_joint<Tree>([&](auto kind, int j) {
      const int entry = TreeTraits<Tree>::joint_entry(j);
      if constexpr (is_universal(decltype(kind)::value)) {
        // τ₁ from the intermediate frame (torque), τ₂ = e₂ · f_ang in the child's
        const V3<S>& n = data.body[j].wrench[k].ang;
        data.joint_torque[k](entry) = scale * data.torque[j][k];
        data.joint_torque[k](entry + 1) = scale * dot(V3<S>::from(model.joint_second_axis(j)), n);
      } else if constexpr (is_spherical(decltype(kind)::value)) {  // τ_j = f_ang (ball: S = [1; 0])
        const V3<S>& n = data.body[j].wrench[k].ang;
        data.joint_torque[k].template segment<3>(entry) << scale * n.x, scale * n.y, scale * n.z;
      } else {  // τ_j = s_j τ_θ,j (joint sense, model.hpp)
        data.joint_torque[k](entry) = scale * (model.joint_sense(j) * data.torque[j][k]);
      }
    });
    if (loads != nullptr) data.joint_torque[k] -= loads->joint_torque[k];
  }
}

/// Runs the scalar joint-frame recursions (FixedOrder ≥ 0: compiled for that order).
template <int FixedOrder, class Tree, int MaxOrder, class Scalar>
void inverse_dynamics_kernel(int order, const Model<Tree, Scalar>& model,
                             InverseDynamicsData<Tree, MaxOrder, Scalar>& data,
                             const MotionDerivatives<Tree, MaxOrder, Scalar>& motion,
                             const ExternalLoads<Tree, MaxOrder, Scalar>* loads) {
  const int r = FixedOrder >= 0 ? FixedOrder : order;
  data.joint_sine_cosine.compute(
      [&](int j) { return model.joint_sense(j) * motion.q[0](TreeTraits<Tree>::joint_entry(j)); });
  joint_frame_inverse_dynamics<FixedOrder>(r, model, data.body, data.torque, data.base_frame,
                                           data.base_series, data.scratch, data.joint_sine_cosine,
                                           motion, loads);
  write_inverse_dynamics_results(r, model, data, loads);
}

template <class Tree, int MaxOrder, class Scalar>
bool has_applied_wrenches(const ExternalLoads<Tree, MaxOrder, Scalar>* loads) {
  if (loads == nullptr) return false;
  for (int j = 0; j < Tree::kNumBodies; ++j)
    if (loads->has_world_wrench[j] || loads->has_body_wrench[j]) return true;
  return false;
}

/// Runs the coefficient-lane kernel compiled for `order` (see the file
/// comment); false where the scalar kernels must run: order 0, an order whose
/// lanes do not fit one register of the target, applied body/world wrenches.
template <int Order, class Tree, int MaxOrder, class Scalar>
bool dispatch_lane_kernel(int order, const Model<Tree, Scalar>& model,
                          InverseDynamicsData<Tree, MaxOrder, Scalar>& data,
                          const MotionDerivatives<Tree, MaxOrder, Scalar>& motion,
                          const ExternalLoads<Tree, MaxOrder, Scalar>* loads) {
#if HODYN_COEFFICIENT_LANES
  if constexpr (Order <= LaneWorkspace<Tree, MaxOrder, Scalar>::kMaxOrder) {
    if constexpr (Order == 1) {
      if (order < 1 || has_applied_wrenches(loads)) return false;
    }
    if (order == Order) {
      joint_frame_inverse_dynamics_lanes<lane_width(Order), Order>(order, model, data, motion,
                                                                   loads);
      return true;
    }
    return dispatch_lane_kernel<Order + 1>(order, model, data, motion, loads);
  }
#endif
  (void)order, (void)model, (void)data, (void)motion, (void)loads;
  return false;
}

/// The highest order the lane kernel serves for this tree, workspace and
/// scalar on this target (0: none), whatever the loads but applied wrenches.
template <class Tree, int MaxOrder, class Scalar>
constexpr int lane_served_order() {
#if HODYN_COEFFICIENT_LANES
  return LaneWorkspace<Tree, MaxOrder, Scalar>::kMaxOrder;
#else
  return 0;
#endif
}

/// Runs the kernel compiled for `order` when order ≤ kMaxFixedOrder (every
/// Cauchy product unrolled, the lane arrays in registers), else the kernel
/// with a run-time order. kNoLoads: the caller passed no loads, so the lane
/// kernel serves orders 1..lane_served_order() and their scalar kernels are
/// not compiled at all (about a fifth of the compile time of a call, measured).
inline constexpr int kMaxFixedOrder = 3;
template <int Order, bool kNoLoads, class Tree, int MaxOrder, class Scalar>
void dispatch_inverse_dynamics_kernel(int order, const Model<Tree, Scalar>& model,
                                      InverseDynamicsData<Tree, MaxOrder, Scalar>& data,
                                      const MotionDerivatives<Tree, MaxOrder, Scalar>& motion,
                                      const ExternalLoads<Tree, MaxOrder, Scalar>* loads) {
  constexpr int lanes = lane_served_order<Tree, MaxOrder, Scalar>();
  if constexpr (Order > MaxOrder) {
    (void)order, (void)model, (void)data, (void)motion, (void)loads;
  } else if constexpr (kNoLoads && Order >= 1 && Order <= lanes) {
    dispatch_inverse_dynamics_kernel<lanes + 1, kNoLoads>(order, model, data, motion, loads);
  } else if constexpr (Order > kMaxFixedOrder) {
    inverse_dynamics_kernel<-1>(order, model, data, motion, loads);
  } else {
    if (order == Order)
      inverse_dynamics_kernel<Order>(Order, model, data, motion, loads);
    else
      dispatch_inverse_dynamics_kernel<Order + 1, kNoLoads>(order, model, data, motion, loads);
  }
}

/// The body of both public overloads (kNoLoads: `loads` is null by type).
template <bool kNoLoads, class Tree, int MaxOrder, class Scalar>
Status run_inverse_dynamics(const Model<Tree, Scalar>& model,
                            InverseDynamicsData<Tree, MaxOrder, Scalar>& data,
                            const MotionDerivatives<Tree, MaxOrder, Scalar>& motion,
                            const ExternalLoads<Tree, MaxOrder, Scalar>* loads, int order) {
  const Status input = check_inverse_dynamics_input(motion, loads, order);
  if (input != Status::kOk) {
    data.clear_results();
    return input;
  }
  if (!dispatch_lane_kernel<1>(order, model, data, motion, loads))
    dispatch_inverse_dynamics_kernel<0, kNoLoads>(order, model, data, motion, loads);
  if (!results_finite(data, order)) {
    data.clear_results();
    return Status::kNonFiniteResult;
  }
  data.order = order;
  return Status::kOk;
}

HODYN_ISA_NAMESPACE_END
}  // namespace detail
HODYN_ISA_NAMESPACE_BEGIN

/// Inverse dynamics of orders 0..order with applied loads (`loads` may be null).
template <class Tree, int MaxOrder, class Scalar>
Status inverse_dynamics(const Model<Tree, Scalar>& model,
                        InverseDynamicsData<Tree, MaxOrder, Scalar>& data,
                        const MotionDerivatives<Tree, MaxOrder, Scalar>& motion,
                        const ExternalLoads<Tree, MaxOrder, Scalar>* loads, int order) noexcept {
  return detail::run_inverse_dynamics<false>(model, data, motion, loads, order);
}

/// Inverse dynamics of orders 0..order without applied loads.
template <class Tree, int MaxOrder, class Scalar>
Status inverse_dynamics(const Model<Tree, Scalar>& model,
                        InverseDynamicsData<Tree, MaxOrder, Scalar>& data,
                        const MotionDerivatives<Tree, MaxOrder, Scalar>& motion,
                        int order) noexcept {
  return detail::run_inverse_dynamics<true>(
      model, data, motion, static_cast<const ExternalLoads<Tree, MaxOrder, Scalar>*>(nullptr),
      order);
}

HODYN_ISA_NAMESPACE_END
}  // namespace hodyn
