// The header hodyn-urdf generates from core/robots/aerial_manipulator/
// aerial_manipulator.urdf against the built-in hodyn::make_aerial_manipulator.
//
// The URDF puts each link frame on its joint axis with the inertial offset to
// the CoM, the built-in model puts the body frames at the CoMs: the parameters
// differ, the dynamics must not. Oracles, on 100 random states (base pose
// uniform in SO(3) × N(0,1)³, every derivative ~ N(0,1)):
//   - inverse dynamics r = 0..2 (Q₁^(k), τ^(k)) to 1e-13 relative,
//   - the mass matrix M̄(Q) to 1e-13 relative (Frobenius),
//   - forward dynamics r = 2 (V₁^(k+1), q^(k+2), k = 0..2) to 1e-11 relative;
// plus the same topology, home CoMs, inertias and screws, and the names,
// index lookups and limits of the header.
#include <hodyn/equations_of_motion.hpp>
#include <hodyn/forward_dynamics.hpp>
#include <hodyn/inverse_dynamics.hpp>
#include <hodyn/models/aerial_manipulator.hpp>

#include <aerial_manipulator_urdf.hpp>

#include "support/error_metrics.hpp"
#include "support/random.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <iostream>
#include <limits>
#include <memory>
#include <string_view>

namespace {

namespace gen = aerial_manipulator_urdf;
using BuiltinTree = hodyn::AerialManipulatorTree;
using GenTree = gen::Tree;
using hodyn::Status;
using hodyn::test::rel_err;

constexpr int kStates = 100;
constexpr int kOrder = 2;
constexpr double kInverseTol = 1e-13;
constexpr double kMassMatrixTol = 1e-13;
constexpr double kForwardTol = 1e-11;

constexpr bool same_topology() {
  if (GenTree::kNumBodies != BuiltinTree::kNumBodies) return false;
  for (std::size_t j = 0; j < std::size_t{GenTree::kNumBodies}; ++j)
    if (GenTree::kParent[j] != BuiltinTree::kParent[j] ||
        GenTree::kJoint[j] != BuiltinTree::kJoint[j])
      return false;
  return true;
}
static_assert(same_topology(), "bodies depth-first, arm 1 before arm 2, joints y, x, z");
static_assert(gen::kNumDofs == 12);
static_assert(gen::joint_index("arm1_joint1") == 0 && gen::joint_index("arm2_joint3") == 5);
static_assert(gen::joint_index("no_such_joint") == -1);
static_assert(gen::body_index("base_link") == 0 && gen::body_index("arm2_link1") == 4);

struct Models {
  hodyn::AerialManipulatorModel<double> builtin;
  hodyn::Model<GenTree, double> generated;
  Models() {
    EXPECT_EQ(hodyn::make_aerial_manipulator(builtin), Status::kOk);
    EXPECT_EQ(gen::make_model(generated), Status::kOk);
  }
};

/// A random motion: base pose, V₁^(0..r+1), q^(0..r+2).
template <class Tree>
void random_motion(unsigned seed, hodyn::MotionDerivatives<Tree, kOrder, double>& m) {
  hodyn::test::Rng rng(seed);
  m.base_pose = rng.pose(1.0);
  for (auto& v : m.base_twist) v = rng.vec6();
  for (auto& q : m.q)
    for (int i = 0; i < q.size(); ++i) q(i) = rng.normal();
}

TEST(GeneratedAerialManipulator, SameInertiasAndScrewsAtHome) {
  const Models m;
  EXPECT_DOUBLE_EQ(m.generated.total_mass(), 4.0);
  EXPECT_DOUBLE_EQ(gen::kTotalMass, 4.0);
  for (int j = 0; j < GenTree::kNumBodies; ++j) {
    EXPECT_DOUBLE_EQ(m.generated.mass(j), m.builtin.mass(j)) << j;
    EXPECT_LT((m.generated.home_com(j) - m.builtin.home_com(j)).norm(), 1e-15) << j;
    EXPECT_LT((m.generated.home_inertia(j).matrix() - m.builtin.home_inertia(j).matrix())
                  .cwiseAbs()
                  .maxCoeff(),
              1e-17)
        << j;
    if (j > 0) {
      EXPECT_LT((m.generated.joint_screw(j) - m.builtin.joint_screw(j)).norm(), 1e-15) << j;
    }
  }
  EXPECT_EQ(m.generated.gravity(), m.builtin.gravity());
}

TEST(GeneratedAerialManipulator, NamesAndLimits) {
  EXPECT_EQ(std::string_view(gen::kBodyNames[0]), "base_link");
  EXPECT_EQ(std::string_view(gen::kBodyNames[3]), "arm1_link3");
  EXPECT_EQ(std::string_view(gen::kJointNames[4]), "arm2_joint2");
  EXPECT_EQ(std::string_view(gen::kRobotName), "aerial_manipulator");
  for (const hodyn::JointLimits& l : gen::kJointLimits) {  // continuous joints, no <limit>
    EXPECT_FALSE(l.bounded);
    EXPECT_TRUE(hodyn::within_position_limits(l, 1e6));
    EXPECT_EQ(l.velocity, std::numeric_limits<double>::infinity());
    EXPECT_EQ(l.effort, std::numeric_limits<double>::infinity());
  }
}

TEST(GeneratedAerialManipulator, FloatModelBuilds) {
  hodyn::Model<GenTree, float> generated;
  ASSERT_EQ(gen::make_model(generated), Status::kOk);
  EXPECT_FLOAT_EQ(generated.total_mass(), 4.0f);
}

TEST(GeneratedAerialManipulator, InverseDynamicsAgreeOnRandomStates) {
  const Models m;
  auto motion_b = std::make_unique<hodyn::MotionDerivatives<BuiltinTree, kOrder, double>>();
  auto motion_g = std::make_unique<hodyn::MotionDerivatives<GenTree, kOrder, double>>();
  auto data_b = std::make_unique<hodyn::InverseDynamicsData<BuiltinTree, kOrder, double>>();
  auto data_g = std::make_unique<hodyn::InverseDynamicsData<GenTree, kOrder, double>>();
  double worst = 0;
  for (int s = 0; s < kStates; ++s) {
    random_motion(1000u + static_cast<unsigned>(s), *motion_b);
    random_motion(1000u + static_cast<unsigned>(s), *motion_g);
    for (int r = 0; r <= kOrder; ++r) {
      ASSERT_EQ(hodyn::inverse_dynamics(m.builtin, *data_b, *motion_b, r), Status::kOk);
      ASSERT_EQ(hodyn::inverse_dynamics(m.generated, *data_g, *motion_g, r), Status::kOk);
      for (int k = 0; k <= r; ++k) {
        const auto K = static_cast<std::size_t>(k);
        Eigen::Matrix<double, 12, 1> yb, yg;
        yb << data_b->base_wrench[K], data_b->joint_torque[K];
        yg << data_g->base_wrench[K], data_g->joint_torque[K];
        const double e = rel_err(yg, yb);
        worst = std::max(worst, e);
        EXPECT_LT(e, kInverseTol) << "state " << s << " order " << r << " derivative " << k;
      }
    }
  }
  std::cout << "inverse dynamics r = 0..2: worst relative difference " << worst << std::endl;
}

TEST(GeneratedAerialManipulator, MassMatrixAgreesOnRandomStates) {
  const Models m;
  auto eom_b = std::make_unique<hodyn::EquationsOfMotionData<BuiltinTree, double>>();
  auto eom_g = std::make_unique<hodyn::EquationsOfMotionData<GenTree, double>>();
  auto motion = std::make_unique<hodyn::MotionDerivatives<BuiltinTree, kOrder, double>>();
  double worst = 0;
  for (int s = 0; s < kStates; ++s) {
    random_motion(2000u + static_cast<unsigned>(s), *motion);
    const hodyn::Model<GenTree, double>::JointVector q = motion->q[0];
    ASSERT_EQ(hodyn::mass_matrix(m.builtin, *eom_b, motion->base_pose, motion->q[0]), Status::kOk);
    ASSERT_EQ(hodyn::mass_matrix(m.generated, *eom_g, motion->base_pose, q), Status::kOk);
    const double e = rel_err(eom_g->result.mass_matrix, eom_b->result.mass_matrix);
    worst = std::max(worst, e);
    EXPECT_LT(e, kMassMatrixTol) << "state " << s;
  }
  std::cout << "mass matrix: worst relative difference " << worst << std::endl;
}

TEST(GeneratedAerialManipulator, ForwardDynamicsAgreeOnRandomStates) {
  const Models m;
  auto in_b = std::make_unique<hodyn::ForwardDynamicsInput<BuiltinTree, kOrder, double>>();
  auto in_g = std::make_unique<hodyn::ForwardDynamicsInput<GenTree, kOrder, double>>();
  auto data_b = std::make_unique<hodyn::ForwardDynamicsData<BuiltinTree, kOrder, double>>();
  auto data_g = std::make_unique<hodyn::ForwardDynamicsData<GenTree, kOrder, double>>();
  double worst = 0;
  for (int s = 0; s < kStates; ++s) {
    hodyn::test::Rng rng(3000u + static_cast<unsigned>(s));
    in_b->base_pose = rng.pose(1.0);
    in_b->base_twist = rng.vec6();
    for (int i = 0; i < 6; ++i) {
      in_b->q(i) = rng.normal();
      in_b->q_dot(i) = rng.normal();
    }
    for (int k = 0; k <= kOrder; ++k) {
      const auto K = static_cast<std::size_t>(k);
      in_b->base_wrench[K] = 10.0 * rng.vec6();
      for (int i = 0; i < 6; ++i) in_b->joint_torque[K](i) = rng.normal();
    }
    in_g->base_pose = in_b->base_pose;
    in_g->base_twist = in_b->base_twist;
    in_g->q = in_b->q;
    in_g->q_dot = in_b->q_dot;
    in_g->base_wrench = in_b->base_wrench;
    for (std::size_t k = 0; k <= kOrder; ++k) in_g->joint_torque[k] = in_b->joint_torque[k];
    ASSERT_EQ(hodyn::forward_dynamics(m.builtin, *data_b, *in_b, kOrder), Status::kOk);
    ASSERT_EQ(hodyn::forward_dynamics(m.generated, *data_g, *in_g, kOrder), Status::kOk);
    for (int k = 0; k <= kOrder; ++k) {
      Eigen::Matrix<double, 12, 1> yb, yg;
      yb << data_b->motion.base_twist[static_cast<std::size_t>(k + 1)],
          data_b->motion.q[static_cast<std::size_t>(k + 2)];
      yg << data_g->motion.base_twist[static_cast<std::size_t>(k + 1)],
          data_g->motion.q[static_cast<std::size_t>(k + 2)];
      const double e = rel_err(yg, yb);
      worst = std::max(worst, e);
      EXPECT_LT(e, kForwardTol) << "state " << s << " derivative " << k;
    }
  }
  std::cout << "forward dynamics r = 2: worst relative difference " << worst << std::endl;
}

}  // namespace
