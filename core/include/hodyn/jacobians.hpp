// hodyn/jacobians.hpp — Jacobians of bodies and frames, their time
// derivatives of any order and their partial derivatives in q (seed 004 §VI,
// eqs. 26–32, for a floating base).
//
// With the generalized velocity ν = (V₁; q̇) — the spatial base twist, then
// the joint rates — every body's spatial twist is V_j = J_j ν (world), with
//   J_j = [ 1₆ | S_i for each joint i on the path from the base to j | 0 ],
// S_i = Ad_{F_i} Y_i the joint screws of forward_kinematics (kinematics.hpp).
// So J_j^(k) = [ δ_k0 1₆ | S_i^(k) ]: the derivatives of the columns are the
// screw derivatives the kinematics already hold (Ṡ_i = ad_{V_p(i)} S_i).
// The local (body) Jacobian expresses the twist in the body's own frame,
// V_j^b = Ad_{C_j}⁻¹ V_j = J_j^b ν, J_j^b = Ad_{C_j}⁻¹ J_j, and
// d/dt Ad_C⁻¹ X = Ad_C⁻¹ (Ẋ − ad_{V_j} X) gives its derivatives
// (kinematics.hpp: local_derivatives). Partials: ∂S_i/∂q_k = ad_{S_k} S_i
// when joint k lies strictly between the base and joint i, else 0.
//
// Every call reads a KinematicsData whose order covers the derivative asked
// (J^(k) needs order ≥ k − 1); a body index outside the tree, a frame that
// is not a rigid transform or a derivative out of range gives a Status and a
// zero matrix. Zero heap.
#pragma once

#include <array>

#include <Eigen/Core>

#include "hodyn/detail/isa.hpp"
#include "hodyn/kinematics.hpp"
#include "hodyn/status.hpp"
#include "hodyn/tree.hpp"

namespace hodyn {

/// 6 x (6 + n): maps ν = (V₁; q̇) to a twist; 6 x n for a fixed base (ν = q̇).
template <class Tree, class Scalar = double>
using JacobianMatrix = Eigen::Matrix<Scalar, 6, TreeTraits<Tree>::kNumDofs>;

/// True when joint i (of body i ≥ 1) moves body j: i is j or one of its ancestors.
template <class Tree>
constexpr bool joint_moves_body(int i, int j) {
  for (int b = j; b > 0; b = Tree::kParent[b])
    if (b == i) return true;
  return false;
}

namespace detail {
HODYN_ISA_NAMESPACE_BEGIN

template <class Tree, int MaxOrder, class Scalar>
bool jacobian_arguments_valid(const KinematicsData<Tree, MaxOrder, Scalar>& kinematics, int body,
                              int derivative) {
  return body >= 0 && body < Tree::kNumBodies && derivative >= 0 && kinematics.order >= 0 &&
         derivative <= kinematics.order + 1;
}

HODYN_ISA_NAMESPACE_END
}  // namespace detail
HODYN_ISA_NAMESPACE_BEGIN

/// J_j^(k), k = derivative: the spatial (world) Jacobian of body j or its k-th
/// time derivative; V_j^(k) = Σ C(k,i) J_j^(k−i) ν^(i).
template <class Tree, int MaxOrder, class Scalar>
Status spatial_jacobian(const KinematicsData<Tree, MaxOrder, Scalar>& kinematics, int body,
                        JacobianMatrix<Tree, Scalar>& jacobian, int derivative = 0) noexcept {
  if (!detail::jacobian_arguments_valid(kinematics, body, derivative)) {
    jacobian.setZero();
    return Status::kInvalidArgument;
  }
  // Every column written once: a screw on the path from the base to the
  // body, zero off it (zeroing the whole matrix first was a `rep stos` that
  // cost a third of the call on an AVX2 build).
  if constexpr (!TreeTraits<Tree>::kFixedBase) {
    if (derivative == 0)
      jacobian.template leftCols<6>().setIdentity();
    else
      jacobian.template leftCols<6>().setZero();
  }
  std::array<bool, Tree::kNumBodies> on_path{};
  for (int b = body; b > 0; b = Tree::kParent[b]) on_path[static_cast<std::size_t>(b)] = true;
  for (int b = 1; b < Tree::kNumBodies; ++b)
    detail::for_each_joint_screw(kinematics, b, [&](const auto& screw, int col) {
      if (on_path[static_cast<std::size_t>(b)])
        jacobian.col(col) = screw[static_cast<std::size_t>(derivative)];
      else
        jacobian.col(col).setZero();
    });
  return Status::kOk;
}

/// dᵏ/dtᵏ (Ad_C⁻¹ J_j) for the pose C = C_j X of a frame X fixed to body j
/// (X = identity: the body's own frame).
template <class Tree, int MaxOrder, class Scalar>
Status local_jacobian(const KinematicsData<Tree, MaxOrder, Scalar>& kinematics,
                      const BodyFrame<Scalar>& frame, JacobianMatrix<Tree, Scalar>& jacobian,
                      int derivative = 0) noexcept {
  jacobian.setZero();
  if (!detail::jacobian_arguments_valid(kinematics, frame.body, derivative) ||
      detail::check_pose(frame.placement) != Status::kOk)
    return Status::kInvalidArgument;
  const int j = frame.body;
  const Pose<Scalar> c = kinematics.body_pose[j] * frame.placement;
  const auto& v = kinematics.body_twist[j];
  std::array<Twist<Scalar>, MaxOrder + 2> x{}, work{}, y{};
  for (int col = 0; col < TreeTraits<Tree>::kBaseDofs; ++col) {  // constant unit columns
    for (auto& xm : x) xm.setZero();
    x[0](col) = Scalar(1);
    local_derivatives(c, v, x, derivative, work, y);
    jacobian.col(col) = y[derivative];
  }
  for (int b = j; b > 0; b = Tree::kParent[b])
    detail::for_each_joint_screw(kinematics, b, [&](const auto& screw, int col) {
      local_derivatives(c, v, screw, derivative, work, y);
      jacobian.col(col) = y[derivative];
    });
  return Status::kOk;
}

/// The local Jacobian of body j's own frame (the frame of Model::set_body).
template <class Tree, int MaxOrder, class Scalar>
Status local_jacobian(const KinematicsData<Tree, MaxOrder, Scalar>& kinematics, int body,
                      JacobianMatrix<Tree, Scalar>& jacobian, int derivative = 0) noexcept {
  BodyFrame<Scalar> frame;
  frame.body = body;
  return local_jacobian(kinematics, frame, jacobian, derivative);
}

/// ∂J_j/∂q_c of the spatial Jacobian by coordinate c of q (0 ≤ c <
/// kNumJointDofs, q[0]'s entries: a 1-DoF joint k is coordinate
/// joint_entry(k), a ball's three are its δ, R = R exp([δ]) at δ = 0). With S
/// the screw of c (a ball: its S_a, the child's axis a), every column of a
/// joint below c's joint is ad_S of its screw; a ball's own three columns
/// turn too, ad_{S_a} S_b (the right perturbation turns the child's axes),
/// while a 1-DoF joint's own column does not move (ad_S S = 0); a universal
/// joint's θ₁ turns its own S₂ (ad_{S₁} S₂), θ₂ neither of its columns. Any tree.
template <class Tree, int MaxOrder, class Scalar>
Status spatial_jacobian_coordinate_partial(const KinematicsData<Tree, MaxOrder, Scalar>& kinematics,
                                           int body, int coordinate,
                                           JacobianMatrix<Tree, Scalar>& partial) noexcept {
  using Traits = TreeTraits<Tree>;
  partial.setZero();
  if (!detail::jacobian_arguments_valid(kinematics, body, 0) || coordinate < 0 ||
      coordinate >= Traits::kNumJointDofs)
    return Status::kInvalidArgument;
  const int joint = Traits::dof_body(Traits::kBaseDofs + coordinate);
  const int axis = coordinate - Traits::joint_entry(joint);
  Twist<Scalar> sk = kinematics.joint_screw[joint][0];
  bool ball = false;
  if constexpr (Traits::kNumSphericalJoints > 0) {
    const int index = Traits::kSphericalIndex[static_cast<std::size_t>(joint)];
    if (index >= 0) {
      ball = true;
      sk =
          kinematics.ball_screw[static_cast<std::size_t>(index)][static_cast<std::size_t>(axis)][0];
    }
  }
  // A universal joint's θ₁ turns its own S₂ (ad_{S₁} S₂) but θ₂ not S₁: of
  // its own columns only those after the coordinate's move.
  bool universal = false;
  if constexpr (Traits::kNumUniversalJoints > 0) {
    const int index = Traits::kUniversalIndex[static_cast<std::size_t>(joint)];
    if (index >= 0) {
      universal = true;
      sk = kinematics
               .universal_screw[static_cast<std::size_t>(index)][static_cast<std::size_t>(axis)][0];
    }
  }
  const int own_column = Traits::kBaseDofs + coordinate;
  for (int b = body; b > 0; b = Tree::kParent[b])
    if ((b != joint || ball || universal) && joint_moves_body<Tree>(joint, b))
      detail::for_each_joint_screw(kinematics, b, [&](const auto& screw, int col) {
        if (universal && b == joint && col <= own_column) return;
        partial.col(col) = ad<Scalar>(sk, screw[0]);
      });
  return Status::kOk;
}

/// ∂J_j/∂q_k of the spatial Jacobian (joint k ≥ 1, entry k − 1 of q): column
/// of joint i is ad_{S_k} S_i when k is a proper ancestor joint of i, else 0
/// (the base block does not depend on q).
template <class Tree, int MaxOrder, class Scalar>
Status spatial_jacobian_partial(const KinematicsData<Tree, MaxOrder, Scalar>& kinematics, int body,
                                int joint, JacobianMatrix<Tree, Scalar>& partial) noexcept {
  static_assert(TreeTraits<Tree>::kSingleDofJoints,
                "spatial_jacobian_partial takes a joint; a tree with a ball or universal joint "
                "differentiates "
                "by a coordinate of q: spatial_jacobian_coordinate_partial (docs/kinematics.md)");
  if (joint < 1 || joint >= Tree::kNumBodies) {
    partial.setZero();
    return Status::kInvalidArgument;
  }
  // A 1-DoF joint is the one coordinate of q it owns.
  return spatial_jacobian_coordinate_partial(kinematics, body, TreeTraits<Tree>::joint_entry(joint),
                                             partial);
}

HODYN_ISA_NAMESPACE_END
}  // namespace hodyn
