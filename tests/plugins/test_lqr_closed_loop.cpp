// The "lqr" plugin in closed loop on the plant simulator of the 12-DoF robot
// (the plant, sensor model and runner hodyn-demo flies): it recovers a hover
// from an offset start, and follows the start of the Table 3 reference.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "hodyn/closed_loop/runner.hpp"
#include "hodyn/closed_loop/scenario.hpp"
#include "hodyn/control/geometric_lqr_plugin.hpp"
#include "hodyn/logarithm.hpp"
#include "hodyn/plugin/frames.hpp"
#include "hodyn/plugin/plugin_instance.hpp"
#include "hodyn/plugin/registry.hpp"
#include "hodyn/plugin/robot_identity.hpp"
#include "hodyn/simulator/command_input.hpp"
#include "hodyn/simulator/equilibrium.hpp"
#include "hodyn/simulator/plant.hpp"
#include "hodyn/simulator/sensor_model.hpp"

namespace {

using namespace hodyn;
using Robot = AerialManipulatorRobot;

const hodyn_plugin_api* lqr_api() { return plugin::plugin_registry().find("lqr", Robot::kId); }

hodyn_parameter parameter(const char* name, double value) {
  hodyn_parameter p{};
  plugin::copy_name(p.name, name);
  p.value = value;
  return p;
}

TEST(LqrClosedLoop, RecoversHoverFromAnOffsetStart) {
  // Start 5 cm / 4 cm / 3 cm off the hover point, 0.05 rad off in every
  // joint; fly 3 s at 1 kHz (plant 8 kHz) with the hover gain.
  const double dt = 1e-3;
  closed_loop::RobotScenarioSetup<Robot> setup =
      closed_loop::make_robot_scenario<Robot>(closed_loop::Scenario::kNominal, dt / 8, dt, 1);
  static sim::RobotPlant<Robot> plant;
  ASSERT_EQ(plant.configure(setup.plant), Status::kOk);
  ASSERT_EQ(plant.set_disturbances(setup.disturbances), Status::kOk);
  sim::SensorModel sensors;
  ASSERT_EQ(sensors.configure(setup.sensors), Status::kOk);
  const Table3Trajectory tr{};
  const Pose<double> hover = tr.base_pose(0.0);
  const Eigen::Matrix<double, 6, 1> q0 = tr.joints(0.0, 0);
  sim::RobotPlantState<Robot> start;
  sim::RobotPlantInput<Robot> input;
  ASSERT_EQ(sim::equilibrium_state(setup.plant, hover, Twist<double>::Zero(), q0,
                                   Eigen::Matrix<double, 6, 1>::Zero(), Twist<double>::Zero(),
                                   Eigen::Matrix<double, 6, 1>::Zero(), start, input),
            Status::kOk);
  start.base_pose.translation += Vector3<double>(0.05, -0.04, 0.03);
  start.q.array() += 0.05;
  start.motor_position.array() += 0.05;
  ASSERT_EQ(plant.set_state(start), Status::kOk);

  const hodyn_plugin_api* api = lqr_api();
  ASSERT_NE(api, nullptr);
  static plugin::PluginInstance<64 * 1024> controller;
  ASSERT_EQ(controller.open(api, plugin::robot_identity<Robot>()), Status::kOk);
  const hodyn_parameter params[] = {parameter("rate_hz", 1000.0), parameter("gain_schedule", 0)};
  ASSERT_EQ(controller.configure(params, 2), Status::kOk);

  hodyn_reference ref{};
  ref.num_joints = 6;
  for (int i = 0; i < 3; ++i) ref.base_position[0][i] = hover.translation(i);
  plugin::quaternion_from_rotation(hover.rotation, ref.base_orientation);
  for (int j = 0; j < 6; ++j) ref.joint_position[0][j] = q0(j);
  hodyn_sensors frame{};
  hodyn_command cmd{};
  double worst_position = 0.0, worst_attitude = 0.0, worst_joint = 0.0;
  int bad = 0, saturated_late = 0, saturated = 0;
  for (int k = 0; k < 3000; ++k) {
    ref.time = k * dt;
    ASSERT_EQ(sensors.measure(plant.state(), frame), Status::kOk);
    const Status s = controller.update(frame, ref, cmd);
    // The offset start saturates the wrist motors for a few steps; nothing else.
    if (s == Status::kActuatorSaturated)
      ++(k < 500 ? saturated : saturated_late);
    else if (s != Status::kOk)
      ++bad;
    ASSERT_EQ(sim::plant_input_from_command(cmd, input), Status::kOk);
    ASSERT_EQ(plant.step(input, dt), Status::kOk);
    if (k >= 2500) {  // the last 0.5 s
      const auto& x = plant.state();
      worst_position =
          std::fmax(worst_position, (x.base_pose.translation - hover.translation).norm());
      worst_attitude = std::fmax(
          worst_attitude,
          so3_log(Matrix3<double>(hover.rotation.transpose() * x.base_pose.rotation)).norm());
      worst_joint = std::fmax(worst_joint, (x.q - q0).cwiseAbs().maxCoeff());
    }
  }
  controller.close();
  std::printf(
      "hover from offset, last 0.5 s of 3 s: position %.3e m, attitude %.3e rad, "
      "joints %.3e rad; %d saturated steps in the first 0.5 s\n",
      worst_position, worst_attitude, worst_joint, saturated);
  // The start was 7.1 cm and 0.05 rad off. The design's slowest closed-loop
  // pole is 0.99672 per 1 ms step (test_geometric_lqr): e^(−3.3 t), so after
  // 2.5 s at most 7.1 cm · 2.7e-4 = 19 µm if that mode took the whole offset;
  // the bounds are 5× that (the plant is the model here). An unstable or
  // wrongly signed loop, or one 3× slower, misses them.
  EXPECT_LT(worst_position, 1e-4);
  EXPECT_LT(worst_attitude, 2e-4);
  EXPECT_LT(worst_joint, 1e-4);
  EXPECT_EQ(bad, 0);
  EXPECT_EQ(saturated_late, 0);
}

TEST(LqrClosedLoop, FollowsTheStartOfTable3) {
  // The runner's nominal scenario, first 2 s, every error from t = 0.
  closed_loop::RunOptions run;
  run.scenario = closed_loop::Scenario::kNominal;
  run.duration = 2.0;
  run.settle_time = 0.0;
  run.record_every = 0;
  run.plugin = lqr_api();
  ASSERT_NE(run.plugin, nullptr);
  closed_loop::RunSummary summary;
  ASSERT_EQ(closed_loop::run_closed_loop(run, summary, nullptr), Status::kOk);
  double joint_max = 0.0;
  for (const auto& j : summary.joints) joint_max = std::fmax(joint_max, j.max);
  std::printf(
      "Table 3, first 2 s: position max %.3e m, attitude max %.3e rad, joints max %.3e rad\n",
      summary.position.max, summary.attitude.max, joint_max);
  // The run starts on the reference in the plant's equilibrium and the plant
  // is the model: what is left is the rigid model's error about the elastic
  // joints and the rotor lag, ~1e-5 here (measured). 1e-4 is 10× that; the
  // feedforward alone (every Q weight 0, so K = 0) drifts to 12 mm, 6e-3 rad
  // and 4.7e-4 rad in the joints within these 2 s (measured).
  EXPECT_TRUE(summary.stable);
  EXPECT_LT(summary.position.max, 1e-4);
  EXPECT_LT(summary.attitude.max, 1e-4);
  EXPECT_LT(joint_max, 1e-4);
}

TEST(LqrClosedLoop, IntegralActionRemovesTheMismatchOffset) {
  // ±10 % masses and inertias in the plant for the whole Table 3 flight: a
  // wrong feedforward that proportional feedback alone leaves as an offset
  // (9.2 mm RMS before the integral states; docs/lqr.md). With them the RMS
  // after the runner's settling time was 0.18 mm (measured); 1 mm allows for
  // the machine while failing without integral action.
  closed_loop::RunOptions run;
  run.scenario = closed_loop::Scenario::kMismatch;
  run.record_every = 0;
  run.plugin = lqr_api();
  ASSERT_NE(run.plugin, nullptr);
  closed_loop::RunSummary summary;
  ASSERT_EQ(closed_loop::run_closed_loop(run, summary, nullptr), Status::kOk);
  std::printf("mismatch: position RMS %.3e m (max %.3e m), attitude RMS %.3e rad\n",
              summary.position.rms, summary.position.max, summary.attitude.rms);
  EXPECT_TRUE(summary.stable);
  EXPECT_LT(summary.position.rms, 1e-3);
  EXPECT_LT(summary.attitude.rms, 1e-3);
}

}  // namespace
