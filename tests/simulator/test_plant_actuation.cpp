// The plant's actuators and interfaces: parameter checks, equilibrium states,
// saturation, bad input, the payload step and the inertia mismatch helpers.
#include <gtest/gtest.h>

#include <hodyn/inverse_dynamics.hpp>

#include <cmath>
#include <cstdio>
#include <limits>

#include "simulator/plant_fixtures.hpp"

namespace hodyn {
namespace {

using sim::Plant;
using sim::PlantInput;
using sim::PlantParameters;
using sim::PlantRates;
using sim::PlantState;
using sim::Vector6d;

bool same_state(const PlantState& a, const PlantState& b) {
  return a.time == b.time && a.base_pose.rotation == b.base_pose.rotation &&
         a.base_pose.translation == b.base_pose.translation && a.base_twist == b.base_twist &&
         a.q == b.q && a.q_dot == b.q_dot && a.motor_position == b.motor_position &&
         a.motor_velocity == b.motor_velocity && a.rotor_speed == b.rotor_speed;
}

TEST(PlantParameters, DefaultsAreValidAndBadOnesRejected) {
  EXPECT_EQ(sim::validate(PlantParameters{}), Status::kOk);
  PlantParameters p;
  p.step = 1.0 / 4000.0;
  EXPECT_EQ(sim::validate(p), Status::kOk);
  p.step = 1.0 / 3999.0;
  EXPECT_EQ(sim::validate(p), Status::kInvalidArgument);
  p = PlantParameters{};
  p.actuation.joints[2].stiffness = 0.0;
  EXPECT_EQ(sim::validate(p), Status::kInvalidArgument);
  p = PlantParameters{};
  p.actuation.rotors.min_speed = 2000.0;
  EXPECT_EQ(sim::validate(p), Status::kInvalidArgument);
  p = PlantParameters{};
  p.actuation.joints[0].damping = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(sim::validate(p), Status::kNonFiniteInput);
  p = PlantParameters{};
  p.body.link_mass = -1.0;
  Plant plant;
  const double mass_before = plant.model().total_mass();
  EXPECT_EQ(plant.configure(p), Status::kInvalidModel);
  EXPECT_EQ(plant.model().total_mass(), mass_before);  // rejected set changes nothing
}

TEST(PlantParameters, InertiaMismatchScalesMassesAndInertias) {
  const PlantParameters nominal;
  Plant plant;
  ASSERT_EQ(plant.configure(sim::alternating_mismatch(nominal, 0.1)), Status::kOk);
  EXPECT_NEAR(plant.model().total_mass(), 1.05 * 4.0, 1e-12);  // 2.75 + 0.25 · 5.8
  const double expected[] = {1.1, 0.9, 1.1, 0.9, 0.9, 1.1, 0.9};
  sim::PlantModel reference;
  ASSERT_EQ(sim::make_plant_model(nominal, reference), Status::kOk);
  for (int j = 0; j < 7; ++j) {
    EXPECT_NEAR(plant.model().mass(j), expected[j] * reference.mass(j), 1e-14);
    EXPECT_LT((plant.model().body_inertia(j).inertia_about_com() -
               expected[j] * reference.body_inertia(j).inertia_about_com())
                  .norm(),
              1e-15);
  }
  ASSERT_EQ(plant.configure(sim::scaled_inertias(nominal, 1.1, 0.9)), Status::kOk);
  EXPECT_NEAR(plant.model().total_mass(), 2.75 + 6 * 0.225, 1e-12);
}

TEST(PlantEquilibrium, AccelerationsMatchTheRequest) {
  const PlantParameters params;
  Twist<double> twist;
  twist << 0.2, -0.1, 0.3, 0.5, -0.2, 0.1;
  Twist<double> acceleration;
  acceleration << 0.4, 0.3, -0.5, 0.6, -0.4, 0.8;
  Vector6d q_dot, q_ddot;
  q_dot << 0.3, -0.2, 0.4, 0.1, -0.3, 0.2;
  q_ddot << 1.0, -0.5, 0.8, -1.2, 0.6, -0.4;
  PlantState state;
  PlantInput feedforward;
  ASSERT_EQ(sim::equilibrium_state(params, test::tilted_pose(), twist, test::bent_arms(), q_dot,
                                   acceleration, q_ddot, state, feedforward),
            Status::kOk);
  Plant plant;
  ASSERT_EQ(plant.set_state(state), Status::kOk);
  PlantRates rates;
  ASSERT_EQ(plant.evaluate_rates(feedforward, rates), Status::kOk);
  EXPECT_LT((rates.base_acceleration - acceleration).norm(), 1e-10);
  EXPECT_LT((rates.q_ddot - q_ddot).norm(), 1e-10);
  EXPECT_LT((rates.motor_acceleration - q_ddot).norm(), 1e-10);  // θ̈ = q̈ with u = τ + Fq̇ + Bq̈
  EXPECT_LT(rates.rotor_acceleration.norm(), 1e-12);
  // One step agrees with the request to first order: (V(h) − V(0))/h → V̇.
  ASSERT_EQ(plant.step(feedforward, params.step), Status::kOk);
  const Twist<double> difference = (plant.state().base_twist - twist) / params.step;
  EXPECT_LT((difference - acceleration).norm(), 1e-2);
}

TEST(PlantEquilibrium, HoverStaysPut) {
  const PlantParameters params;
  PlantState state;
  PlantInput feedforward;
  ASSERT_EQ(sim::hover_state(params, test::tilted_pose(), test::bent_arms(), state, feedforward),
            Status::kOk);
  Plant plant;
  ASSERT_EQ(plant.set_state(state), Status::kOk);
  for (int k = 0; k < 1000; ++k) ASSERT_EQ(plant.step(feedforward, 1e-3), Status::kOk);
  const PlantState& end = plant.state();
  std::printf("hover 1 s: position drift %.1e m, twist %.1e\n",
              (end.base_pose.translation - state.base_pose.translation).norm(),
              end.base_twist.norm());
  EXPECT_NEAR(end.time, 1.0, 1e-12);
  EXPECT_LT((end.base_pose.translation - state.base_pose.translation).norm(), 1e-9);
  EXPECT_LT((end.base_pose.rotation - state.base_pose.rotation).norm(), 1e-9);
  EXPECT_LT((end.q - state.q).norm(), 1e-9);
  EXPECT_LT((end.motor_position - state.motor_position).norm(), 1e-9);
  EXPECT_LT(end.base_twist.norm(), 1e-9);
  // Hover: the propulsion wrench is the weight, (0, 0, 0, 0, 0, m g) rotated into the base.
  const Vector3<double> weight(0.0, 0.0, plant.model().total_mass() * 9.81);
  EXPECT_LT((state.base_pose.rotation * linear(plant.propulsion_wrench()) - weight).norm(), 1e-9);
}

TEST(PlantEquilibrium, UnreachableThrustIsClampedAndReported) {
  const PlantParameters params;
  PlantState state;
  PlantInput feedforward;
  Pose<double> upside_down;
  upside_down.rotation = Eigen::AngleAxisd(3.0, Vector3<double>::UnitX()).toRotationMatrix();
  EXPECT_EQ(sim::hover_state(params, upside_down, Vector6d::Zero(), state, feedforward),
            Status::kActuatorSaturated);
  EXPECT_GE(state.rotor_speed.minCoeff(), params.actuation.rotors.min_speed);
  EXPECT_LE(state.rotor_speed.maxCoeff(), params.actuation.rotors.max_speed);
  PlantParameters no_thrust = params;
  no_thrust.actuation.tilthex.thrust_coefficient = 0.0;
  no_thrust.actuation.tilthex.drag_coefficient = 0.0;
  EXPECT_EQ(sim::hover_state(no_thrust, Pose<double>{}, Vector6d::Zero(), state, feedforward),
            Status::kSingularAllocation);
}

TEST(PlantSaturation, OutOfRangeCommandsAreClampedAndFlagged) {
  const PlantParameters params;
  Plant plant;
  PlantState start;
  start.rotor_speed.setConstant(600.0);
  ASSERT_EQ(plant.set_state(start), Status::kOk);
  PlantInput input;
  input.rotor_speed_command << 2000.0, -5.0, 600.0, 1200.0, 100.0, 50.0;
  input.motor_torque << 10.0, -7.0, 1.0, 5.0, -5.0, 0.0;
  PlantRates rates;
  ASSERT_EQ(plant.evaluate_rates(input, rates), Status::kOk);
  const double tr = params.actuation.rotors.time_constant;
  Vector6d expected_rotor;  // (clamp(ω_cmd) − ω)/T_r
  expected_rotor << 600.0, -500.0, 0.0, 600.0, -500.0, -500.0;
  EXPECT_LT((rates.rotor_acceleration - expected_rotor / tr).norm(), 1e-9);
  // Motor at rest with θ = q: θ̈ = clamp(u)/B.
  Vector6d expected_motor;
  expected_motor << 5.0, -5.0, 1.0, 5.0, -5.0, 0.0;
  EXPECT_LT((rates.motor_acceleration - expected_motor / 5e-3).norm(), 1e-9);

  EXPECT_FALSE(plant.last_step_saturated());
  ASSERT_EQ(plant.step(input, 1e-3), Status::kOk);
  EXPECT_TRUE(plant.last_step_saturated());
  const sim::SaturationReport& r = plant.last_saturation();
  const bool rotor_flags[] = {true, true, false, false, false, true};
  const bool torque_flags[] = {true, true, false, false, false, false};
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(r.rotor_speed[i], rotor_flags[i]) << i;
    EXPECT_EQ(r.motor_torque[i], torque_flags[i]) << i;
  }
  // The rotors follow the clamped command: ω(t) = ω_c + (ω₀ − ω_c) e^{−t/T_r}.
  const double decay = std::exp(-1e-3 / tr);
  EXPECT_NEAR(plant.state().rotor_speed(0), 1200.0 + (600.0 - 1200.0) * decay, 1e-9);
  EXPECT_NEAR(plant.state().rotor_speed(1), 100.0 + (600.0 - 100.0) * decay, 1e-9);
  EXPECT_EQ(plant.saturated_calls(), 1u);

  PlantInput inside;
  inside.rotor_speed_command.setConstant(600.0);
  ASSERT_EQ(plant.step(inside, 1e-3), Status::kOk);
  EXPECT_FALSE(plant.last_step_saturated());
  EXPECT_EQ(plant.saturated_calls(), 1u);
}

TEST(PlantErrors, NonFiniteInputsAndBadDurationsLeaveTheStateUnchanged) {
  const PlantParameters params;
  Plant plant;
  PlantInput hover;
  ASSERT_EQ(plant.set_state(test::moving_state(params, hover)), Status::kOk);
  ASSERT_EQ(plant.step(hover, 1e-3), Status::kOk);
  const PlantState before = plant.state();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();

  PlantInput bad = hover;
  bad.motor_torque(3) = nan;
  EXPECT_EQ(plant.step(bad, 1e-3), Status::kNonFiniteInput);
  bad = hover;
  bad.rotor_speed_command(0) = inf;
  EXPECT_EQ(plant.step(bad, 1e-3), Status::kNonFiniteInput);
  EXPECT_EQ(plant.step(hover, nan), Status::kNonFiniteInput);
  EXPECT_EQ(plant.step(hover, 1.5 * params.step), Status::kInvalidArgument);
  EXPECT_EQ(plant.step(hover, 0.0), Status::kInvalidArgument);
  EXPECT_EQ(plant.step(hover, -1e-3), Status::kInvalidArgument);
  EXPECT_TRUE(same_state(plant.state(), before));
  EXPECT_EQ(plant.step(hover, 1e-3 + 5e-10), Status::kOk);  // within 1e-9 of 8 steps
  EXPECT_NEAR(plant.time(), before.time + 1e-3, 1e-15);

  PlantState nan_state = before;
  nan_state.q(2) = nan;
  EXPECT_EQ(plant.set_state(nan_state), Status::kNonFiniteInput);
  PlantState skewed = before;
  skewed.base_pose.rotation(0, 0) += 1e-6;
  EXPECT_EQ(plant.set_state(skewed), Status::kNonOrthonormalRotation);

  // A finite state that overflows: the step reports it and keeps the last good state.
  PlantState wild = before;
  wild.base_twist.setConstant(1e154);
  wild.q_dot.setConstant(1e154);
  ASSERT_EQ(plant.set_state(wild), Status::kOk);
  EXPECT_EQ(plant.step(hover, 1e-3), Status::kNonFiniteResult);
  EXPECT_TRUE(same_state(plant.state(), wild));
}

TEST(PlantPayload, StepChangesTheMassSeenInHover) {
  const PlantParameters params;
  PlantState state;
  PlantInput hover;
  ASSERT_EQ(sim::hover_state(params, Pose<double>{}, test::bent_arms(), state, hover), Status::kOk);
  Plant plant;
  ASSERT_EQ(plant.set_state(state), Status::kOk);
  sim::Disturbances d;
  d.has_payload = true;
  d.payload.time = 0.05;
  d.payload.body = 3;
  d.payload.mass = 0.3;
  d.payload.offset = Vector3<double>(0.0, 0.0, -0.06);
  ASSERT_EQ(plant.set_disturbances(d), Status::kOk);
  const double m = plant.model().total_mass();
  for (int k = 0; k < 50; ++k) ASSERT_EQ(plant.step(hover, 1e-3), Status::kOk);
  EXPECT_FALSE(plant.payload_attached());
  Wrench<double> p0, p1;
  ASSERT_EQ(sim::spatial_momentum(plant.model(), plant.state(), p0), Status::kOk);
  EXPECT_LT(linear(p0).norm(), 1e-9);  // still hovering
  ASSERT_EQ(plant.step(hover, params.step), Status::kOk);
  EXPECT_TRUE(plant.payload_attached());
  EXPECT_NEAR(plant.model().total_mass(), m + 0.3, 1e-14);
  // Newton on the whole system: m_total a_com = thrust − m_total g, with the
  // hover thrust m g: a_com,z = −g m_p / (m + m_p).
  ASSERT_EQ(sim::spatial_momentum(plant.model(), plant.state(), p1), Status::kOk);
  const Vector3<double> com_acceleration = (linear(p1) - linear(p0)) / params.step / (m + 0.3);
  const double expected = -9.81 * 0.3 / (m + 0.3);
  std::printf("payload: a_com = (%.3e, %.3e, %.9f), expected z %.9f m/s^2\n", com_acceleration.x(),
              com_acceleration.y(), com_acceleration.z(), expected);
  EXPECT_NEAR(com_acceleration.z(), expected, 1e-6 * std::abs(expected));
  EXPECT_LT(com_acceleration.head<2>().norm(), 1e-6);
  // The controller's model is a different object: the plant's copy changed only.
  sim::PlantModel nominal;
  ASSERT_EQ(sim::make_plant_model(params, nominal), Status::kOk);
  EXPECT_NEAR(nominal.total_mass(), m, 1e-14);
}

TEST(PlantInterfaces, CommandBecomesPlantInput) {
  hodyn_command command{};
  command.num_rotors = 6;
  command.num_joints = 6;
  for (int i = 0; i < 6; ++i) {
    command.rotor_speed[i] = 500.0 + i;
    command.motor_torque[i] = 0.1 * i;
  }
  PlantInput input;
  ASSERT_EQ(sim::plant_input_from_command(command, input), Status::kOk);
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(input.rotor_speed_command(i), 500.0 + i);
    EXPECT_EQ(input.motor_torque(i), 0.1 * i);
  }
  command.num_joints = 12;
  EXPECT_EQ(sim::plant_input_from_command(command, input), Status::kInvalidArgument);
}

}  // namespace
}  // namespace hodyn
