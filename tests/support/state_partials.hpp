// Helpers of the state-partial tests of the multi-DoF joints
// (tests/core/test_spherical_joint_partials.cpp,
// test_universal_joint_partials.cpp): τ̄ = (Q₁; τ) of the order-0 inverse
// dynamics and ν̇ of the order-0 forward dynamics of any tree and scalar, a
// state as dual numbers, the base pose seeded as C₁(1 + ε[e_k]), and the
// forward-dynamics input of a motion. Everything here calls the order-0
// algorithms only, never the partials under test.
#pragma once

#include <hodyn/hodyn.hpp>
#include <hodyn/taylor_series.hpp>

#include <gtest/gtest.h>

#include <Eigen/Core>

#include <memory>

namespace hodyn {
namespace test {
namespace state_partials {

using Dual = TaylorSeries<double, 1>;

template <class Tree>
constexpr int kBase = TreeTraits<Tree>::kBaseDofs;
template <class Tree>
constexpr int kDofs = TreeTraits<Tree>::kNumDofs;
template <class Tree>
constexpr int kJointDofs = TreeTraits<Tree>::kNumJointDofs;
template <class Tree>
using Vec = Eigen::Matrix<double, kDofs<Tree>, 1>;
template <class Tree>
using Mat = Eigen::Matrix<double, kDofs<Tree>, kDofs<Tree>>;
template <class Tree, int MO = 0, class S = double>
using Motion = MotionDerivatives<Tree, MO, S>;
template <class Tree>
using Input = ForwardDynamicsInput<Tree, 0, double>;

template <class Tree, class S = double>
using ForceVector = Eigen::Matrix<S, TreeTraits<Tree>::kNumDofs, 1>;

/// τ̄ = (Q₁ world frame; τ) of the order-0 inverse dynamics at `m`.
template <class Tree, class S>
ForceVector<Tree, S> generalized_force(const Model<Tree, S>& model,
                                       const MotionDerivatives<Tree, 0, S>& m) {
  auto id = std::make_unique<InverseDynamicsData<Tree, 0, S>>();
  EXPECT_EQ(inverse_dynamics(model, *id, m, 0), Status::kOk);
  ForceVector<Tree, S> f;
  if constexpr (TreeTraits<Tree>::kBaseDofs > 0) f.template head<6>() = id->base_wrench[0];
  f.template tail<TreeTraits<Tree>::kNumJointDofs>() = id->joint_torque[0];
  return f;
}

/// The same state with dual-number entries (dual parts zero).
template <class Tree>
MotionDerivatives<Tree, 0, Dual> to_dual(const MotionDerivatives<Tree, 0, double>& m) {
  MotionDerivatives<Tree, 0, Dual> d;
  d.base_pose = m.base_pose.template cast<Dual>();
  for (int k = 0; k < 2; ++k) d.base_twist[k] = m.base_twist[k].template cast<Dual>();
  for (int k = 0; k < 3; ++k) d.q[k] = m.q[k].template cast<Dual>();
  for (std::size_t b = 0; b < d.joint_rotation.size(); ++b)
    d.joint_rotation[b] = m.joint_rotation[b].template cast<Dual>();
  return d;
}

/// C₁ (1 + ε[e_k]): the base pose moved along the base-frame direction k of ξ
/// (first order, exact for the dual part).
inline Pose<Dual> seeded_pose(const Pose<Dual>& c1, int k) {
  Twist<Dual> e = Twist<Dual>::Zero();
  e(k) = Dual::variable(0.0, 1.0);
  Pose<Dual> p = c1;
  p.translation = c1.translation + c1.rotation * e.template tail<3>();
  p.rotation =
      c1.rotation + Eigen::Matrix<Dual, 3, 3>(c1.rotation * skew<Dual>(e.template head<3>()));
  return p;
}

/// ∂τ̄/∂(ξ; q), ∂τ̄/∂(V₁; q̇), ∂τ̄/∂(V̇₁; q̈) at `motion` by duals through the
/// order-0 inverse dynamics: the base pose seeded as C₁(1 + ε[e_k]), every
/// other column as ε added to its entry (a ball's δ_a: pass the state with δ
/// folded into `joint_rotation`, so that the dual part is taken at δ = 0).
template <class Tree, class M>
void dual_partials(const Model<Tree, double>& model,
                   const MotionDerivatives<Tree, 0, double>& motion, M& dq, M& dv, M& mm) {
  constexpr int n = TreeTraits<Tree>::kNumDofs, nb = TreeTraits<Tree>::kBaseDofs;
  const Model<Tree, Dual> model_d = model.template cast<Dual>();
  const auto base = to_dual(motion);
  const auto eps = Dual::variable(0.0, 1.0);
  for (int block = 0; block < 3; ++block) {
    for (int col = 0; col < n; ++col) {
      auto m = base;
      if (col < nb && block == 0)
        m.base_pose = seeded_pose(base.base_pose, col);
      else if (col < nb)
        m.base_twist[static_cast<std::size_t>(block - 1)](col) += eps;
      else
        m.q[static_cast<std::size_t>(block)](col - nb) += eps;
      const auto f = generalized_force(model_d, m);
      M& out = block == 0 ? dq : block == 1 ? dv : mm;
      for (int r = 0; r < n; ++r) out(r, col) = f(r).coeff(1);
    }
  }
}

/// The forward-dynamics input of a motion's state: base wrench 3 V̇₁ in the
/// base frame, joint torques q̈ (any numbers, only as inputs).
template <class Tree, int MO>
ForwardDynamicsInput<Tree, 0, double> input_from(const MotionDerivatives<Tree, MO, double>& m) {
  ForwardDynamicsInput<Tree, 0, double> in;
  in.base_pose = m.base_pose;
  in.base_twist = m.base_twist[0];
  in.q = m.q[0];
  in.q_dot = m.q[1];
  in.joint_rotation = m.joint_rotation;
  in.base_wrench_frame = WrenchFrame::kBase;
  in.base_wrench[0] = 3.0 * m.base_twist[1];
  in.joint_torque[0] = m.q[2];
  return in;
}

/// ν̇ = (V̇₁; q̈) of the order-0 forward dynamics, in scalar S.
template <class Tree, class S>
ForceVector<Tree, S> accelerations(const Model<Tree, S>& model,
                                   const ForwardDynamicsInput<Tree, 0, S>& in) {
  auto fd = std::make_unique<ForwardDynamicsData<Tree, 0, S>>();
  EXPECT_EQ(forward_dynamics(model, *fd, in, 0), Status::kOk);
  ForceVector<Tree, S> a;
  if constexpr (TreeTraits<Tree>::kBaseDofs > 0) a.template head<6>() = fd->motion.base_twist[1];
  a.template tail<TreeTraits<Tree>::kNumJointDofs>() = fd->motion.q[2];
  return a;
}

/// Column `col` of the velocity rows of [A B] — z = (ξ, δq, δV, δq̇), then
/// δu = (δW in its frame, δτ) — by one dual direction through the order-0
/// forward dynamics, the pose seeded as C₁(1 + ε[e_k]) (a 1-DoF or universal
/// joint's entries of q; not a ball's δ).
template <class Tree>
Vec<Tree> dual_velocity_column(const Model<Tree, Dual>& model,
                               const ForwardDynamicsInput<Tree, 0, double>& in, int col) {
  constexpr int n = kDofs<Tree>, nb = kBase<Tree>;
  ForwardDynamicsInput<Tree, 0, Dual> d;
  d.base_pose = in.base_pose.template cast<Dual>();
  d.base_twist = in.base_twist.template cast<Dual>();
  d.q = in.q.template cast<Dual>();
  d.q_dot = in.q_dot.template cast<Dual>();
  for (std::size_t b = 0; b < d.joint_rotation.size(); ++b)
    d.joint_rotation[b] = in.joint_rotation[b].template cast<Dual>();
  d.base_wrench_frame = in.base_wrench_frame;
  d.base_wrench[0] = in.base_wrench[0].template cast<Dual>();
  d.joint_torque[0] = in.joint_torque[0].template cast<Dual>();
  const Dual eps = Dual::variable(0.0, 1.0);
  if (col < nb)
    d.base_pose = seeded_pose(d.base_pose, col);
  else if (col < n)
    d.q(col - nb) += eps;
  else if (col < n + nb)
    d.base_twist(col - n) += eps;
  else if (col < 2 * n)
    d.q_dot(col - n - nb) += eps;
  else if (col < 2 * n + nb)
    d.base_wrench[0](col - 2 * n) += eps;
  else
    d.joint_torque[0](col - 2 * n - nb) += eps;
  const auto a = accelerations(model, d);
  Vec<Tree> out;
  for (int r = 0; r < n; ++r) out(r) = a(r).coeff(1);
  return out;
}

}  // namespace state_partials
}  // namespace test
}  // namespace hodyn
