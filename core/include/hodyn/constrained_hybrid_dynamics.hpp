// hodyn/constrained_hybrid_dynamics.hpp — hybrid dynamics of a tree closed by
// loop closures (seed 002 §3.3, eqs. 70–80), heap-free.
//
// Some coordinates of ν have their accelerations prescribed (u: the base when
// HybridDynamicsInput::base_input is kMotion, the joints with
// motion_prescribed), the others their forces (v). With the closures
// (constrained_dynamics.hpp for M̄, b, A, λ and the stabilisation):
//   (ν̇_vr, τ_ur) = hybrid dynamics of the tree              (eqs. 70–73, 77)
//   Y_v = M_vv⁻¹ A_vᵀ                                         (eqs. 74–75)
//   λ   = (A_v Y_v)⁻¹ (a* − A ν̇_r − Ȧ ν),  a* = −k_v A ν − k_p f   (eq. 76)
//   ν̇_v = ν̇_vr + Y_v λ                                        (eq. 80)
//   τ_u = τ_ur + M_uv Y_v λ − A_uᵀ λ                          (eq. 79)
// where ν̇_r has the prescribed ν̇_u in its u entries. seed 002 obtains Y_v with
// m "b-free" hybrid passes; here M_vv comes from the composite-rigid-body M̄
// (mass_matrix) and is factored once (n_v ≤ 64, a few hundred flops for the
// 12-DoF robot). With nothing prescribed this is constrained_forward_dynamics.
// It needs m ≤ n_v and A_v of full row rank (else kSingularConstraint; with
// m > n_v the prescribed ν̇_u must itself be consistent: use
// constrained_inverse_dynamics, digest §3.3). A ball joint is prescribed or
// free as a whole (its three entries of ν); its R_j is the input's
// joint_rotation, as for hybrid_dynamics. A universal joint likewise: both
// of its entries prescribed or both free (`motion_prescribed` of its body).
#pragma once

#include <array>
#include <cstddef>

#include <Eigen/Cholesky>
#include <Eigen/Core>

#include "hodyn/constrained_dynamics.hpp"
#include "hodyn/equations_of_motion.hpp"
#include "hodyn/forward_dynamics.hpp"

namespace hodyn {
HODYN_ISA_NAMESPACE_BEGIN

/// Workspace and results of constrained hybrid dynamics.
template <class Tree, std::size_t NumClosures, class Scalar = double>
struct ConstrainedHybridDynamicsData {
  static constexpr int kDofs = TreeTraits<Tree>::kNumDofs;
  static constexpr int kMaxRows = LoopClosureData<Tree, NumClosures, 0, Scalar>::kRowCapacity;
  using Closure = LoopClosureData<Tree, NumClosures, 0, Scalar>;
  using Vector = Eigen::Matrix<Scalar, kDofs, 1>;
  using Multipliers = typename Closure::Vector;
  using Square = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic, 0, kDofs, kDofs>;

  // ---- results ----
  MotionDerivatives<Tree, 0, Scalar> motion{};  ///< the state with V̇₁ and q̈ (as forward dynamics)
  Vector acceleration = Vector::Zero();         ///< ν̇ (u entries: as prescribed)
  Vector generalized_force = Vector::Zero();  ///< τ̄ = (Q₁ world; τ) (v entries: as given)
  Multipliers multiplier{};                   ///< λ
  Multipliers constraint_acceleration{};      ///< A ν̇ + Ȧ ν = −k_v A ν − k_p f

  // ---- workspace ----
  Closure closure{};
  KinematicsData<Tree, 0, Scalar> kinematics{};
  HybridDynamicsData<Tree, 0, Scalar> hybrid{};
  EquationsOfMotionData<Tree, Scalar> equations{};
  std::array<int, kDofs> free_index{};  ///< the v entries of ν, in order
  Square free_block{};                  ///< M_vv
  Eigen::LLT<Square> free_factor{};
  Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic, 0, kDofs, kMaxRows> mobility{};  ///< Y_v
  Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic, 0, kMaxRows, kMaxRows> operational{};
  Eigen::LLT<Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic, 0, kMaxRows, kMaxRows>>
      operational_factor{};

  ConstrainedHybridDynamicsData() { clear_results(); }
  void clear_results() {
    motion = MotionDerivatives<Tree, 0, Scalar>{};
    acceleration.setZero();
    generalized_force.setZero();
    multiplier.resize(0);
    constraint_acceleration.resize(0);
  }
};

/// Hybrid dynamics of the closed system at order 0 (see the file comment);
/// `input` as for hybrid_dynamics (entries 0 of its lists); `loads` may be null.
template <std::size_t NumClosures, class Tree, class Scalar>
Status constrained_hybrid_dynamics(
    const Model<Tree, Scalar>& model, const std::array<LoopClosure<Scalar>, NumClosures>& closures,
    const HybridDynamicsInput<Tree, 0, Scalar>& input, const ExternalLoads<Tree, 0, Scalar>* loads,
    const ConstraintStabilization<Scalar>& stabilization,
    ConstrainedHybridDynamicsData<Tree, NumClosures, Scalar>& data) noexcept {
  using Data = ConstrainedHybridDynamicsData<Tree, NumClosures, Scalar>;
  constexpr int kDofs = Data::kDofs;
  constexpr int kBase = TreeTraits<Tree>::kBaseDofs;
  constexpr int kJointDofs = TreeTraits<Tree>::kNumJointDofs;  // entries of q̇
  data.clear_results();
  const auto fail = [&](Status s) {
    data.clear_results();
    return s;
  };
  if (!stabilization.finite()) return fail(Status::kNonFiniteInput);
  Status s = hybrid_dynamics(model, data.hybrid, input, loads, 0);
  if (s != Status::kOk) return fail(s);
  // ν̇_r and τ̄_r of the tree; which entries are free (v).
  typename Data::Vector acceleration, force;
  std::array<bool, kDofs> prescribed{};
  const auto& hm = data.hybrid.motion;
  if constexpr (kBase > 0) {
    acceleration.template head<6>() = hm.base_twist[1];
    force.template head<6>() = data.hybrid.base_wrench[0];
    for (int l = 0; l < 6; ++l)
      prescribed[static_cast<std::size_t>(l)] = input.base_input == BaseInput::kMotion;
  }
  for (int e = 0; e < kJointDofs; ++e) {  // entry e of q̇ belongs to body dof_body(kBase + e)
    acceleration(kBase + e) = hm.q[2](e);
    force(kBase + e) = data.hybrid.joint_torque[0](e);
    // The body's index among the joints (e itself with 1-DoF joints only).
    int joint = e;
    if constexpr (!TreeTraits<Tree>::kSingleDofJoints)
      joint = TreeTraits<Tree>::dof_body(kBase + e) - 1;
    prescribed[static_cast<std::size_t>(kBase + e)] =
        input.motion_prescribed[static_cast<std::size_t>(joint)];
  }
  int free_count = 0;
  for (int l = 0; l < kDofs; ++l)
    if (!prescribed[static_cast<std::size_t>(l)])
      data.free_index[static_cast<std::size_t>(free_count++)] = l;
  // A, Ȧ ν (ν̇ = 0), A ν and f.
  auto& motion = data.motion;
  detail::set_state(input, motion);
  s = forward_kinematics(model, data.kinematics, motion, 0);
  if (s != Status::kOk) return fail(s);
  auto& closure = data.closure;
  s = loop_closure_kinematics(data.kinematics, closures, closure, 0);
  if (s != Status::kOk) return fail(s);
  const int m = closure.rows;
  if (m > free_count) return fail(Status::kSingularConstraint);
  const auto& a = closure.jacobian[0];
  if constexpr (TreeTraits<Tree>::kSingleDofJoints)
    s = mass_matrix(model, data.equations, input.base_pose, input.q);
  else
    s = mass_matrix(model, data.equations, motion);  // base_pose, q and the balls' R_j
  if (s != Status::kOk) return fail(s);
  const auto& mass = data.equations.result.mass_matrix;
  auto& mvv = data.free_block;
  mvv.resize(free_count, free_count);
  for (int i = 0; i < free_count; ++i)
    for (int k = 0; k < free_count; ++k)
      mvv(i, k) = mass(data.free_index[static_cast<std::size_t>(i)],
                       data.free_index[static_cast<std::size_t>(k)]);
  data.free_factor.compute(mvv);
  if (data.free_factor.info() != Eigen::Success) return fail(Status::kSingularInertia);
  auto& y = data.mobility;  // Y_v = M_vv⁻¹ A_vᵀ
  y.resize(free_count, m);
  for (int i = 0; i < free_count; ++i)
    y.row(i) = a.col(data.free_index[static_cast<std::size_t>(i)]).transpose();
  data.free_factor.solveInPlace(y);
  data.operational.resize(m, m);
  data.operational.setZero();
  for (int i = 0; i < free_count; ++i)
    data.operational.noalias() += a.col(data.free_index[static_cast<std::size_t>(i)]) * y.row(i);
  if (!detail::factor_operational(data.operational, data.operational_factor))
    return fail(Status::kSingularConstraint);
  data.constraint_acceleration = stabilization.target(closure.velocity[0], closure.error);
  const typename Data::Multipliers rhs =
      data.constraint_acceleration - a * acceleration - closure.velocity[1];
  data.multiplier = data.operational_factor.solve(rhs);
  // ν̇_v += Y_v λ;  τ_u += M_uv Y_v λ − A_uᵀ λ.
  typename Data::Vector correction;  // ν̇_c (zero in u)
  correction.setZero();
  for (int i = 0; i < free_count; ++i)
    correction(data.free_index[static_cast<std::size_t>(i)]) = y.row(i).dot(data.multiplier);
  const typename Data::Vector coupling = mass * correction - a.transpose() * data.multiplier;
  for (int l = 0; l < kDofs; ++l) {
    if (prescribed[static_cast<std::size_t>(l)])
      force(l) += coupling(l);
    else
      acceleration(l) += correction(l);
  }
  if (!detail::all_finite(acceleration) || !detail::all_finite(force) ||
      !detail::all_finite(data.multiplier))
    return fail(Status::kNonFiniteResult);
  data.acceleration = acceleration;
  data.generalized_force = force;
  detail::set_acceleration(acceleration, motion);
  return Status::kOk;
}

/// Constrained hybrid dynamics without applied loads.
template <std::size_t NumClosures, class Tree, class Scalar>
Status constrained_hybrid_dynamics(
    const Model<Tree, Scalar>& model, const std::array<LoopClosure<Scalar>, NumClosures>& closures,
    const HybridDynamicsInput<Tree, 0, Scalar>& input,
    const ConstraintStabilization<Scalar>& stabilization,
    ConstrainedHybridDynamicsData<Tree, NumClosures, Scalar>& data) noexcept {
  return constrained_hybrid_dynamics(model, closures, input,
                                     static_cast<const ExternalLoads<Tree, 0, Scalar>*>(nullptr),
                                     stabilization, data);
}

HODYN_ISA_NAMESPACE_END
}  // namespace hodyn
