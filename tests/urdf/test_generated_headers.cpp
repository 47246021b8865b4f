// Headers generated from tests/urdf/data/cli/{branching, lumping, single_body}.urdf,
// compiled with -Wall -Wextra -Wpedantic -Wshadow -Wdouble-promotion -Werror
// (tests/urdf/CMakeLists.txt) and instantiated in double and float:
//   - make_model<double/float>() succeeds; the constexpr lookups and limits;
//   - the lumped base of lumping.urdf has the hand-computed mass, CoM and
//     inertia (see the URDF's comment) in the Model itself;
//   - the joint kinds the tool chose — aligned (also the negative axis 0 0 −1,
//     kept as the joint's sense) and general — give the same dynamics as the
//     general kinds kRevolute/kPrismatic about the same axes: inverse
//     dynamics r = 0..2 on 20 random states to 1e-13 relative;
//   - the frames of lumped links in their body (kLinkBodies);
//   - a robot of one body (no joints) compiles and builds.
#include <hodyn/inverse_dynamics.hpp>

#include <branching_urdf.hpp>
#include <lumping_urdf.hpp>
#include <single_body_urdf.hpp>

#include "support/error_metrics.hpp"
#include "support/random.hpp"

#include <gtest/gtest.h>

#include <cstddef>
#include <memory>
#include <string_view>

namespace {

using hodyn::JointKind;
using hodyn::Status;

static_assert(branching_urdf::joint_index("m_left_elbow") == 2);
static_assert(branching_urdf::body_index("slider") == 5);
static_assert(lumping_urdf::body_index("imu_frame") == 0);  // lumped into the base
static_assert(lumping_urdf::kNumDofs == 7);
static_assert(single_body_urdf::kNumJoints == 0 && single_body_urdf::kNumDofs == 6);
static_assert(branching_urdf::kJointLimits[2].bounded &&
              branching_urdf::kJointLimits[2].lower == -2.0);
static_assert(!branching_urdf::kJointLimits[0].bounded);

template <class Scalar>
void builds(Scalar total_mass_tolerance) {
  hodyn::Model<branching_urdf::Tree, Scalar> branching;
  hodyn::Model<lumping_urdf::Tree, Scalar> lumping;
  hodyn::Model<single_body_urdf::Tree, Scalar> single;
  ASSERT_EQ(branching_urdf::make_model(branching), Status::kOk);
  ASSERT_EQ(lumping_urdf::make_model(lumping), Status::kOk);
  ASSERT_EQ(single_body_urdf::make_model(single), Status::kOk);
  EXPECT_NEAR(branching.total_mass(), Scalar(2.8), total_mass_tolerance);
  EXPECT_NEAR(lumping.total_mass(), Scalar(3.5), total_mass_tolerance);
  EXPECT_NEAR(single.total_mass(), Scalar(1.6), total_mass_tolerance);
  EXPECT_EQ(branching.joint_sense(4), Scalar(-1));  // b_right_shoulder, axis 0 0 −1
  EXPECT_EQ(branching.joint_sense(1), Scalar(1));
}

TEST(GeneratedHeaders, BuildInDoubleAndFloat) {
  builds<double>(1e-15);
  builds<float>(1e-6f);
}

TEST(GeneratedHeaders, LumpedBaseByHand) {
  hodyn::Model<lumping_urdf::Tree, double> m;
  ASSERT_EQ(lumping_urdf::make_model(m), Status::kOk);
  EXPECT_NEAR(m.mass(0), 3.0, 1e-15);
  EXPECT_LT((m.home_com(0) - Eigen::Vector3d(0.1, 0, 0)).norm(), 1e-15);
  const Eigen::Matrix3d expected = Eigen::Vector3d(0.12, 0.17, 0.19).asDiagonal();
  EXPECT_LT((m.home_inertia(0).matrix() - expected).cwiseAbs().maxCoeff(), 1e-15);
  EXPECT_EQ(m.joint_axis(1), Eigen::Vector3d(0, 1, 0));
  EXPECT_LT((m.home_pose(1).translation - Eigen::Vector3d(0.5, 0, 0.1)).norm(), 1e-15);
}

TEST(GeneratedHeaders, LumpedLinkFramesInTheirBody) {
  // imu_frame: base ∘ sensor_mount (0.5, 0, 0), yaw π/2 ∘ imu_mount (0, 0, 0.02).
  const auto& imu = lumping_urdf::kLinkBodies[static_cast<std::size_t>(2)];
  ASSERT_EQ(std::string_view(imu.link), "imu_frame");
  EXPECT_EQ(imu.body, 0);
  const std::array<double, 12> expected{0, -1, 0, 1, 0, 0, 0, 0, 1, 0.5, 0, 0.02};
  for (std::size_t i = 0; i < 12; ++i) EXPECT_NEAR(imu.pose_in_body[i], expected[i], 1e-15) << i;
  const auto& gimbal = lumping_urdf::kLinkBodies[static_cast<std::size_t>(3)];
  EXPECT_EQ(std::string_view(gimbal.link), "gimbal");
  EXPECT_EQ(gimbal.body, 1);
  EXPECT_EQ(gimbal.pose_in_body, (std::array<double, 12>{1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0}));
}

/// branching.urdf's topology with every joint of a general kind.
struct GeneralBranching {
  static constexpr int kNumBodies = branching_urdf::Tree::kNumBodies;
  static constexpr std::array<int, kNumBodies> kParent = branching_urdf::Tree::kParent;
  static constexpr std::array<JointKind, kNumBodies> kJoint{
      JointKind::kFloatingBase, JointKind::kRevolute, JointKind::kRevolute,
      JointKind::kRevolute,     JointKind::kRevolute, JointKind::kPrismatic};
};

TEST(GeneratedHeaders, ChosenKindsMatchGeneralKinds) {
  using Tree = branching_urdf::Tree;
  static_assert(
      Tree::kJoint[1] == JointKind::kRevoluteZ && Tree::kJoint[2] == JointKind::kRevoluteY &&
      Tree::kJoint[3] == JointKind::kRevolute && Tree::kJoint[4] == JointKind::kRevoluteZ &&
      Tree::kJoint[5] == JointKind::kPrismaticX);
  hodyn::Model<Tree, double> chosen;
  ASSERT_EQ(branching_urdf::make_model(chosen), Status::kOk);
  hodyn::Model<GeneralBranching, double> general;
  const auto& table = branching_urdf::parameters::kJointAxis;
  for (int j = 0; j < Tree::kNumBodies; ++j) {
    ASSERT_EQ(general.set_body(j, chosen.home_pose(j), chosen.body_inertia(j)), Status::kOk);
    if (j == 0) continue;
    const auto& e = table[static_cast<std::size_t>(j)];
    const Eigen::Vector3d axis(e[0], e[1], e[2]), point(e[3], e[4], e[5]);
    ASSERT_EQ(hodyn::is_revolute(GeneralBranching::kJoint[static_cast<std::size_t>(j)])
                  ? general.set_revolute_axis(j, axis, point)
                  : general.set_prismatic_axis(j, axis),
              Status::kOk);
  }
  ASSERT_EQ(general.set_gravity(chosen.gravity()), Status::kOk);

  constexpr int kOrder = 2;
  auto mc = std::make_unique<hodyn::MotionDerivatives<Tree, kOrder, double>>();
  auto mg = std::make_unique<hodyn::MotionDerivatives<GeneralBranching, kOrder, double>>();
  auto dc = std::make_unique<hodyn::InverseDynamicsData<Tree, kOrder, double>>();
  auto dg = std::make_unique<hodyn::InverseDynamicsData<GeneralBranching, kOrder, double>>();
  double worst = 0;
  for (unsigned s = 0; s < 20; ++s) {
    hodyn::test::Rng rng(500 + s);
    mc->base_pose = rng.pose(1.0);
    for (auto& v : mc->base_twist) v = rng.vec6();
    for (auto& q : mc->q)
      for (int i = 0; i < q.size(); ++i) q(i) = rng.normal();
    mg->base_pose = mc->base_pose;
    mg->base_twist = mc->base_twist;
    for (std::size_t k = 0; k < mc->q.size(); ++k) mg->q[k] = mc->q[k];
    ASSERT_EQ(hodyn::inverse_dynamics(chosen, *dc, *mc, kOrder), Status::kOk);
    ASSERT_EQ(hodyn::inverse_dynamics(general, *dg, *mg, kOrder), Status::kOk);
    for (std::size_t k = 0; k <= kOrder; ++k) {
      Eigen::Matrix<double, 11, 1> yc, yg;
      yc << dc->base_wrench[k], dc->joint_torque[k];
      yg << dg->base_wrench[k], dg->joint_torque[k];
      const double e = hodyn::test::rel_err(yc, yg);
      worst = std::max(worst, e);
      EXPECT_LT(e, 1e-13) << "state " << s << " derivative " << k;
    }
  }
  std::cout << "chosen vs general joint kinds: worst relative difference " << worst << std::endl;
}

}  // namespace
