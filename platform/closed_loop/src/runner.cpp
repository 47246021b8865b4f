// The closed loop: sensor model → plugin → plant (see runner.hpp).
#include "hodyn/closed_loop/runner.hpp"

#include "hodyn/closed_loop/tracking.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "hodyn/plugin/frames.hpp"
#include "hodyn/plugin/plugin_instance.hpp"
#include "hodyn/plugin/registry.hpp"
#include "hodyn/reference/table3_trajectory.hpp"

namespace hodyn {
namespace closed_loop {
namespace {

constexpr std::size_t kInstanceCapacity = 64 * 1024;

double yaw_of(const Matrix3<double>& r) { return std::atan2(r(1, 0), r(0, 0)); }

}  // namespace

Status run_closed_loop(const RunOptions& o, RunSummary& summary, std::vector<Sample>* samples) {
  summary = RunSummary{};
  summary.scenario = o.scenario;
  summary.duration = o.duration;
  summary.control_rate_hz = o.control_rate_hz;
  summary.plant_rate_hz = o.plant_rate_hz;
  summary.settle_time = o.settle_time;
  const double dt = 1.0 / o.control_rate_hz;
  const double substeps = o.plant_rate_hz / o.control_rate_hz;
  if (!(o.duration > 0.0) || !(o.control_rate_hz > 0.0) ||
      std::abs(substeps - std::round(substeps)) > 1e-9 || substeps < 1.0)
    return Status::kInvalidArgument;

  ScenarioSetup setup = make_scenario(o.scenario, 1.0 / o.plant_rate_hz, dt, o.seed);
  if (o.custom_setup != nullptr) {
    setup = *o.custom_setup;
    setup.plant.step = 1.0 / o.plant_rate_hz;
    setup.sensors.sample_period = dt;
  }
  static sim::Plant plant;  // large: keep off the stack
  Status s = plant.configure(setup.plant);
  if (s != Status::kOk) return s;
  s = plant.set_disturbances(setup.disturbances);
  if (s != Status::kOk) return s;
  sim::SensorModel sensors;
  s = sensors.configure(setup.sensors);
  if (s != Status::kOk) return s;

  // Start on the reference: the plant's own equilibrium for the reference's
  // state and acceleration at t = 0.
  const Table3Trajectory trajectory;
  sim::PlantState start;
  sim::PlantInput input;
  s = sim::equilibrium_state(setup.plant, trajectory.base_pose(0.0), trajectory.base_twist(0.0, 0),
                             trajectory.joints(0.0, 0), trajectory.joints(0.0, 1),
                             trajectory.base_twist(0.0, 1), trajectory.joints(0.0, 2), start,
                             input);
  if (s != Status::kOk) return s;
  s = plant.set_state(start);
  if (s != Status::kOk) return s;

  const hodyn_plugin_api* api =
      o.plugin != nullptr ? o.plugin : plugin::plugin_registry().find("feedback_linearization");
  static plugin::PluginInstance<kInstanceCapacity> controller;
  s = controller.open(api);
  if (s != Status::kOk) return s;
  summary.controller_workspace_bytes = api->instance_size;
  hodyn_parameter rate{};
  plugin::copy_name(rate.name, "rate_hz");
  rate.value = o.control_rate_hz;
  s = controller.configure(&rate, 1);
  if (s != Status::kOk) return s;
  if (o.num_parameters > 0) {
    s = controller.configure(o.parameters, o.num_parameters);
    if (s != Status::kOk) return s;
  }

  const long steps = std::lround(o.duration * o.control_rate_hz);
  std::vector<double> step_times;
  step_times.reserve(static_cast<std::size_t>(steps));
  if (samples != nullptr) {
    samples->clear();
    if (o.record_every > 0) samples->reserve(static_cast<std::size_t>(steps / o.record_every + 1));
  }
  RunStatistics statistics(o.settle_time,
                           setup.disturbances.has_payload ? setup.disturbances.payload.time : -1.0);

  hodyn_sensors frame{};
  hodyn_reference reference{};
  hodyn_command command{};
  command.num_joints = 6;
  command.num_rotors = 6;
  command.mode = HODYN_MODE_TRACKING;
  for (int i = 0; i < 6; ++i) {
    command.rotor_speed[i] = input.rotor_speed_command(i);
    command.motor_torque[i] = input.motor_torque(i);
  }
  double last_frame_time = -1.0;
  for (long k = 0; k < steps; ++k) {
    const double t = static_cast<double>(k) * dt;
    const sim::PlantState& x = plant.state();
    s = sensors.measure(x, frame);
    if (s != Status::kOk) return s;
    plugin::table3_reference(trajectory, t, reference);
    // A delayed link repeats its first frame until the delay has passed: the
    // controller runs on new frames only, the start's feedforward is held.
    const bool new_frame = frame.time > last_frame_time;
    if (new_frame) {
      last_frame_time = frame.time;
      const auto t0 = std::chrono::steady_clock::now();
      (void)controller.update(frame, reference, command);
      const auto t1 = std::chrono::steady_clock::now();
      step_times.push_back(std::chrono::duration<double>(t1 - t0).count());
    }

    // Errors of the true state against the reference now.
    const TrackingErrors e = statistics.add_state(trajectory, t, x);
    statistics.add_command(command);

    if (samples != nullptr && o.record_every > 0 && k % o.record_every == 0) {
      Sample row;
      row.time = t;
      for (int i = 0; i < 3; ++i) {
        row.position[i] = x.base_pose.translation(i);
        row.position_reference[i] = e.reference_pose.translation(i);
        row.attitude_error[i] = e.attitude(i);
      }
      row.yaw = yaw_of(x.base_pose.rotation);
      row.yaw_reference = yaw_of(e.reference_pose.rotation);
      for (int j = 0; j < 6; ++j) {
        row.q[j] = x.q(j);
        row.q_reference[j] = e.q_reference(j);
        row.rotor_speed[j] = x.rotor_speed(j);
        row.rotor_command[j] = command.rotor_speed[j];
        row.motor_torque[j] = command.motor_torque[j];
      }
      row.status = command.status;
      row.mode = static_cast<int>(command.mode);
      samples->push_back(row);
    }

    s = sim::plant_input_from_command(command, input);
    if (s != Status::kOk) return s;
    s = plant.step(input, dt);
    if (s != Status::kOk) return s;
    statistics.add_plant_step(plant.last_step_saturated());
  }

  summary.steps = steps;
  statistics.finish(dt, summary);
  summary.step_median = percentile(step_times, 0.5);
  summary.step_p99 = percentile(step_times, 0.99);
  summary.step_max =
      step_times.empty() ? 0.0 : *std::max_element(step_times.begin(), step_times.end());
  controller.close();
  return Status::kOk;
}

}  // namespace closed_loop
}  // namespace hodyn
