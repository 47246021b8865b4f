// RobotDescription (models/robot.hpp): validity checks name their culprit,
// robot ids are FNV-1a, and the 12-DoF robot type describes the robot the
// controller and the simulator have always used.
#include <gtest/gtest.h>

#include <limits>

#include "hodyn/models/aerial_manipulator_robot.hpp"

namespace hodyn {
namespace {

using Description = DescriptionOf<AerialManipulatorRobot>;

Description valid_robot() {
  Description d;
  EXPECT_EQ(AerialManipulatorRobot::describe(d), Status::kOk);
  return d;
}

TEST(RobotId, IsFnv1a32) {
  // Test vectors of the FNV specification (offset basis 2166136261, prime 16777619).
  EXPECT_EQ(robot_id(""), 0x811c9dc5u);
  EXPECT_EQ(robot_id("a"), 0xe40c292cu);
  EXPECT_EQ(robot_id("foobar"), 0xbf9cf968u);
  static_assert(robot_id("a") == 0xe40c292cu, "robot_id is constexpr");
}

TEST(AerialManipulatorRobot, DescribesTable3WithElasticJointsAndTheTiltHex) {
  const Description d = valid_robot();
  EXPECT_EQ(Description::kNumJoints, 6);
  EXPECT_EQ(Description::kNumRotors, 6);
  EXPECT_EQ(d.num_elastic_joints(), 6);
  AerialManipulatorModel<double> reference;
  ASSERT_EQ(make_aerial_manipulator(reference), Status::kOk);
  EXPECT_DOUBLE_EQ(d.model.total_mass(), reference.total_mass());
  EXPECT_DOUBLE_EQ(d.model.total_mass(), 2.5 + 6 * 0.25);
  const AerialManipulatorActuation actuation{};
  EXPECT_TRUE(rotor_allocation(d.rotors).isApprox(tilthex_allocation<double>(actuation.tilthex)));
  for (int j = 0; j < 6; ++j) {
    EXPECT_EQ(d.actuator(j).drive, JointDrive::kElastic);
    EXPECT_EQ(d.actuator(j).stiffness, actuation.joints[0].stiffness);
    EXPECT_EQ(d.limit(j).effort, actuation.joints[0].torque_limit);
    EXPECT_FALSE(d.limit(j).bounded);
  }
  EXPECT_STREQ(AerialManipulatorRobot::kName, "aerial_manipulator");
}

TEST(CheckRobot, NamesTheBadActuator) {
  Description d = valid_robot();
  d.actuators[3].stiffness = 0.0;
  RobotDefect defect;
  EXPECT_EQ(check_robot(d, &defect), Status::kInvalidModel);
  EXPECT_EQ(defect.part, RobotPart::kActuator);
  EXPECT_EQ(defect.index, 3);

  d = valid_robot();
  d.actuators[2] = rigid_joint(std::numeric_limits<double>::quiet_NaN());
  EXPECT_EQ(check_robot(d, &defect), Status::kInvalidModel);
  EXPECT_EQ(defect.index, 2);

  // A rigid joint needs only its torque limit.
  d = valid_robot();
  d.actuators[2] = rigid_joint(10.0);
  EXPECT_EQ(check_robot(d, &defect), Status::kOk);
  EXPECT_EQ(defect.part, RobotPart::kNone);
  EXPECT_EQ(d.num_elastic_joints(), 5);
}

TEST(CheckRobot, NamesBadLimits) {
  Description d = valid_robot();
  d.limits[4].bounded = true;
  d.limits[4].lower = 1.0;
  d.limits[4].upper = -1.0;
  RobotDefect defect;
  EXPECT_EQ(check_robot(d, &defect), Status::kInvalidModel);
  EXPECT_EQ(defect.part, RobotPart::kLimits);
  EXPECT_EQ(defect.index, 4);
}

TEST(CheckRobot, NamesTheBadRotorAndASingularAllocation) {
  Description d = valid_robot();
  d.rotors[5].max_speed = -1.0;
  RobotDefect defect;
  EXPECT_NE(check_robot(d, &defect), Status::kOk);
  EXPECT_EQ(defect.part, RobotPart::kRotor);
  EXPECT_EQ(defect.index, 5);

  // Six parallel thrust axes: no lateral force, rank < 6.
  d = valid_robot();
  for (int i = 0; i < 6; ++i) d.rotors[i].axis = Vector3<double>::UnitZ();
  EXPECT_EQ(check_robot(d, &defect), Status::kSingularAllocation);
  EXPECT_EQ(defect.part, RobotPart::kAllocation);
}

TEST(AerialManipulatorRobot, RejectsNonPhysicalParametersAndLeavesTheOutput) {
  Description d = valid_robot();
  AerialManipulatorParameters body;
  body.link_mass = -1.0;
  EXPECT_NE(AerialManipulatorRobot::describe(d, body), Status::kOk);
  EXPECT_DOUBLE_EQ(d.model.total_mass(), 4.0);  // unchanged
  AerialManipulatorActuation actuation;
  actuation.joints[1].motor_inertia = 0.0;
  EXPECT_EQ(AerialManipulatorRobot::describe(d, {}, actuation), Status::kInvalidModel);
}

TEST(RobotDescription, FloatDescriptionBuilds) {
  DescriptionOf<AerialManipulatorRobot, float> d;
  ASSERT_EQ(AerialManipulatorRobot::describe(d), Status::kOk);
  EXPECT_NEAR(d.model.total_mass(), 4.0f, 1e-6f);
}

}  // namespace
}  // namespace hodyn
