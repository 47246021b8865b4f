// The closed loop's reference for any robot (robot_reference.hpp): its
// analytic derivatives against central finite differences of the order below
// (base position, yaw, angular velocity, spatial twist, joints; orders 1..4
// as the plugin's hodyn_reference and the plant's start use them), its shape
// from the robot's joint limits (octo_arm's numbers worked out by hand), and
// the reference frame it fills.
#include <gtest/gtest.h>

#include <hodyn/closed_loop/robot_reference.hpp>
#include <hodyn/logarithm.hpp>
#include <octo_arm_robot.hpp>

#include <cmath>

namespace {

using namespace hodyn;
using namespace hodyn::closed_loop;

constexpr double kH = 1e-4;    // finite-difference step (s)
constexpr double kTol = 1e-7;  // truncation ~h² wᵏ⁺³ a / 6 ≈ 1e-9, rounding ≈ 1e-12
const double kTimes[] = {0.0, 0.37, 3.9, 11.2, 27.5};

CircleReference<4> octo_reference() {
  DescriptionOf<octo_arm::Robot, double> robot;
  EXPECT_EQ(octo_arm::Robot::describe<double>(robot), Status::kOk);
  return robot_reference<octo_arm::Robot>(robot);
}

TEST(RobotReference, ShapeFollowsTheJointLimits) {
  const CircleReference<4> r = octo_reference();
  // arm_yaw ±2.6 rad: middle 0, amplitude min(0.5·2.6, 0.35) = 0.35 rad.
  EXPECT_DOUBLE_EQ(r.joint_middle[0], 0.0);
  EXPECT_DOUBLE_EQ(r.joint_amplitude[0], 0.35);
  // arm_pitch −1.2..1.5 rad: middle 0.15, amplitude min(0.675, 0.35).
  EXPECT_NEAR(r.joint_middle[1], 0.15, 1e-15);
  EXPECT_DOUBLE_EQ(r.joint_amplitude[1], 0.35);
  // arm_extend 0..0.15 m (prismatic): middle 0.075, amplitude min(0.0375, 0.04) m.
  EXPECT_NEAR(r.joint_middle[2], 0.075, 1e-15);
  EXPECT_NEAR(r.joint_amplitude[2], 0.0375, 1e-15);
  // wrist_roll ±3 rad.
  EXPECT_DOUBLE_EQ(r.joint_amplitude[3], 0.35);
  EXPECT_DOUBLE_EQ(r.joint_period[0], 8.0);
  EXPECT_DOUBLE_EQ(r.joint_period[3], 14.0);
  // Within the limits all the time (sampled over 60 s).
  for (double t = 0.0; t < 60.0; t += 0.01) {
    for (int j = 0; j < 4; ++j) {
      const JointLimits& l = octo_arm::kJointLimits[static_cast<std::size_t>(j)];
      EXPECT_GE(r.joint(j, t), l.lower) << j << " " << t;
      EXPECT_LE(r.joint(j, t), l.upper) << j << " " << t;
    }
  }
  // Starts on the circle at (ρ, 0, h) with zero yaw, joints at their middles.
  EXPECT_NEAR((r.base_position(0.0) - Vector3<double>(0.5, 0.0, 1.0)).norm(), 0.0, 1e-15);
  EXPECT_EQ(r.yaw(0.0), 0.0);
  for (int j = 0; j < 4; ++j)
    EXPECT_EQ(r.joint(j, 0.0), r.joint_middle[static_cast<std::size_t>(j)]);
}

TEST(RobotReference, UnboundedJointsMoveAroundZeroWithTheCap) {
  DescriptionOf<AerialManipulatorRobot, double> robot;
  ASSERT_EQ(AerialManipulatorRobot::describe<double>(robot), Status::kOk);
  const auto r = robot_reference<AerialManipulatorRobot>(robot);
  for (int j = 0; j < 6; ++j) {
    EXPECT_EQ(r.joint_middle[static_cast<std::size_t>(j)], 0.0);
    EXPECT_EQ(r.joint_amplitude[static_cast<std::size_t>(j)], 0.35);
  }
}

TEST(RobotReference, DerivativesMatchFiniteDifferences) {
  const CircleReference<4> r = octo_reference();
  for (double t : kTimes) {
    const double tp = t + kH, tm = t - kH;
    for (int k = 1; k <= 5; ++k) {
      const Vector3<double> dx =
          (r.base_position(tp, k - 1) - r.base_position(tm, k - 1)) / (2 * kH);
      EXPECT_LT((dx - r.base_position(t, k)).norm(), kTol) << "x^(" << k << ") t " << t;
      EXPECT_NEAR((r.yaw(tp, k - 1) - r.yaw(tm, k - 1)) / (2 * kH), r.yaw(t, k), kTol);
      for (int j = 0; j < 4; ++j)
        EXPECT_NEAR((r.joint(j, tp, k - 1) - r.joint(j, tm, k - 1)) / (2 * kH), r.joint(j, t, k),
                    kTol)
            << "q" << j + 1 << "^(" << k << ") t " << t;
    }
    for (int k = 1; k <= 3; ++k) {
      const Vector3<double> dw =
          (r.base_angular_velocity(tp, k - 1) - r.base_angular_velocity(tm, k - 1)) / (2 * kH);
      EXPECT_LT((dw - r.base_angular_velocity(t, k)).norm(), kTol) << "w^(" << k << ")";
      const Twist<double> dv = (r.base_twist(tp, k - 1) - r.base_twist(tm, k - 1)) / (2 * kH);
      EXPECT_LT((dv - r.base_twist(t, k)).norm(), kTol) << "V^(" << k << ") t " << t;
    }
    // Order 0 from the pose alone: ω = log(R(t+h) R(t−h)ᵀ)/2h, v = ẋ − ω × x.
    const Pose<double> p = r.base_pose(t), pp = r.base_pose(tp), pm = r.base_pose(tm);
    const Vector3<double> w =
        so3_log(Matrix3<double>(pp.rotation * pm.rotation.transpose())) / (2 * kH);
    const Vector3<double> xdot = (pp.translation - pm.translation) / (2 * kH);
    const Twist<double> twist = r.base_twist(t, 0);
    EXPECT_LT((twist.head<3>() - w).norm(), kTol);
    EXPECT_LT((twist.tail<3>() - (xdot - w.cross(p.translation))).norm(), kTol);
    EXPECT_LT((twist.head<3>() - r.base_angular_velocity(t, 0)).norm(), 1e-15);
  }
}

TEST(RobotReference, FrameCarriesEveryOrderThePluginReads) {
  const CircleReference<4> r = octo_reference();
  hodyn_reference f{};
  const double t = 7.3;
  reference_frame(r, t, f);
  EXPECT_EQ(f.time, t);
  EXPECT_EQ(f.num_joints, 4u);
  for (int k = 0; k <= HODYN_REFERENCE_ORDER; ++k) {
    for (int i = 0; i < 3; ++i) EXPECT_EQ(f.base_position[k][i], r.base_position(t, k)(i));
    for (int j = 0; j < 4; ++j) EXPECT_EQ(f.joint_position[k][j], r.joint(j, t, k));
  }
  for (int k = 0; k < HODYN_REFERENCE_ORDER; ++k)
    for (int i = 0; i < 3; ++i)
      EXPECT_EQ(f.base_angular_velocity[k][i], r.base_angular_velocity(t, k)(i));
  // The quaternion is R_z(ψ): (cos ψ/2, 0, 0, sin ψ/2).
  const double psi = r.yaw(t);
  EXPECT_NEAR(f.base_orientation[0], std::cos(psi / 2), 1e-15);
  EXPECT_NEAR(f.base_orientation[3], std::sin(psi / 2), 1e-15);
  EXPECT_EQ(f.base_orientation[1], 0.0);
  // Orders outside the formulas give NaN, never a wrong number.
  EXPECT_TRUE(std::isnan(r.joint(0, t, -1)));
  EXPECT_TRUE(std::isnan(r.joint(4, t, 0)));
}

}  // namespace
