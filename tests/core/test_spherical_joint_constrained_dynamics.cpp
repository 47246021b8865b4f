// Loop closures and constrained dynamics of trees with ball (spherical) joints
// (issue 19, docs/joint-kinds.md "4. The slices", 2): a ball's three entries
// of ν are three columns of A (its screws S_i), and constrained forward
// dynamics reuses M̄⁻¹ of inverse_mass_matrix.hpp on the articulated pass.
//
// Oracles, none of them the code under test:
// (a) A's columns: A ν = (Aν), the constraint velocity loop_closure_kinematics
//     takes from the bodies' twists (column 0, not the screw columns), and
//     Ȧ ν + A ν̇ = (Aν)˙ from the twists' derivatives, at random ν, ν̇;
// (b) constrained forward dynamics against a dense KKT solve
//     [M̄ −Aᵀ; A 0](ν̇; λ) = (τ̄ − b; −Ȧν), M̄ from mass_matrix (the CRBA, not
//     the IMMA), b = h + g from inverse dynamics at ν̇ = 0 (not the
//     articulated pass), on TwoBallTree with point, revolute and weld
//     closures and random R_j, δ ≠ 0;
// (c) constrained inverse dynamics of that motion, with three entries of ν
//     passive (two revolute joints and a ball's ω_x: A_p square under a point
//     closure), gives back the torques and λ of the forward call.
#include <hodyn/constrained_dynamics.hpp>
#include <hodyn/hodyn.hpp>

#include "support/ball_trees.hpp"
#include "support/constrained_kkt.hpp"
#include "support/heap_counter.hpp"
#include "support/oracle_models.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <Eigen/Geometry>

#include <algorithm>
#include <array>
#include <iostream>
#include <memory>
#include <random>

namespace {

using hodyn::test::ball_trees::closure;  // a random loop closure

using hodyn::LoopClosure;
using hodyn::LoopClosureKind;
using hodyn::Pose;
using hodyn::Status;
using hodyn::TreeTraits;
using hodyn::test::max_abs;
using hodyn::test::oracle::two_ball_model;
using hodyn::test::oracle::TwoBallTree;
using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;
using VecX = Eigen::VectorXd;
using MatX = Eigen::MatrixXd;

constexpr int kDofs = TreeTraits<TwoBallTree>::kNumDofs;  // 6 + 1 + 3 + 1 + 3
constexpr int kJointDofs = TreeTraits<TwoBallTree>::kNumJointDofs;

Mat3 random_rotation(std::mt19937& gen) {
  std::normal_distribution<double> g(0.0, 1.0);
  return Eigen::Quaterniond(g(gen), g(gen), g(gen), g(gen)).normalized().toRotationMatrix();
}

/// A random state: pose, twist, q (δ ≠ 0), q̇ (a ball's: ω), random R_j,
/// base wrench and joint torques.
hodyn::ForwardDynamicsInput<TwoBallTree, 0, double> random_input(unsigned seed) {
  std::mt19937 gen(seed * 131u + 9u);
  std::normal_distribution<double> g(0.0, 1.0);
  hodyn::ForwardDynamicsInput<TwoBallTree, 0, double> in;
  in.base_pose.rotation = random_rotation(gen);
  in.base_pose.translation = Vec3(g(gen), g(gen), g(gen));
  for (int i = 0; i < 6; ++i) in.base_twist(i) = g(gen);
  for (int i = 0; i < kJointDofs; ++i) {
    in.q(i) = 0.3 * g(gen);
    in.q_dot(i) = g(gen);
    in.joint_torque[0](i) = g(gen);
  }
  for (auto& r : in.joint_rotation) r = random_rotation(gen);
  for (int i = 0; i < 6; ++i) in.base_wrench[0](i) = 10.0 * g(gen);
  return in;
}

hodyn::MotionDerivatives<TwoBallTree, 0, double> state_of(
    const hodyn::ForwardDynamicsInput<TwoBallTree, 0, double>& in) {
  hodyn::MotionDerivatives<TwoBallTree, 0, double> m;
  m.base_pose = in.base_pose;
  m.base_twist[0] = in.base_twist;
  m.q[0] = in.q;
  m.q[1] = in.q_dot;
  m.joint_rotation = in.joint_rotation;
  return m;
}

VecX nu_of(const hodyn::MotionDerivatives<TwoBallTree, 0, double>& m, int k) {
  VecX v(kDofs);
  v.head<6>() = m.base_twist[static_cast<std::size_t>(k)];
  v.tail<kJointDofs>() = m.q[static_cast<std::size_t>(k + 1)];
  return v;
}

template <std::size_t NC>
double check_closure_columns(const hodyn::Model<TwoBallTree, double>& model,
                             const std::array<LoopClosure<double>, NC>& closures, unsigned seed) {
  auto m = state_of(random_input(seed));
  std::mt19937 gen(seed + 77u);
  std::normal_distribution<double> g(0.0, 1.0);
  for (int i = 0; i < 6; ++i) m.base_twist[1](i) = g(gen);
  for (int i = 0; i < kJointDofs; ++i) m.q[2](i) = g(gen);
  auto kin = std::make_unique<hodyn::KinematicsData<TwoBallTree, 0, double>>();
  auto data = std::make_unique<hodyn::LoopClosureData<TwoBallTree, NC, 0, double>>();
  EXPECT_EQ(hodyn::forward_kinematics(model, *kin, m, 0), Status::kOk);
  EXPECT_EQ(hodyn::loop_closure_kinematics(*kin, closures, *data, 0), Status::kOk);
  const MatX a = data->jacobian[0], a_dot = data->jacobian[1];
  const VecX v = nu_of(m, 0), v_dot = nu_of(m, 1);
  const VecX w0 = data->velocity[0], w1 = data->velocity[1];
  const double e0 = max_abs(a * v - w0) / (1 + max_abs(w0));
  const double e1 = max_abs(a_dot * v + a * v_dot - w1) / (1 + max_abs(w1));
  EXPECT_LE(e0, 1e-13) << seed;
  EXPECT_LE(e1, 1e-12) << seed;
  return std::max(e0, e1);
}

TEST(SphericalJointConstrainedDynamics, ClosureColumnsGiveTheConstraintVelocity) {
  const auto model = two_ball_model(3u);
  const std::array<LoopClosure<double>, 2> closures{closure(LoopClosureKind::kWeld, 3, 4, 1u),
                                                    closure(LoopClosureKind::kRevolute, 2, 4, 2u)};
  double worst = 0;
  for (unsigned seed = 0; seed < 20; ++seed)
    worst = std::max(worst, check_closure_columns(model, closures, seed));
  std::cout << "max |A nu - (A nu)|, |A' nu + A nu' - (A nu)'| (relative): " << worst << std::endl;
}

/// Constrained FD vs the dense KKT solve; returns the worst relative error of ν̇ and λ.
template <std::size_t NC>
double check_against_kkt(const hodyn::Model<TwoBallTree, double>& model,
                         const std::array<LoopClosure<double>, NC>& closures, unsigned seed) {
  const auto in = random_input(seed);
  auto data = std::make_unique<hodyn::ConstrainedDynamicsData<TwoBallTree, NC, double>>();
  const Status s = hodyn::constrained_forward_dynamics(
      model, closures, in, hodyn::ConstraintStabilization<double>{}, *data);
  EXPECT_EQ(s, Status::kOk) << seed;
  if (s != Status::kOk) return 1.0;
  const auto state = state_of(in);
  // M̄ by the CRBA, b = h + g by inverse dynamics at ν̇ = 0.
  auto eom = std::make_unique<hodyn::EquationsOfMotionData<TwoBallTree, double>>();
  EXPECT_EQ(hodyn::mass_matrix(model, *eom, state), Status::kOk);
  const MatX mass = eom->result.mass_matrix;
  auto id = std::make_unique<hodyn::InverseDynamicsData<TwoBallTree, 0, double>>();
  EXPECT_EQ(hodyn::inverse_dynamics(model, *id, state, 0), Status::kOk);
  VecX bias(kDofs);
  bias.head<6>() = id->base_wrench[0];
  bias.tail<kJointDofs>() = id->joint_torque[0];
  VecX force(kDofs);
  force.head<6>() = in.base_wrench[0];
  force.tail<kJointDofs>() = in.joint_torque[0];
  // A and Ȧν at ν̇ = 0 (checked above against the bodies' twists).
  auto kin = std::make_unique<hodyn::KinematicsData<TwoBallTree, 0, double>>();
  auto cl = std::make_unique<hodyn::LoopClosureData<TwoBallTree, NC, 0, double>>();
  EXPECT_EQ(hodyn::forward_kinematics(model, *kin, state, 0), Status::kOk);
  EXPECT_EQ(hodyn::loop_closure_kinematics(*kin, closures, *cl, 0), Status::kOk);
  const int m = cl->rows;
  const VecX x = hodyn::test::constrained_forward_kkt(mass, force - bias, MatX(cl->jacobian[0]),
                                                      VecX(cl->velocity[1]));
  const double e_acc = max_abs(VecX(data->acceleration) - x.head(kDofs)) / max_abs(x.head(kDofs));
  const double e_lambda = max_abs(VecX(data->multiplier) - x.tail(m)) / max_abs(x.tail(m));
  EXPECT_LE(e_acc, 1e-10) << seed;
  EXPECT_LE(e_lambda, 1e-10) << seed;
  return std::max(e_acc, e_lambda);
}

TEST(SphericalJointConstrainedDynamics, ForwardDynamicsMatchesTheDenseKktSolve) {
  const auto model = two_ball_model(11u);
  const std::array<LoopClosure<double>, 1> point{closure(LoopClosureKind::kPoint, 3, 4, 5u)};
  const std::array<LoopClosure<double>, 1> revolute{closure(LoopClosureKind::kRevolute, 3, 4, 6u)};
  const std::array<LoopClosure<double>, 1> weld{closure(LoopClosureKind::kWeld, 3, 4, 7u)};
  const std::array<LoopClosure<double>, 2> two{closure(LoopClosureKind::kPoint, 2, 4, 8u),
                                               closure(LoopClosureKind::kPoint, 3, 4, 9u)};
  double worst = 0;
  for (unsigned seed = 0; seed < 20; ++seed) {
    worst = std::max(worst, check_against_kkt(model, point, seed));
    worst = std::max(worst, check_against_kkt(model, revolute, 100u + seed));
    worst = std::max(worst, check_against_kkt(model, weld, 200u + seed));
    worst = std::max(worst, check_against_kkt(model, two, 300u + seed));
  }
  std::cout << "constrained FD vs dense KKT, max relative error of nu_dot and lambda: " << worst
            << std::endl;
}

TEST(SphericalJointConstrainedDynamics, InverseDynamicsGivesBackTheForwardCall) {
  const auto model = two_ball_model(13u);
  const std::array<LoopClosure<double>, 1> point{closure(LoopClosureKind::kPoint, 3, 4, 15u)};
  auto fd = std::make_unique<hodyn::ConstrainedDynamicsData<TwoBallTree, 1, double>>();
  auto cid = std::make_unique<hodyn::ConstrainedDynamicsData<TwoBallTree, 1, double>>();
  double worst = 0;
  for (unsigned seed = 0; seed < 20; ++seed) {
    const auto in = random_input(500u + seed);
    ASSERT_EQ(hodyn::constrained_forward_dynamics(model, point, in,
                                                  hodyn::ConstraintStabilization<double>{}, *fd),
              Status::kOk);
    hodyn::ConstrainedInverseDynamicsOptions<TwoBallTree, 1, double> options;
    // Passive: the two revolute joints and the base ball's ω_x (a ball alone
    // moves the closure point only across its radius: its three columns of a
    // point closure have rank 2).
    for (const int l :
         {TreeTraits<TwoBallTree>::joint_dof(1), TreeTraits<TwoBallTree>::joint_dof(3),
          TreeTraits<TwoBallTree>::joint_dof(4)}) {
      options.actuated[static_cast<std::size_t>(l)] = false;
      options.passive_force(l) = in.joint_torque[0](l - 6);
    }
    ASSERT_EQ(hodyn::constrained_inverse_dynamics(model, point, fd->motion, options, *cid),
              Status::kOk);
    VecX force(kDofs);
    force.head<6>() = in.base_wrench[0];
    force.tail<kJointDofs>() = in.joint_torque[0];
    const double e_force = max_abs(VecX(cid->generalized_force) - force) / max_abs(force);
    const double e_lambda =
        max_abs(VecX(cid->multiplier) - VecX(fd->multiplier)) / max_abs(VecX(fd->multiplier));
    EXPECT_LE(e_force, 1e-10) << seed;
    EXPECT_LE(e_lambda, 1e-10) << seed;
    worst = std::max({worst, e_force, e_lambda});
  }
  std::cout << "constrained ID of the FD motion: max relative error of tau and lambda: " << worst
            << std::endl;
}

TEST(SphericalJointConstrainedDynamics, ForwardDynamicsIsHeapFree) {
  const auto model = two_ball_model(17u);
  const std::array<LoopClosure<double>, 1> weld{closure(LoopClosureKind::kWeld, 3, 4, 19u)};
  auto data = std::make_unique<hodyn::ConstrainedDynamicsData<TwoBallTree, 1, double>>();
  const auto in =
      std::make_unique<hodyn::ForwardDynamicsInput<TwoBallTree, 0, double>>(random_input(1u));
  const hodyn::ConstraintStabilization<double> gains{2.0, 1.0};
  hodyn::test::HeapProbe probe;
  const Status s = hodyn::constrained_forward_dynamics(model, weld, *in, gains, *data);
  EXPECT_EQ(probe.count(), 0);
  EXPECT_EQ(s, Status::kOk);
}

}  // namespace
