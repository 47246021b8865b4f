// The second built-in robot, octo_arm (core/robots/octo_arm/), as the robot
// type hodyn_urdf_generate(... ROTORS ... ACTUATORS ...) writes
// (octo_arm_robot.hpp), compiled with every warning as an error
// (tests/urdf/CMakeLists.txt). Expected values are the robot's specification
// (docs/robot-description.md, the URDF's comment), not read from the headers:
//   - describe() gives kOk, in double and float; 4 joints, 8 rotors;
//   - drives rigid, elastic, rigid, rigid with the numbers of the spec;
//     arm_extend's rigid limit is the URDF effort (the file omits it);
//   - arm_pitch turns about −y (joint sense −1), arm_extend is prismatic x;
//   - position, velocity and effort limits of the URDF;
//   - total mass 4.2 kg, base centre of mass off the frame origin;
//   - the allocation has rank 6 and a moderate condition number, and hover at
//     home (the minimum-norm ω² for the weight at the model's centre of mass)
//     is within the rotors' speed range with margin (both printed).
#include <octo_arm_robot.hpp>

#include <hodyn/models/robot.hpp>
#include <hodyn/models/rotor_set.hpp>

#include <gtest/gtest.h>

#include <Eigen/Core>
#include <Eigen/SVD>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace {

using Robot = octo_arm::Robot;
using hodyn::JointDrive;
using hodyn::Status;

static_assert(Robot::kNumRotors == 8, "eight rotors");
static_assert(hodyn::DescriptionOf<Robot>::kNumJoints == 4, "four arm joints");
static_assert(Robot::Tree::kJoint[3] == hodyn::JointKind::kPrismaticX, "arm_extend slides along x");
static_assert(octo_arm::kJointActuators[1].drive == JointDrive::kElastic, "constexpr actuators");

constexpr double kPi = 3.14159265358979323846;

TEST(GeneratedOctoArm, DescribesTheRobot) {
  hodyn::DescriptionOf<Robot> robot;
  ASSERT_EQ(Robot::describe(robot), Status::kOk);
  EXPECT_EQ(std::string(Robot::kName), "octo_arm");
  EXPECT_NE(Robot::kId, 0u);
  EXPECT_EQ(robot.num_elastic_joints(), 1);
  EXPECT_NEAR(robot.model.total_mass(), 4.2, 1e-12);
  // The base's centre of mass is off its frame origin (URDF: 0.02, -0.01, -0.015 m).
  const hodyn::Vector3<double> base_com = robot.model.body_inertia(0).com();
  EXPECT_NEAR(base_com(0), 0.02, 1e-15);
  EXPECT_NEAR(base_com(1), -0.01, 1e-15);
  EXPECT_NEAR(base_com(2), -0.015, 1e-15);

  hodyn::DescriptionOf<Robot, float> robot_float;
  EXPECT_EQ(Robot::describe<float>(robot_float), Status::kOk);
}

TEST(GeneratedOctoArm, JointsAreDrivenAsSpecified) {
  hodyn::DescriptionOf<Robot> robot;
  ASSERT_EQ(Robot::describe(robot), Status::kOk);
  const char* names[] = {"arm_yaw", "arm_pitch", "arm_extend", "wrist_roll"};
  for (int j = 0; j < 4; ++j) EXPECT_EQ(std::string(octo_arm::kJointNames[j]), names[j]);

  const hodyn::JointActuator& yaw = robot.actuator(0);
  EXPECT_EQ(yaw.drive, JointDrive::kRigid);
  EXPECT_EQ(yaw.torque_limit, 8.0);

  const hodyn::JointActuator& pitch = robot.actuator(1);
  EXPECT_EQ(pitch.drive, JointDrive::kElastic);
  EXPECT_EQ(pitch.motor_inertia, 4e-3);
  EXPECT_EQ(pitch.stiffness, 60.0);
  EXPECT_EQ(pitch.damping, 0.05);
  EXPECT_EQ(pitch.motor_friction, 0.01);
  EXPECT_EQ(pitch.torque_limit, 6.0);

  const hodyn::JointActuator& extend = robot.actuator(2);
  EXPECT_EQ(extend.drive, JointDrive::kRigid);
  EXPECT_EQ(extend.torque_limit, 40.0);  // not in actuators.json: the URDF effort

  const hodyn::JointActuator& roll = robot.actuator(3);
  EXPECT_EQ(roll.drive, JointDrive::kRigid);
  EXPECT_EQ(roll.torque_limit, 2.0);
}

TEST(GeneratedOctoArm, AxesSensesAndKinds) {
  hodyn::DescriptionOf<Robot> robot;
  ASSERT_EQ(Robot::describe(robot), Status::kOk);
  using K = hodyn::JointKind;
  EXPECT_EQ(Robot::Tree::kJoint[1], K::kRevoluteZ);
  EXPECT_EQ(Robot::Tree::kJoint[2], K::kRevoluteY);
  EXPECT_EQ(Robot::Tree::kJoint[3], K::kPrismaticX);
  EXPECT_EQ(Robot::Tree::kJoint[4], K::kRevoluteX);
  EXPECT_EQ(robot.model.joint_sense(1), 1.0);
  EXPECT_EQ(robot.model.joint_sense(2), -1.0);  // arm_pitch: <axis xyz="0 -1 0"/>
  EXPECT_EQ(robot.model.joint_sense(3), 1.0);
  EXPECT_EQ(robot.model.joint_sense(4), 1.0);
  // The arm hangs from body 0 in a chain, the tool lumped into the wrist.
  EXPECT_EQ(Robot::Tree::kParent[1], 0);
  EXPECT_EQ(Robot::Tree::kParent[4], 3);
  EXPECT_EQ(octo_arm::body_index("tool_link"), 4);
}

TEST(GeneratedOctoArm, LimitsOfTheUrdf) {
  hodyn::DescriptionOf<Robot> robot;
  ASSERT_EQ(Robot::describe(robot), Status::kOk);
  struct Expected {
    double lower, upper, velocity, effort;
  };
  const Expected expected[] = {
      {-2.6, 2.6, 3.0, 8.0}, {-1.2, 1.5, 4.0, 6.0}, {0.0, 0.15, 0.3, 40.0}, {-3.0, 3.0, 6.0, 2.0}};
  for (int j = 0; j < 4; ++j) {
    const hodyn::JointLimits& l = robot.limit(j);
    EXPECT_TRUE(l.bounded) << j;
    EXPECT_EQ(l.lower, expected[j].lower) << j;
    EXPECT_EQ(l.upper, expected[j].upper) << j;
    EXPECT_EQ(l.velocity, expected[j].velocity) << j;
    EXPECT_EQ(l.effort, expected[j].effort) << j;
  }
}

TEST(GeneratedOctoArm, RotorsCanHoverWithMargin) {
  hodyn::DescriptionOf<Robot> robot;
  ASSERT_EQ(Robot::describe(robot), Status::kOk);
  // Geometry of the spec: radius 0.38 m, 45° apart, tilted ±25° about the
  // radial direction, spins alternating.
  for (int i = 0; i < 8; ++i) {
    const hodyn::Rotor<double>& r = robot.rotors[i];
    const double radius = std::hypot(r.position(0), r.position(1));
    EXPECT_NEAR(radius, 0.38, 1e-12) << i;
    const hodyn::Vector3<double> radial(r.position(0) / radius, r.position(1) / radius, 0.0);
    EXPECT_NEAR(r.axis.dot(radial), 0.0, 1e-12) << i;  // a tilt about the radial direction
    EXPECT_NEAR(std::acos(r.axis(2)), 25.0 * kPi / 180.0, 1e-12) << i;
    EXPECT_EQ(r.spin, i % 2 == 0 ? 1 : -1) << i;
    EXPECT_EQ(r.thrust_coefficient, 9e-6);
    EXPECT_EQ(r.drag_coefficient, 1.5e-7);
    EXPECT_EQ(r.time_constant, 0.025);
    if (i > 0) {
      const hodyn::Rotor<double>& p = robot.rotors[i - 1];
      const double angle = std::atan2(p.position(0) * r.position(1) - p.position(1) * r.position(0),
                                      p.position.head<2>().dot(r.position.head<2>()));
      EXPECT_NEAR(angle, kPi / 4.0, 1e-12) << i;
    }
  }

  const Eigen::Matrix<double, 6, 8> a = hodyn::rotor_allocation(robot.rotors);
  const Eigen::JacobiSVD<Eigen::Matrix<double, 6, 8>> svd(a);
  const Eigen::Matrix<double, 6, 1> sigma = svd.singularValues();
  const double condition = sigma(0) / sigma(5);
  std::printf("octo_arm allocation: singular values %.4g .. %.4g, condition number %.1f\n",
              sigma(0), sigma(5), condition);
  EXPECT_GT(sigma(5), 1e-10 * sigma(0));  // rank 6
  EXPECT_LT(condition, 200.0);            // the TiltHex's is of the same order

  // Hover at home: the rotors carry the weight m g at the centre of mass c,
  // W = (c × (m g e_z); m g e_z) about the base origin; minimum-norm u = ω².
  const double g = 9.81;
  const double m = robot.model.total_mass();
  hodyn::Vector3<double> c = hodyn::Vector3<double>::Zero();
  for (int j = 0; j < 5; ++j) c += robot.model.mass(j) * robot.model.home_com(j);
  c /= m;
  const hodyn::Vector3<double> lift(0.0, 0.0, m * g);
  Eigen::Matrix<double, 6, 1> wrench;
  wrench << c.cross(lift), lift;
  const Eigen::Matrix<double, 8, 1> u = a.transpose() * (a * a.transpose()).ldlt().solve(wrench);
  EXPECT_LT((a * u - wrench).norm(), 1e-9 * wrench.norm());
  std::printf("octo_arm hover at home: total mass %.4g kg, CoM (%.4f, %.4f, %.4f) m\n", m, c(0),
              c(1), c(2));
  double lowest = 1e300, highest = 0.0;
  for (int i = 0; i < 8; ++i) {
    ASSERT_GT(u(i), 0.0) << "rotor " << i << " would need negative thrust";
    const double speed = std::sqrt(u(i));
    std::printf("  rotor %d: %.1f rad/s (%.0f %% of max)\n", i, speed,
                100.0 * speed / robot.rotors[i].max_speed);
    lowest = std::min(lowest, speed);
    highest = std::max(highest, speed);
  }
  // Margin: every rotor within [1.5 ω_min, 0.8 ω_max] at hover.
  EXPECT_GE(lowest, 1.5 * 120.0);
  EXPECT_LE(highest, 0.8 * 1300.0);
}

}  // namespace
