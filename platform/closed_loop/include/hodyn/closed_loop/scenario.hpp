// hodyn/closed_loop/scenario.hpp — the closed-loop test cases for any robot
// type: what the plant differs in from the controller's model, what disturbs
// it, what the sensors do.
//
//   nominal      plant = the controller's model; exact sensors, no delay
//   mismatch     masses and inertias ±10 % (sim::alternating_mismatch: the
//                body at tree depth d scaled by 1 + (−1)^d 0.1 — base +10 %,
//                links −10/+10/−10 % down each branch)
//   gust         a (1 − cos) gust on the base, 2 s from t = 10 s, peak force
//                (3, −2, 1.5) N and torque (0.1, −0.1, 0.05) N m (world axes)
//   payload      0.1 kg picked up at t = 15 s by the end effector
//                (payload_body<Robot>(): the robot's last body; the 12-DoF
//                robot: body 3, the tip of the arm at x = +c/2), 6 cm along
//                −z of that body's frame from its centre of mass
//   noise_delay  realistic sensor noise (sim::SensorNoise::realistic) and a
//                2 ms measurement delay
//   unknown_payload  0.2 kg carried from t = 0 on the payload body, where the
//                `payload` scenario puts its 0.1 kg, unannounced (the start is
//                the equilibrium without it)
//   identification  the `mismatch` plant and the `noise_delay` scenario's
//                realistic sensor noise (no delay), flown along the exciting
//                reference of identification_reference.hpp instead of the
//                robot's own (Table 3): logs for hodyn-identify
//                (docs/identification.md); not in kAllScenarios
//   dual_arm_carry  the 12-DoF robot's two arms hold one bar: a closed chain,
//                flown by its own plant and controller (dual_arm_carry.hpp),
//                not by run_closed_loop; not in kAllScenarios
#pragma once

#include <array>
#include <cstdint>

#include "hodyn/simulator/simulator.hpp"

namespace hodyn {
namespace closed_loop {

enum class Scenario : std::uint8_t {
  kNominal,
  kMismatch,
  kGust,
  kPayload,
  kNoiseDelay,
  kUnknownPayload,
  kDualArmCarry,   ///< closed chain: run_dual_arm_carry (dual_arm_carry.hpp) only
  kIdentification  ///< mismatch + noise along the exciting reference; not in kAllScenarios
};

inline constexpr std::array<Scenario, 6> kAllScenarios{
    Scenario::kNominal, Scenario::kMismatch,   Scenario::kGust,
    Scenario::kPayload, Scenario::kNoiseDelay, Scenario::kUnknownPayload};

/// The open-chain scenarios run_closed_loop flies (kDualArmCarry is not one).
/// "nominal", "mismatch", "gust", "payload", "noise_delay", "unknown_payload",
/// "dual_arm_carry", "identification".
const char* scenario_name(Scenario s);
/// One line saying what the scenario does.
const char* scenario_description(Scenario s);
/// false for an unknown name; accepts the names of kAllScenarios and
/// "identification".
bool parse_scenario(const char* name, Scenario& out);

template <class Robot>
struct RobotScenarioSetup {
  sim::RobotPlantParameters<Robot> plant{};  ///< Robot::describe's robot, as the controller's
  sim::Disturbances disturbances{};
  sim::SensorModelParameters sensors{};
};

/// The body that picks up the payload: the robot's last body (its end
/// effector in a serial arm).
template <class Robot>
constexpr int payload_body() {
  return Robot::Tree::kNumBodies - 1;
}
/// The 12-DoF robot: body 3, the tip of the arm at x = +c/2 (as in seed 000's demo).
template <>
constexpr int payload_body<AerialManipulatorRobot>() {
  return 3;
}

/// Where the payload sits in the payload body's frame: on the body's joint
/// axis, 6 cm beyond the centre of mass's projection, on the side away from
/// the joint (a gripper holding it at its tip; a point mass on a roll axis
/// adds no roll inertia). The 12-DoF robot: (0, 0, −0.06), 6 cm below the
/// centre of mass of its z-axis wrist (seed 000's demo).
template <class Robot>
Vector3<double> payload_offset(const Model<typename Robot::Tree, double>& model) {
  const int j = payload_body<Robot>();
  const Vector3<double>& a = model.joint_axis(j);
  const Vector3<double> origin = model.home_pose(j).translation;  // on the joint
  const Vector3<double> com = model.home_com(j);
  const double along = (com - origin).dot(a);
  const Vector3<double> point = origin + a * (along + (along < 0.0 ? -0.06 : 0.06));
  return model.home_pose(j).rotation.transpose() * (point - origin);
}
template <>
inline Vector3<double> payload_offset<AerialManipulatorRobot>(
    const Model<AerialManipulatorTree, double>&) {
  return Vector3<double>(0.0, 0.0, -0.06);
}

/// The plant, disturbances and sensors of a scenario; `plant_step` is the
/// integration step, `sample_period` the control period.
template <class Robot>
RobotScenarioSetup<Robot> make_robot_scenario(Scenario s, double plant_step, double sample_period,
                                              std::uint64_t seed) {
  RobotScenarioSetup<Robot> setup;
  setup.plant.step = plant_step;
  setup.sensors.sample_period = sample_period;
  setup.sensors.seed = seed;
  // A point mass picked up by the payload body at `time` (payload_offset's place).
  const auto attach_payload = [&setup](double time, double mass) {
    setup.disturbances.has_payload = true;
    setup.disturbances.payload.time = time;
    setup.disturbances.payload.body = payload_body<Robot>();
    setup.disturbances.payload.mass = mass;
    setup.disturbances.payload.offset = payload_offset<Robot>(setup.plant.robot.model);
  };
  switch (s) {
    case Scenario::kNominal:
      break;
    case Scenario::kMismatch:
      setup.plant = sim::alternating_mismatch(setup.plant, 0.10);
      break;
    case Scenario::kGust: {
      sim::Gust& g = setup.disturbances.gusts[0];
      g.start = 10.0;
      g.duration = 2.0;
      g.peak_force = Vector3<double>(3.0, -2.0, 1.5);
      g.peak_torque = Vector3<double>(0.1, -0.1, 0.05);
      setup.disturbances.num_gusts = 1;
      break;
    }
    case Scenario::kPayload:
      attach_payload(15.0, 0.1);
      break;
    case Scenario::kNoiseDelay:
      setup.sensors.noise = sim::SensorNoise::realistic();
      setup.sensors.delay = 0.002;
      break;
    case Scenario::kUnknownPayload:  // carried, unannounced, from the start
      attach_payload(0.0, 0.2);
      break;
    case Scenario::kIdentification:  // the reference is the runner's choice (robot_runner.hpp)
      setup.plant = sim::alternating_mismatch(setup.plant, 0.10);
      setup.sensors.noise = sim::SensorNoise::realistic();
      break;
    case Scenario::kDualArmCarry:  // a closed chain: dual_arm_carry.hpp builds its own plant
      break;
  }
  return setup;
}

// ---- the 12-DoF robot ---------------------------------------------------------

using ScenarioSetup = RobotScenarioSetup<AerialManipulatorRobot>;

ScenarioSetup make_scenario(Scenario s, double plant_step, double sample_period,
                            std::uint64_t seed);

}  // namespace closed_loop
}  // namespace hodyn
