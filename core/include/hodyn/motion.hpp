// hodyn/motion.hpp — the inputs of the higher-order algorithms.
//
// All lists hold true time derivatives X^(k) = dᵏX/dtᵏ (not Taylor
// coefficients), k = 0, 1, 2, …
#pragma once

#include <array>

#include "hodyn/model.hpp"
#include "hodyn/pose.hpp"
#include "hodyn/spatial_algebra.hpp"

namespace hodyn {

/// Base pose, base twist derivatives and joint derivatives: the motion that
/// inverse dynamics of order r turns into wrenches and torques. Order r reads
/// base_twist[0..r+1] and q[0..r+2].
template <class Tree, int MaxOrder, class Scalar = double>
struct MotionDerivatives {
  static_assert(MaxOrder >= 0, "MaxOrder must be non-negative");
  using JointVector = typename Model<Tree, Scalar>::JointVector;

  /// C₁: pose of the base frame in the world.
  Pose<Scalar> base_pose{};
  /// V₁^(k), the spatial base twist (ω; v) and its derivatives, k = 0..MaxOrder+1.
  std::array<Twist<Scalar>, MaxOrder + 2> base_twist{};
  /// q^(k), joint positions and their derivatives, k = 0..MaxOrder+2. A ball
  /// joint's three entries are, in q[0], exponential coordinates δ about its
  /// `joint_rotation` (R = R_j exp([δ]); zero in normal use) and, in q[k],
  /// k ≥ 1, its child-frame angular velocity ω^(k−1) (docs/joint-kinds.md).
  std::array<JointVector, MaxOrder + 3> q{};
  /// R_j of every ball joint, in the order of the tree
  /// (TreeTraits::kSphericalIndex); empty for a tree without one.
  std::array<Matrix3<Scalar>, TreeTraits<Tree>::kNumSphericalJoints> joint_rotation{};

  MotionDerivatives() {
    for (auto& v : base_twist) v.setZero();
    for (auto& x : q) x.setZero();
    for (auto& r : joint_rotation) r.setIdentity();
  }
};

/// Loads other than the propulsion wrench and the joint torques: applied
/// wrenches on bodies (contacts, payloads, aerodynamic drag) and external
/// joint torques (friction models, springs). Order r reads entries 0..r.
template <class Tree, int MaxOrder, class Scalar = double>
struct ExternalLoads {
  static constexpr int kNumBodies = Tree::kNumBodies;
  using JointVector = typename Model<Tree, Scalar>::JointVector;

  /// W_app^(k) on body j in the world frame (moment about the world origin).
  std::array<std::array<Wrench<Scalar>, MaxOrder + 1>, kNumBodies> world_wrench{};
  /// W_app^(k) on body j in that body's frame: the k-th derivative of the
  /// body-frame components (seed 000 eqs. 69-70 convert it).
  std::array<std::array<Wrench<Scalar>, MaxOrder + 1>, kNumBodies> body_wrench{};
  /// Which bodies carry a world-frame / body-frame wrench (others are skipped).
  std::array<bool, kNumBodies> has_world_wrench{};
  std::array<bool, kNumBodies> has_body_wrench{};
  /// τ_ext^(k): external joint torques; the joint torque is τ = Sᵀ W − τ_ext.
  std::array<JointVector, MaxOrder + 1> joint_torque{};

  ExternalLoads() { clear(); }
  void clear() {
    for (auto& body : world_wrench)
      for (auto& w : body) w.setZero();
    for (auto& body : body_wrench)
      for (auto& w : body) w.setZero();
    has_world_wrench.fill(false);
    has_body_wrench.fill(false);
    for (auto& t : joint_torque) t.setZero();
  }
};

}  // namespace hodyn
