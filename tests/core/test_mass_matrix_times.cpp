// mass_matrix_times: M̄ (V̇₁; q̈) on the joint frames of a forward-dynamics
// call, checked against two computations it shares no code with:
//   - inverse dynamics of order 0 at zero velocity on a copy of the model
//     without gravity (the scalar Newton–Euler kernel);
//   - the dense mass matrix of the composite-rigid-body algorithm times the
//     acceleration (1-DoF trees; that call refuses ball joints).
// Trees: the aerial manipulator, the random oracle tree (general axes, forks,
// prismatic and axis-aligned kinds), its helical and fixed-base variants,
// and a tree with two ball joints far from their home rotation.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <memory>
#include <random>

#include "hodyn/equations_of_motion.hpp"
#include "hodyn/forward_dynamics.hpp"
#include "hodyn/inverse_dynamics.hpp"
#include "hodyn/mass_matrix_times.hpp"
#include "support/heap_counter.hpp"
#include "support/oracle_models.hpp"

namespace {

using namespace hodyn::test::oracle;

using hodyn::JointKind;
using hodyn::SpatialInertia;
using hodyn::Twist;
using hodyn::Wrench;

template <class Tree>
using JointVector = typename hodyn::Model<Tree, double>::JointVector;

/// A state of `model`: base pose, twist, q, q̇ and torques from `seed`
/// (ball rotations random too), and forward dynamics run on it.
template <class Tree>
struct Scenario {
  hodyn::ForwardDynamicsInput<Tree, 0, double> input;
  hodyn::ForwardDynamicsData<Tree, 0, double> data;
  Twist<double> base_acceleration = Twist<double>::Zero();
  JointVector<Tree> joint_acceleration = JointVector<Tree>::Zero();
};

template <class Tree>
std::unique_ptr<Scenario<Tree>> make_scenario(const hodyn::Model<Tree, double>& model,
                                              unsigned seed) {
  auto s = std::make_unique<Scenario<Tree>>();
  std::mt19937 gen(seed);
  std::normal_distribution<double> g(0.0, 1.0);
  Eigen::Quaterniond base(g(gen), g(gen), g(gen), g(gen));
  s->input.base_pose.rotation = base.normalized().toRotationMatrix();
  s->input.base_pose.translation = Eigen::Vector3d(g(gen), g(gen), g(gen));
  for (int i = 0; i < 6; ++i) s->input.base_twist(i) = g(gen);
  for (int i = 0; i < s->input.q.size(); ++i) {
    s->input.q(i) = 2.0 * g(gen);
    s->input.q_dot(i) = g(gen);
    s->input.joint_torque[0](i) = g(gen);
  }
  for (auto& r : s->input.joint_rotation) {
    Eigen::Quaterniond q(g(gen), g(gen), g(gen), g(gen));
    r = q.normalized().toRotationMatrix();
  }
  for (int i = 0; i < 6; ++i) s->input.base_wrench[0](i) = g(gen);
  EXPECT_EQ(hodyn::forward_dynamics(model, s->data, s->input, 0), Status::kOk);
  if constexpr (!hodyn::TreeTraits<Tree>::kFixedBase)
    for (int i = 0; i < 6; ++i) s->base_acceleration(i) = g(gen);
  for (int i = 0; i < s->joint_acceleration.size(); ++i) s->joint_acceleration(i) = g(gen);
  return s;
}

/// Inverse dynamics at the scenario's configuration, zero velocity, zero gravity.
template <class Tree>
void reference_product(const hodyn::Model<Tree, double>& model, const Scenario<Tree>& s,
                       Wrench<double>& base_wrench_body, JointVector<Tree>& tau) {
  hodyn::Model<Tree, double> weightless = model;
  ASSERT_EQ(weightless.set_gravity(Eigen::Vector3d::Zero()), Status::kOk);
  auto motion = std::make_unique<hodyn::MotionDerivatives<Tree, 0, double>>();
  motion->base_pose = s.input.base_pose;
  motion->q[0] = s.input.q;
  motion->joint_rotation = s.input.joint_rotation;
  motion->base_twist[1] = s.base_acceleration;
  motion->q[2] = s.joint_acceleration;
  auto id = std::make_unique<hodyn::InverseDynamicsData<Tree, 0, double>>();
  ASSERT_EQ(hodyn::inverse_dynamics(weightless, *id, *motion, 0), Status::kOk);
  base_wrench_body = id->base_wrench_body[0];
  tau = id->joint_torque[0];
}

double max_abs(const Eigen::MatrixXd& a) { return a.cwiseAbs().maxCoeff(); }

/// Relative error of mass_matrix_times against the inverse-dynamics
/// reference, worst over seeds.
template <class Tree>
double worst_against_inverse_dynamics(const hodyn::Model<Tree, double>& model, unsigned seeds) {
  double worst = 0;
  for (unsigned seed = 1; seed <= seeds; ++seed) {
    const auto s = make_scenario(model, seed);
    // Zeroed: reference_product's ASSERT returns early on a failure (g++ 12
    // -O3 -Werror saw tau_ref read uninitialized on that path).
    Wrench<double> w = Wrench<double>::Zero(), w_ref = Wrench<double>::Zero();
    JointVector<Tree> tau = JointVector<Tree>::Zero(), tau_ref = JointVector<Tree>::Zero();
    EXPECT_EQ(hodyn::mass_matrix_times(model, s->data, s->base_acceleration, s->joint_acceleration,
                                       w, tau),
              Status::kOk);
    reference_product(model, *s, w_ref, tau_ref);
    Eigen::VectorXd got(6 + tau.size()), want(6 + tau.size());
    got << w, tau;
    want << w_ref, tau_ref;
    worst = std::max(worst, max_abs(got - want) / max_abs(want));
  }
  return worst;
}

TEST(MassMatrixTimes, MatchesZeroVelocityInverseDynamicsOnEveryJointKind) {
  const auto am = core_aerial_manipulator();
  EXPECT_LT(worst_against_inverse_dynamics(am, 8), 1e-13);
  const auto oracle = core_model<OracleTree, double>(random_reference_tree<OracleTree, double>(7));
  EXPECT_LT(worst_against_inverse_dynamics(oracle, 8), 1e-13);
  const auto helical =
      core_model<HelicalTree, double>(random_reference_tree<HelicalTree, double>(8));
  EXPECT_LT(worst_against_inverse_dynamics(helical, 8), 1e-13);
  const auto fixed =
      core_model<OracleFixedTree, double>(random_reference_tree<OracleFixedTree, double>(9));
  EXPECT_LT(worst_against_inverse_dynamics(fixed, 8), 1e-13);
}

TEST(MassMatrixTimes, MatchesZeroVelocityInverseDynamicsWithBallJoints) {
  const auto model = two_ball_model(31u);
  EXPECT_LT(worst_against_inverse_dynamics(model, 8), 1e-13);
}

/// The dense M̄ of the composite-rigid-body algorithm times (V̇₁; q̈), its
/// first six rows (the spatial base wrench Q₁) turned into the base frame.
template <class Tree>
double worst_against_dense_mass_matrix(const hodyn::Model<Tree, double>& model, unsigned seeds) {
  constexpr int kDofs = hodyn::TreeTraits<Tree>::kNumDofs;
  constexpr int kBase = hodyn::TreeTraits<Tree>::kFixedBase ? 0 : 6;
  auto eom = std::make_unique<hodyn::EquationsOfMotionData<Tree, double>>();
  double worst = 0;
  for (unsigned seed = 11; seed < 11 + seeds; ++seed) {
    const auto s = make_scenario(model, seed);
    EXPECT_EQ(hodyn::mass_matrix(model, *eom, s->input.base_pose, s->input.q), Status::kOk);
    Eigen::Matrix<double, kDofs, 1> x;
    if constexpr (kBase == 6) x.template head<6>() = s->base_acceleration;
    x.template tail<kDofs - kBase>() = s->joint_acceleration;
    const Eigen::Matrix<double, kDofs, 1> y = eom->result.mass_matrix * x;
    Wrench<double> w;
    JointVector<Tree> tau;
    EXPECT_EQ(hodyn::mass_matrix_times(model, s->data, s->base_acceleration, s->joint_acceleration,
                                       w, tau),
              Status::kOk);
    Eigen::VectorXd got(kDofs), want(kDofs);
    if constexpr (kBase == 6) {
      // W_body = Ad_C₁ᵀ Q₁ (forces and moments expressed in the base frame).
      const Eigen::Matrix3d r = s->input.base_pose.rotation;
      const Eigen::Vector3d p = s->input.base_pose.translation;
      const Eigen::Vector3d f = y.template segment<3>(3);
      const Eigen::Vector3d n = y.template head<3>();
      want.template head<3>() = r.transpose() * (n - p.cross(f));
      want.template segment<3>(3) = r.transpose() * f;
      got.template head<6>() = w;
    }
    want.tail(kDofs - kBase) = y.template tail<kDofs - kBase>();
    got.tail(kDofs - kBase) = tau;
    worst = std::max(worst, max_abs(got - want) / max_abs(want));
  }
  return worst;
}

TEST(MassMatrixTimes, MatchesTheDenseMassMatrix) {
  EXPECT_LT(worst_against_dense_mass_matrix(core_aerial_manipulator(), 6), 1e-13);
  EXPECT_LT(worst_against_dense_mass_matrix(
                core_model<OracleTree, double>(random_reference_tree<OracleTree, double>(5)), 6),
            1e-13);
  EXPECT_LT(worst_against_dense_mass_matrix(core_model<OracleFixedTree, double>(
                                                random_reference_tree<OracleFixedTree, double>(6)),
                                            6),
            1e-13);
}

TEST(MassMatrixTimes, RefusesDataWithoutAStateAndNonFiniteInputs) {
  const auto am = core_aerial_manipulator();
  auto fresh = std::make_unique<hodyn::ForwardDynamicsData<AMTree, 0, double>>();
  Wrench<double> w = Wrench<double>::Constant(1.0);
  JointVector<AMTree> tau = JointVector<AMTree>::Constant(1.0);
  const JointVector<AMTree> zero = JointVector<AMTree>::Zero();
  const Twist<double> at_rest = Twist<double>::Zero();
  EXPECT_EQ(hodyn::mass_matrix_times(am, *fresh, at_rest, zero, w, tau), Status::kInvalidArgument);
  EXPECT_TRUE(w.isZero(0.0) && tau.isZero(0.0));

  auto s = make_scenario(am, 3u);
  Twist<double> bad = s->base_acceleration;
  bad(4) = std::numeric_limits<double>::quiet_NaN();
  w.setConstant(1.0);
  EXPECT_EQ(hodyn::mass_matrix_times(am, s->data, bad, s->joint_acceleration, w, tau),
            Status::kNonFiniteInput);
  EXPECT_TRUE(w.isZero(0.0) && tau.isZero(0.0));
  JointVector<AMTree> bad_q = s->joint_acceleration;
  bad_q(2) = std::numeric_limits<double>::infinity();
  tau.setConstant(1.0);
  EXPECT_EQ(hodyn::mass_matrix_times(am, s->data, s->base_acceleration, bad_q, w, tau),
            Status::kNonFiniteInput);
  EXPECT_TRUE(w.isZero(0.0) && tau.isZero(0.0));
  // A failed forward-dynamics call leaves no state to multiply at.
  s->input.q(0) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_NE(hodyn::forward_dynamics(am, s->data, s->input, 0), Status::kOk);
  EXPECT_EQ(
      hodyn::mass_matrix_times(am, s->data, s->base_acceleration, s->joint_acceleration, w, tau),
      Status::kInvalidArgument);
}

TEST(MassMatrixTimes, IsHeapFree) {
  const auto am = core_aerial_manipulator();
  const auto s = make_scenario(am, 4u);
  Wrench<double> w;
  JointVector<AMTree> tau;
  hodyn::test::HeapProbe probe;
  const Status status =
      hodyn::mass_matrix_times(am, s->data, s->base_acceleration, s->joint_acceleration, w, tau);
  EXPECT_EQ(probe.count(), 0);
  EXPECT_EQ(status, Status::kOk);
  EXPECT_FALSE(tau.isZero(0.0));
}

}  // namespace
