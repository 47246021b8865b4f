// The 12-DoF robot generated as a robot type from its three files
// (core/robots/aerial_manipulator/: URDF, rotors.json, actuators.json;
// hodyn_urdf_generate(... ROTORS ... ACTUATORS ...) → am_robot_robot.hpp)
// against the hand-written hodyn::AerialManipulatorRobot::describe():
//   - the model: masses, home centres of mass and inertias, joint screws and
//     senses, gravity to 1e-12 (the URDF puts link frames on the joint axes,
//     the built-in model at the centres of mass: parameters differ, these
//     world-frame quantities must not);
//   - the actuators: equal, field by field (six elastic joints with the
//     ElasticJointParameters defaults);
//   - the 6x6 allocation to 1e-12;
//   - the limits DIFFER, on purpose: the URDF's joints are continuous without
//     <limit>, so the generated robot's effort limits are +inf (kJointLimits),
//     while the hand-written one sets each effort limit to its motor's
//     torque limit (5 N m). Position and velocity limits agree (unbounded).
// Expected values are the hand-written robot's, built by other code.
#include <am_robot_robot.hpp>

#include <hodyn/models/aerial_manipulator_robot.hpp>
#include <hodyn/models/robot.hpp>

#include <gtest/gtest.h>

#include <cstdio>
#include <limits>
#include <string>

namespace {

using Generated = am_robot::Robot;
using Handwritten = hodyn::AerialManipulatorRobot;
using hodyn::Status;

static_assert(Generated::Tree::kNumBodies == Handwritten::Tree::kNumBodies, "7 bodies");
static_assert(Generated::kNumRotors == Handwritten::kNumRotors, "6 rotors");

constexpr double kTolerance = 1e-12;

struct Both {
  hodyn::DescriptionOf<Generated> generated;
  hodyn::DescriptionOf<Handwritten> handwritten;
  Both() {
    EXPECT_EQ(Generated::describe(generated), Status::kOk);
    EXPECT_EQ(Handwritten::describe(handwritten), Status::kOk);
  }
};

TEST(GeneratedRobotAerialManipulator, SameTopology) {
  for (int j = 0; j < Generated::Tree::kNumBodies; ++j) {
    EXPECT_EQ(Generated::Tree::kParent[static_cast<std::size_t>(j)],
              Handwritten::Tree::kParent[static_cast<std::size_t>(j)]);
    EXPECT_EQ(Generated::Tree::kJoint[static_cast<std::size_t>(j)],
              Handwritten::Tree::kJoint[static_cast<std::size_t>(j)]);
  }
  EXPECT_EQ(std::string(Generated::kName), "am_robot");
  EXPECT_NE(Generated::kId, Handwritten::kId);  // different names and texts
}

TEST(GeneratedRobotAerialManipulator, SameModel) {
  const Both b;
  const auto& g = b.generated.model;
  const auto& h = b.handwritten.model;
  EXPECT_NEAR(g.total_mass(), h.total_mass(), kTolerance);
  for (int j = 0; j < Generated::Tree::kNumBodies; ++j) {
    EXPECT_NEAR(g.mass(j), h.mass(j), kTolerance) << j;
    EXPECT_LT((g.home_com(j) - h.home_com(j)).norm(), kTolerance) << j;
    EXPECT_LT((g.home_inertia(j).matrix() - h.home_inertia(j).matrix()).norm(), kTolerance) << j;
    if (j == 0) continue;
    EXPECT_LT((g.joint_screw(j) - h.joint_screw(j)).norm(), kTolerance) << j;
    EXPECT_EQ(g.joint_sense(j), h.joint_sense(j)) << j;
  }
  EXPECT_EQ(g.gravity(), h.gravity());
}

TEST(GeneratedRobotAerialManipulator, SameActuators) {
  const Both b;
  EXPECT_EQ(b.generated.num_elastic_joints(), 6);
  for (int j = 0; j < 6; ++j) {
    const hodyn::JointActuator& g = b.generated.actuator(j);
    const hodyn::JointActuator& h = b.handwritten.actuator(j);
    EXPECT_EQ(g.drive, h.drive) << j;
    EXPECT_EQ(g.torque_limit, h.torque_limit) << j;
    EXPECT_EQ(g.motor_inertia, h.motor_inertia) << j;
    EXPECT_EQ(g.stiffness, h.stiffness) << j;
    EXPECT_EQ(g.damping, h.damping) << j;
    EXPECT_EQ(g.motor_friction, h.motor_friction) << j;
  }
}

TEST(GeneratedRobotAerialManipulator, SameAllocation) {
  const Both b;
  const hodyn::Matrix6<double> g = hodyn::rotor_allocation(b.generated.rotors);
  const hodyn::Matrix6<double> h = hodyn::rotor_allocation(b.handwritten.rotors);
  const double difference = (g - h).cwiseAbs().maxCoeff();
  std::printf("allocation: max |generated - hand-written| = %.3g\n", difference);
  EXPECT_LE(difference, kTolerance);
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(b.generated.rotors[i].min_speed, b.handwritten.rotors[i].min_speed) << i;
    EXPECT_EQ(b.generated.rotors[i].max_speed, b.handwritten.rotors[i].max_speed) << i;
    EXPECT_EQ(b.generated.rotors[i].time_constant, b.handwritten.rotors[i].time_constant) << i;
  }
}

TEST(GeneratedRobotAerialManipulator, LimitsDifferOnlyInEffort) {
  const Both b;
  const double inf = std::numeric_limits<double>::infinity();
  for (int j = 0; j < 6; ++j) {
    const hodyn::JointLimits& g = b.generated.limit(j);
    const hodyn::JointLimits& h = b.handwritten.limit(j);
    EXPECT_EQ(g.bounded, h.bounded) << j;
    EXPECT_FALSE(g.bounded) << j;
    EXPECT_EQ(g.velocity, h.velocity) << j;
    EXPECT_EQ(g.effort, inf) << j;  // continuous URDF joint without <limit>
    EXPECT_EQ(h.effort, 5.0) << j;  // the hand-written robot: the motor's u_max
  }
}

}  // namespace
