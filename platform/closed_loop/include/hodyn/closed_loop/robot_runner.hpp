// hodyn/closed_loop/robot_runner.hpp — run_closed_loop<Robot> (runner.hpp)
// defined: include this in the one .cpp that runs a robot other than the
// 12-DoF one (whose instance is compiled into hodyn::closed_loop).
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>

#include <Eigen/Geometry>

#include "hodyn/closed_loop/identification_reference.hpp"
#include "hodyn/closed_loop/robot_reference.hpp"
#include "hodyn/closed_loop/runner.hpp"
#include "hodyn/closed_loop/tracking.hpp"
#include "hodyn/control/feedback_linearization_plugin.hpp"
#include "hodyn/plugin/frames.hpp"
#include "hodyn/plugin/plugin_instance.hpp"
#include "hodyn/plugin/registry.hpp"
#include "hodyn/plugin/robot_identity.hpp"

namespace hodyn {
namespace closed_loop {
namespace detail {

inline constexpr std::size_t kInstanceCapacity = 64 * 1024;

inline double yaw_of(const Matrix3<double>& r) { return std::atan2(r(1, 0), r(0, 0)); }

/// The identification columns of a sample: the plant's true base attitude,
/// twist, joint rates, and the loads it applies now (docs/state-format.md).
template <class Robot>
void record_plant_loads(const sim::RobotPlant<Robot>& plant, const hodyn_command& command,
                        Sample& row) {
  const sim::RobotPlantState<Robot>& x = plant.state();
  Eigen::Quaterniond r(x.base_pose.rotation);
  if (r.w() < 0.0) r.coeffs() = -r.coeffs();
  row.base_quaternion = {r.w(), r.x(), r.y(), r.z()};
  const Wrench<double> w = plant.propulsion_wrench();
  const auto tau_el = plant.elastic_torque();
  for (int i = 0; i < 6; ++i) {
    row.base_twist[static_cast<std::size_t>(i)] = x.base_twist(i);
    row.propulsion_wrench[static_cast<std::size_t>(i)] = w(i);
  }
  for (int j = 0; j < sim::PlantTraits<Robot>::kNumJoints; ++j) {
    const auto jj = static_cast<std::size_t>(j);
    row.q_dot[jj] = x.q_dot(j);
    const double limit = plant.actuators().torque_limit(j);
    row.joint_torque[jj] = plant.actuators().elastic(j)
                               ? tau_el(j)
                               : std::clamp(command.motor_torque[j], -limit, limit);
  }
}

/// run_closed_loop along `trajectory` (ReferenceOf<Robot>'s or the
/// identification reference).
template <class Robot, class Trajectory>
Status run_closed_loop_along(const RobotRunOptions<Robot>& o, const Trajectory& trajectory,
                             RunSummary& summary, std::vector<Sample>* samples) {
  constexpr int nj = sim::PlantTraits<Robot>::kNumJoints;
  constexpr int nr = sim::PlantTraits<Robot>::kNumRotors;
  summary = RunSummary{};
  summary.robot = Robot::kName;
  summary.scenario = o.scenario;
  summary.duration = o.duration;
  summary.control_rate_hz = o.control_rate_hz;
  summary.plant_rate_hz = o.plant_rate_hz;
  summary.settle_time = o.settle_time;
  const double dt = 1.0 / o.control_rate_hz;
  const double substeps = o.plant_rate_hz / o.control_rate_hz;
  if (!(o.duration > 0.0) || !(o.control_rate_hz > 0.0) ||
      std::abs(substeps - std::round(substeps)) > 1e-9 || substeps < 1.0 ||
      o.scenario == Scenario::kDualArmCarry)  // a closed chain: run_dual_arm_carry
    return Status::kInvalidArgument;

  RobotScenarioSetup<Robot> setup =
      make_robot_scenario<Robot>(o.scenario, 1.0 / o.plant_rate_hz, dt, o.seed);
  if (o.custom_setup != nullptr) {
    setup = *o.custom_setup;
    setup.plant.step = 1.0 / o.plant_rate_hz;
    setup.sensors.sample_period = dt;
  }
  static sim::RobotPlant<Robot> plant;  // large: keep off the stack
  Status s = plant.configure(setup.plant);
  if (s != Status::kOk) return s;
  s = plant.set_disturbances(setup.disturbances);
  if (s != Status::kOk) return s;
  sim::SensorModel sensors;
  s = sensors.configure(setup.sensors);
  if (s != Status::kOk) return s;

  // Start on the reference: the plant's own equilibrium for the reference's
  // state and acceleration at t = 0.
  sim::RobotPlantState<Robot> start;
  sim::RobotPlantInput<Robot> input;
  s = sim::equilibrium_state(setup.plant, trajectory.base_pose(0.0), trajectory.base_twist(0.0, 0),
                             trajectory.joints(0.0, 0), trajectory.joints(0.0, 1),
                             trajectory.base_twist(0.0, 1), trajectory.joints(0.0, 2), start,
                             input);
  if (s != Status::kOk) return s;
  s = plant.set_state(start);
  if (s != Status::kOk) return s;

  const hodyn_plugin_api* api =
      o.plugin != nullptr ? o.plugin
                          : plugin::plugin_registry().find("feedback_linearization", Robot::kId);
  if (api == nullptr) return Status::kInvalidArgument;
  static plugin::PluginInstance<detail::kInstanceCapacity> controller;
  s = controller.open(api, plugin::robot_identity<Robot>());
  if (s != Status::kOk) return s;
  summary.controller_workspace_bytes = api->instance_size;
  hodyn_parameter rate{};
  plugin::copy_name(rate.name, "rate_hz");
  rate.value = o.control_rate_hz;
  s = controller.configure(&rate, 1);
  if (s == Status::kOk && o.num_parameters > 0)
    s = controller.configure(o.parameters, o.num_parameters);
  if (s != Status::kOk) {
    controller.close();
    return s;
  }

  const long steps = std::lround(o.duration * o.control_rate_hz);
  std::vector<double> step_times;
  step_times.reserve(static_cast<std::size_t>(steps));
  if (samples != nullptr) {
    samples->clear();
    if (o.record_every > 0) samples->reserve(static_cast<std::size_t>(steps / o.record_every + 1));
  }
  RobotRunStatistics<Robot> statistics(
      o.settle_time, setup.disturbances.has_payload ? setup.disturbances.payload.time : -1.0);

  hodyn_sensors frame{};
  hodyn_reference reference{};
  hodyn_command command{};
  command.num_joints = nj;
  command.num_rotors = nr;
  command.mode = HODYN_MODE_TRACKING;
  for (int i = 0; i < nr; ++i) command.rotor_speed[i] = input.rotor_speed_command(i);
  for (int j = 0; j < nj; ++j) command.motor_torque[j] = input.motor_torque(j);
  double last_frame_time = -1.0;
  for (long k = 0; k < steps; ++k) {
    const double t = static_cast<double>(k) * dt;
    const sim::RobotPlantState<Robot>& x = plant.state();
    s = sensors.measure(x, frame);
    if (s == Status::kOk) {
      reference_frame(trajectory, t, reference);
      // A delayed link repeats its first frame until the delay has passed: the
      // controller runs on new frames only, the start's feedforward is held.
      if (frame.time > last_frame_time) {
        last_frame_time = frame.time;
        const auto t0 = std::chrono::steady_clock::now();
        (void)controller.update(frame, reference, command);
        const auto t1 = std::chrono::steady_clock::now();
        step_times.push_back(std::chrono::duration<double>(t1 - t0).count());
      }
    }
    if (s != Status::kOk) break;

    // Errors of the true state against the reference now.
    const auto e = statistics.add_state(trajectory, t, x);
    statistics.add_command(command);

    if (samples != nullptr && o.record_every > 0 && k % o.record_every == 0) {
      Sample row;
      row.time = t;
      row.num_joints = nj;
      row.num_rotors = nr;
      for (int i = 0; i < 3; ++i) {
        row.position[i] = x.base_pose.translation(i);
        row.position_reference[i] = e.reference_pose.translation(i);
        row.attitude_error[i] = e.attitude(i);
      }
      row.yaw = detail::yaw_of(x.base_pose.rotation);
      row.yaw_reference = detail::yaw_of(e.reference_pose.rotation);
      for (int j = 0; j < nj; ++j) {
        const auto jj = static_cast<std::size_t>(j);
        row.q[jj] = x.q(j);
        row.q_reference[jj] = e.q_reference(j);
        row.motor_torque[jj] = command.motor_torque[j];
      }
      for (int i = 0; i < nr; ++i) {
        const auto ii = static_cast<std::size_t>(i);
        row.rotor_speed[ii] = x.rotor_speed(i);
        row.rotor_command[ii] = command.rotor_speed[i];
      }
      row.status = command.status;
      row.mode = static_cast<int>(command.mode);
      detail::record_plant_loads(plant, command, row);
      samples->push_back(row);
    }

    s = sim::plant_input_from_command(command, input);
    if (s == Status::kOk) s = plant.step(input, dt);
    if (s != Status::kOk) break;
    statistics.add_plant_step(plant.last_step_saturated());
  }
  // The payload estimate of the feedback-linearization plugin (its instance
  // read directly: the ABI carries no estimate); NaN for any other plugin.
  using FlPlugin = control::BasicFeedbackLinearizationPlugin<Robot, double>;
  if (s == Status::kOk && std::strcmp(api->name, FlPlugin::kName) == 0 &&
      api->instance_size == sizeof(FlPlugin) && api->robot_id == Robot::kId) {
    const auto* fl = static_cast<const FlPlugin*>(controller.instance());
    if (fl->settings().config.payload_estimation)
      summary.payload_mass_estimate =
          static_cast<double>(fl->controller().diagnostics().payload_mass);
  }
  controller.close();
  if (s != Status::kOk) return s;

  summary.steps = steps;
  statistics.finish(dt, summary);
  summary.step_median = percentile(step_times, 0.5);
  summary.step_p99 = percentile(step_times, 0.99);
  summary.step_max =
      step_times.empty() ? 0.0 : *std::max_element(step_times.begin(), step_times.end());
  return Status::kOk;
}

}  // namespace detail

template <class Robot>
Status run_closed_loop(const RobotRunOptions<Robot>& o, RunSummary& summary,
                       std::vector<Sample>* samples) {
  // The reference is the controller's robot's (its own description), whatever
  // the plant's mismatch: the robot's own, or the exciting one of the
  // identification scenario (identification_reference.hpp).
  const auto robot = sim::default_description<Robot>();
  if (o.scenario == Scenario::kIdentification)
    return detail::run_closed_loop_along(o, identification_reference<Robot>(robot), summary,
                                         samples);
  return detail::run_closed_loop_along(o, ReferenceOf<Robot>::make(robot), summary, samples);
}

}  // namespace closed_loop
}  // namespace hodyn
