// The plant simulator generic over a robot type (hodyn/simulator/plant.hpp):
// a small hand-written robot — an off-centre base, 8 tilted rotors with their
// own time constants, one arm of an elastic revolute joint about −y, a rigid
// prismatic joint and a rigid revolute joint about a skew axis — conserves
// momentum and energy when free, saturates its rigid joints' torques and
// hovers still in the equilibrium state computed from its model; and the
// 12-DoF robot through its description is the same plant as before.
#include <gtest/gtest.h>

#include <hodyn/simulator/simulator.hpp>

#include <Eigen/Geometry>
#include <Eigen/SVD>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <type_traits>

namespace hodyn {
namespace {

struct ArmTree {
  static constexpr int kNumBodies = 4;
  static constexpr std::array<int, kNumBodies> kParent{-1, 0, 1, 2};
  static constexpr std::array<JointKind, kNumBodies> kJoint{
      JointKind::kFloatingBase, JointKind::kRevoluteY, JointKind::kPrismaticZ,
      JointKind::kRevolute};
};

struct TestArmRobot {
  using Tree = ArmTree;
  static constexpr int kNumRotors = 8;
  static constexpr const char* kName = "test_arm";
  static constexpr std::uint32_t kId = robot_id("test_arm: tests/simulator/test_generic_plant.cpp");

  template <class Scalar>
  static Status describe(DescriptionOf<TestArmRobot, Scalar>& out) {
    static_assert(std::is_same_v<Scalar, double>, "the test robot is described in double");
    DescriptionOf<TestArmRobot, double> robot;
    using V3 = Vector3<double>;
    const auto body = [&](int j, const V3& com, double mass, const V3& inertia) {
      return robot.model.set_body(j, Pose<double>::from_translation(com),
                                  SpatialInertia<double>::from_mass_com_inertia(
                                      mass, V3::Zero(), inertia.asDiagonal().toDenseMatrix()));
    };
    // Base: centre of mass off every axis of its frame.
    Status s = robot.model.set_body(
        0, Pose<double>::identity(),
        SpatialInertia<double>::from_mass_com_inertia(
            3.0, V3(0.03, -0.02, 0.01), V3(0.05, 0.06, 0.09).asDiagonal().toDenseMatrix()));
    if (s == Status::kOk) s = body(1, V3(0.15, 0.0, -0.2), 0.3, V3(2e-3, 2e-3, 5e-4));
    if (s == Status::kOk) s = robot.model.set_revolute_axis(1, -V3::UnitY(), V3(0.15, 0.0, -0.1));
    if (s == Status::kOk) s = body(2, V3(0.15, 0.0, -0.35), 0.2, V3(1e-3, 1e-3, 2e-4));
    if (s == Status::kOk) s = robot.model.set_prismatic_axis(2, V3::UnitZ());
    if (s == Status::kOk) s = body(3, V3(0.15, 0.02, -0.45), 0.15, V3(5e-4, 6e-4, 3e-4));
    if (s == Status::kOk)
      s = robot.model.set_revolute_axis(3, V3(1.0, 1.0, 0.0).normalized(), V3(0.15, 0.0, -0.4));
    if (s != Status::kOk) return s;
    robot.actuators[0] = elastic_joint(5e-3, 50.0, 0.02, 0.01, 5.0);
    robot.actuators[1] = rigid_joint(20.0);  // N
    robot.actuators[2] = rigid_joint(2.0);   // N m
    // Eight rotors on a 0.35 m ring, thrust axes tilted ±25° about the radius.
    const double pi = 3.14159265358979323846;
    const double tilt = 25.0 * pi / 180.0;
    for (int i = 0; i < kNumRotors; ++i) {
      const double psi = i * pi / 4.0;
      const double sign = i % 2 == 0 ? 1.0 : -1.0;
      Rotor<double>& r = robot.rotors[i];
      r.position = V3(0.35 * std::cos(psi), 0.35 * std::sin(psi), 0.02);
      r.axis = std::cos(tilt) * V3::UnitZ() +
               sign * std::sin(tilt) * V3(std::sin(psi), -std::cos(psi), 0.0);
      r.spin = i % 2 == 0 ? 1 : -1;
      r.thrust_coefficient = 1.1e-5;
      r.drag_coefficient = 1.8e-7;
      r.min_speed = 100.0;
      r.max_speed = 1200.0;
      r.time_constant = 0.025 + 0.002 * i;  // each rotor its own lag
    }
    const Status valid = check_robot(robot);
    if (valid != Status::kOk) return valid;
    out = robot;
    return Status::kOk;
  }
};

using ArmPlant = sim::RobotPlant<TestArmRobot>;
using ArmParameters = sim::RobotPlantParameters<TestArmRobot>;
using ArmState = sim::RobotPlantState<TestArmRobot>;
using ArmInput = sim::RobotPlantInput<TestArmRobot>;
using ArmJoints = sim::PlantTraits<TestArmRobot>::JointVector;

Pose<double> tilted_pose() {
  Pose<double> c;
  c.rotation =
      Eigen::AngleAxisd(0.1, Eigen::Vector3d(1.0, -2.0, 0.5).normalized()).toRotationMatrix();
  c.translation = Vector3<double>(0.3, -0.2, 1.5);
  return c;
}

ArmJoints bent_arm() {
  ArmJoints q;
  q << 0.3, 0.05, -0.4;
  return q;
}

TEST(GenericPlant, SizesFollowTheRobot) {
  using L = sim::RobotStateLayout<TestArmRobot>;
  EXPECT_EQ(sim::PlantTraits<TestArmRobot>::kNumJoints, 3);
  EXPECT_EQ(sim::PlantTraits<TestArmRobot>::kNumRotors, 8);
  EXPECT_EQ(L::kSize, 6 + 4 * 3 + 8);
  EXPECT_EQ(L::kRotorSpeed, 18);
  EXPECT_EQ(sim::StateLayout::kSize, 36);  // the 12-DoF robot: 6 + 4·6 + 6
  ArmParameters params;
  EXPECT_EQ(sim::validate(params), Status::kOk);
  ArmPlant plant;
  EXPECT_NEAR(plant.model().total_mass(), 3.65, 1e-12);
  for (int i = 0; i < 8; ++i)  // at rest: every rotor at its idle speed
    EXPECT_EQ(plant.state().rotor_speed(i), 100.0);
}

// Free flight: g = 0, rotors at rest with ω_min = 0 and zero commands (so
// ω ≡ 0, no thrust), u = 0 (rigid joints torque-free), D = F = 0.
TEST(GenericPlant, FreeRobotConservesMomentumAndEnergy) {
  ArmParameters params;
  ASSERT_EQ(params.robot.model.set_gravity(Vector3<double>::Zero()), Status::kOk);
  params.robot.actuators[0].damping = 0.0;
  params.robot.actuators[0].motor_friction = 0.0;
  for (int i = 0; i < 8; ++i) params.robot.rotors[i].min_speed = 0.0;
  ArmPlant plant;
  ASSERT_EQ(plant.configure(params), Status::kOk);
  ArmState start;
  start.base_pose = tilted_pose();
  start.base_twist << 0.3, -0.2, 0.5, 0.4, 0.1, -0.2;
  start.q = bent_arm();
  start.q_dot << 0.5, -0.2, 0.8;
  start.motor_position = start.q;
  start.motor_position(0) += 0.01;  // the elastic joint's spring is loaded
  start.motor_velocity = start.q_dot;
  start.motor_velocity(0) += 0.2;
  start.rotor_speed.setZero();
  ASSERT_EQ(plant.set_state(start), Status::kOk);

  sim::PlantEnergy e0, e1;
  Wrench<double> p0, p1;
  ASSERT_EQ(sim::plant_energy(plant.model(), params, plant.state(), e0), Status::kOk);
  ASSERT_EQ(sim::spatial_momentum(plant.model(), plant.state(), p0), Status::kOk);
  const ArmInput zero;
  for (int k = 0; k < 2000; ++k) ASSERT_EQ(plant.step(zero, 1e-3), Status::kOk);
  ASSERT_EQ(sim::plant_energy(plant.model(), params, plant.state(), e1), Status::kOk);
  ASSERT_EQ(sim::spatial_momentum(plant.model(), plant.state(), p1), Status::kOk);

  const double energy_drift = std::abs(e1.total() - e0.total()) / e0.total();
  const double angular_drift = (angular(p1) - angular(p0)).norm() / angular(p0).norm();
  const double linear_drift = (linear(p1) - linear(p0)).norm() / linear(p0).norm();
  std::printf(
      "free arm robot, 2 s at 1/8000 s: relative drift energy %.2e (E0 = %.4f J), "
      "angular momentum %.2e, linear momentum %.2e\n",
      energy_drift, e0.total(), angular_drift, linear_drift);
  EXPECT_EQ(plant.state().rotor_speed.norm(), 0.0);  // no thrust at any time
  EXPECT_GT(e0.spring_potential, 0.0);
  EXPECT_GT(e0.motor_kinetic, 0.0);
  // RK4 on the stiffest mode, the elastic joint's √(K/B) = 100 rad/s, loses
  // a fraction ≈ (ω h)⁶/72 = 5e-14 of its energy per step (|R(iωh)|² of
  // RK4), 8e-10 over 16 000 steps; the momentum M̄(q) ν is not a linear
  // invariant, so RK4 keeps it only to its truncation error too. 1e-8 and
  // 1e-9 leave an order of magnitude (energy) for the coupling to the free links.
  EXPECT_LT(energy_drift, 1e-8);
  EXPECT_LT(angular_drift, 1e-9);
  EXPECT_LT(linear_drift, 1e-9);
  // The motion was not trivial: the rigid joints moved and stayed mirrored.
  const ArmState& end = plant.state();
  EXPECT_GT(std::abs(end.q(1) - start.q(1)), 0.05);
  EXPECT_GT(std::abs(end.q(2) - start.q(2)), 0.05);
  for (int j = 1; j < 3; ++j) {
    EXPECT_EQ(end.motor_position(j), end.q(j)) << j;
    EXPECT_EQ(end.motor_velocity(j), end.q_dot(j)) << j;
  }
}

TEST(GenericPlant, RigidJointTorqueIsTheSaturatedCommand) {
  ArmPlant plant;
  ArmState start;
  start.q = bent_arm();
  start.motor_position.setConstant(7.0);  // replaced: rigid joints mirror the link
  start.rotor_speed.setConstant(600.0);
  ASSERT_EQ(plant.set_state(start), Status::kOk);
  EXPECT_EQ(plant.state().motor_position(1), start.q(1));
  EXPECT_EQ(plant.state().motor_position(2), start.q(2));
  EXPECT_EQ(plant.state().motor_position(0), 7.0);  // the elastic joint's motor is its own

  ArmInput at_limit, beyond, inside;
  at_limit.rotor_speed_command.setConstant(600.0);
  at_limit.motor_torque << 0.0, 20.0, -2.0;
  beyond = at_limit;
  beyond.motor_torque << 0.0, 35.0, -9.0;
  inside = at_limit;
  inside.motor_torque << 0.0, 10.0, -1.0;
  sim::RobotPlantRates<TestArmRobot> r_limit, r_beyond, r_inside;
  ASSERT_EQ(plant.evaluate_rates(at_limit, r_limit), Status::kOk);
  ASSERT_EQ(plant.evaluate_rates(beyond, r_beyond), Status::kOk);
  ASSERT_EQ(plant.evaluate_rates(inside, r_inside), Status::kOk);
  EXPECT_EQ(r_beyond.q_ddot, r_limit.q_ddot);  // clamped to ±u_max exactly
  EXPECT_GT((r_inside.q_ddot - r_limit.q_ddot).norm(), 1.0);
  EXPECT_EQ(r_limit.motor_acceleration(1), r_limit.q_ddot(1));  // θ̈ := q̈
  EXPECT_EQ(r_limit.elastic_torque(1), 0.0);

  ASSERT_EQ(plant.step(beyond, 1e-3), Status::kOk);
  EXPECT_TRUE(plant.last_step_saturated());
  const auto& report = plant.last_saturation();
  EXPECT_FALSE(report.motor_torque[0]);
  EXPECT_TRUE(report.motor_torque[1]);
  EXPECT_TRUE(report.motor_torque[2]);
  for (int i = 0; i < 8; ++i) EXPECT_FALSE(report.rotor_speed[i]) << i;
  ASSERT_EQ(plant.step(at_limit, 1e-3), Status::kOk);  // exactly u_max is not clamped
  EXPECT_FALSE(plant.last_step_saturated());
  EXPECT_EQ(plant.saturated_calls(), 1u);
}

TEST(GenericPlant, OffCentreHoverHoldsStill) {
  const ArmParameters params;
  ArmState state;
  ArmInput hover;
  ASSERT_EQ(sim::hover_state(params, tilted_pose(), bent_arm(), state, hover), Status::kOk);
  // ω² is the minimum-norm solution: no component in the null space of A (6x8).
  const Eigen::Matrix<double, 6, 8> a = rotor_allocation(params.robot.rotors);
  const Eigen::JacobiSVD<Eigen::Matrix<double, 6, 8>> svd(a, Eigen::ComputeFullV);
  const Eigen::Matrix<double, 8, 1> w2 = state.rotor_speed.cwiseAbs2();
  const Eigen::Matrix<double, 2, 1> null_part = svd.matrixV().rightCols<2>().transpose() * w2;
  EXPECT_LT(null_part.norm(), 1e-10 * w2.norm());
  // Rigid joints hold their static torque, the elastic one its deflection.
  EXPECT_EQ(state.motor_position(1), state.q(1));
  EXPECT_NE(state.motor_position(0), state.q(0));

  ArmPlant plant;
  ASSERT_EQ(plant.configure(params), Status::kOk);
  ASSERT_EQ(plant.set_state(state), Status::kOk);
  // Hover: the propulsion force is the weight m g (world), with m from the bodies.
  const double mass = 3.0 + 0.3 + 0.2 + 0.15;
  EXPECT_LT((state.base_pose.rotation * linear(plant.propulsion_wrench()) -
             Vector3<double>(0.0, 0.0, mass * 9.81))
                .norm(),
            1e-9);
  for (int k = 0; k < 1000; ++k) ASSERT_EQ(plant.step(hover, 1e-3), Status::kOk);
  const ArmState& end = plant.state();
  const double drift = (end.base_pose.translation - state.base_pose.translation).norm();
  std::printf("off-centre hover 1 s: position drift %.1e m, rotation %.1e, twist %.1e, q %.1e\n",
              drift, (end.base_pose.rotation - state.base_pose.rotation).norm(),
              end.base_twist.norm(), (end.q - state.q).norm());
  EXPECT_FALSE(plant.last_step_saturated());
  EXPECT_LT(drift, 1e-9);
  EXPECT_LT((end.base_pose.rotation - state.base_pose.rotation).norm(), 1e-9);
  EXPECT_LT(end.base_twist.norm(), 1e-9);
  EXPECT_LT((end.q - state.q).norm(), 1e-9);
  EXPECT_LT((end.motor_position - state.motor_position).norm(), 1e-9);
  EXPECT_LT((end.rotor_speed - state.rotor_speed).norm(), 1e-9);
}

TEST(GenericPlant, EquilibriumReportsWhatTheActuatorsCannotDo) {
  ArmParameters weak = ArmParameters{};
  weak.robot.actuators[1].torque_limit = 0.1;  // the prismatic joint carries ~3.4 N
  ArmState state;
  ArmInput hover;
  EXPECT_EQ(sim::hover_state(weak, Pose<double>{}, bent_arm(), state, hover),
            Status::kActuatorSaturated);
  EXPECT_EQ(std::abs(hover.motor_torque(1)), 0.1);

  ArmParameters heavy = ArmParameters{};
  SpatialInertia<double> base = heavy.robot.model.body_inertia(0);
  base.mass *= 20.0;  // 60 kg: beyond the rotors' thrust
  base.first_moment *= 20.0;
  base.rotational_inertia *= 20.0;
  ASSERT_EQ(heavy.robot.model.set_body(0, Pose<double>::identity(), base), Status::kOk);
  EXPECT_EQ(sim::hover_state(heavy, Pose<double>{}, bent_arm(), state, hover),
            Status::kActuatorSaturated);
  EXPECT_LE(state.rotor_speed.maxCoeff(), 1200.0);

  ArmParameters flat = ArmParameters{};
  for (int i = 0; i < 8; ++i) {  // all axes vertical, no drag: rank 3
    flat.robot.rotors[i].axis = Vector3<double>::UnitZ();
    flat.robot.rotors[i].drag_coefficient = 0.0;
  }
  EXPECT_EQ(sim::hover_state(flat, Pose<double>{}, bent_arm(), state, hover),
            Status::kSingularAllocation);
}

TEST(GenericPlant, PayloadOnAnyLinkAndInterfaces) {
  ArmPlant plant;
  sim::Disturbances d;
  d.has_payload = true;
  d.payload.body = 3;
  d.payload.mass = 0.1;
  EXPECT_EQ(plant.set_disturbances(d), Status::kOk);
  d.payload.body = 4;  // no such link
  EXPECT_EQ(plant.set_disturbances(d), Status::kInvalidArgument);
  d.payload.body = 0;  // the base is not a link
  EXPECT_EQ(plant.set_disturbances(d), Status::kInvalidArgument);

  ArmState s;
  s.q = bent_arm();
  s.q_dot << 0.1, 0.2, 0.3;
  s.motor_position = s.q;
  s.motor_velocity = s.q_dot;
  for (int i = 0; i < 8; ++i) s.rotor_speed(i) = 500.0 + i;
  const hodyn_sensors frame = sim::exact_sensor_frame(s);
  EXPECT_EQ(frame.num_joints, 3u);
  EXPECT_EQ(frame.num_rotors, 8u);
  EXPECT_EQ(frame.joint_position[2], -0.4);
  EXPECT_EQ(frame.motor_velocity[1], 0.2);
  EXPECT_EQ(frame.rotor_speed[7], 507.0);

  hodyn_command command{};
  command.num_joints = 3;
  command.num_rotors = 8;
  for (int i = 0; i < 8; ++i) command.rotor_speed[i] = 400.0 + i;
  command.motor_torque[1] = 1.5;
  ArmInput input;
  ASSERT_EQ(sim::plant_input_from_command(command, input), Status::kOk);
  EXPECT_EQ(input.rotor_speed_command(7), 407.0);
  EXPECT_EQ(input.motor_torque(1), 1.5);
  command.num_rotors = 6;
  EXPECT_EQ(sim::plant_input_from_command(command, input), Status::kInvalidArgument);
}

TEST(GenericPlant, AlternatingMismatchScalesByTreeDepth) {
  // The 12-DoF robot: base 1.1, bodies 1..6 down the two arms 0.9, 1.1, 0.9.
  const double expected[] = {1.1, 0.9, 1.1, 0.9, 0.9, 1.1, 0.9};
  const auto generic = sim::alternating_mismatch(sim::AerialManipulatorPlantParameters{}, 0.1);
  const auto legacy = sim::alternating_mismatch(sim::PlantParameters{}, 0.1);
  for (int j = 0; j < 7; ++j) {
    EXPECT_DOUBLE_EQ(generic.inertia_scale[static_cast<std::size_t>(j)], expected[j]) << j;
    EXPECT_EQ(legacy.inertia_scale[static_cast<std::size_t>(j)],
              generic.inertia_scale[static_cast<std::size_t>(j)])
        << j;
  }
  // The chain of the test robot: depths 0, 1, 2, 3.
  const auto arm = sim::alternating_mismatch(ArmParameters{}, 0.2);
  const double arm_expected[] = {1.2, 0.8, 1.2, 0.8};
  for (int j = 0; j < 4; ++j)
    EXPECT_DOUBLE_EQ(arm.inertia_scale[static_cast<std::size_t>(j)], arm_expected[j]) << j;
  ArmPlant plant;
  ASSERT_EQ(plant.configure(arm), Status::kOk);
  EXPECT_NEAR(plant.model().total_mass(), 1.2 * 3.0 + 0.8 * 0.3 + 1.2 * 0.2 + 0.8 * 0.15, 1e-12);
}

// The 12-DoF robot through AerialManipulatorRobot::describe and through the
// parameter set of before is one plant, step for step, bit for bit.
TEST(GenericPlant, TwelveDofRobotFromItsDescriptionIsThePlantOfBefore) {
  sim::PlantParameters legacy;
  legacy = sim::alternating_mismatch(legacy, 0.1);
  sim::AerialManipulatorPlantParameters described;
  ASSERT_EQ(AerialManipulatorRobot::describe(described.robot), Status::kOk);
  described = sim::alternating_mismatch(described, 0.1);
  sim::Plant a, b;
  ASSERT_EQ(a.configure(legacy), Status::kOk);
  ASSERT_EQ(b.configure(described), Status::kOk);
  sim::PlantState start;
  sim::PlantInput hover;
  sim::Vector6d q;
  q << 0.2, -0.3, 0.4, -0.1, 0.25, -0.35;
  ASSERT_EQ(sim::hover_state(legacy, tilted_pose(), q, start, hover), Status::kOk);
  sim::PlantState start_b;
  sim::PlantInput hover_b;
  ASSERT_EQ(sim::hover_state(described, tilted_pose(), q, start_b, hover_b), Status::kOk);
  EXPECT_EQ(start.rotor_speed, start_b.rotor_speed);
  EXPECT_EQ(hover.motor_torque, hover_b.motor_torque);
  start.base_twist << 0.3, -0.2, 0.5, 0.4, 0.1, -0.2;
  ASSERT_EQ(a.set_state(start), Status::kOk);
  ASSERT_EQ(b.set_state(start), Status::kOk);
  hover.motor_torque(2) += 0.5;
  hover.rotor_speed_command(4) += 50.0;
  for (int k = 0; k < 100; ++k) {
    ASSERT_EQ(a.step(hover, 1e-3), Status::kOk);
    ASSERT_EQ(b.step(hover, 1e-3), Status::kOk);
  }
  EXPECT_EQ(a.state().base_pose.translation, b.state().base_pose.translation);
  EXPECT_EQ(a.state().base_pose.rotation, b.state().base_pose.rotation);
  EXPECT_EQ(a.state().q, b.state().q);
  EXPECT_EQ(a.state().motor_position, b.state().motor_position);
  EXPECT_EQ(a.state().rotor_speed, b.state().rotor_speed);
}

}  // namespace
}  // namespace hodyn
