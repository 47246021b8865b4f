// The closed loop: sensor model → plugin → plant (see runner.hpp).
#include "hodyn/closed_loop/runner.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "hodyn/logarithm.hpp"
#include "hodyn/plugin/frames.hpp"
#include "hodyn/plugin/plugin_instance.hpp"
#include "hodyn/plugin/registry.hpp"
#include "hodyn/reference/table3_trajectory.hpp"

namespace hodyn {
namespace closed_loop {
namespace {

constexpr std::size_t kInstanceCapacity = 64 * 1024;

double yaw_of(const Matrix3<double>& r) { return std::atan2(r(1, 0), r(0, 0)); }

double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0.0;
  const auto k = static_cast<std::size_t>(std::min<double>(
      static_cast<double>(v.size() - 1), std::ceil(p * static_cast<double>(v.size())) - 1.0));
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
  return v[k];
}

struct Accumulator {
  double sum_squares = 0.0;
  double max = 0.0;
  long n = 0;
  void add(double e) {
    sum_squares += e * e;
    max = std::max(max, e);
    ++n;
  }
  ErrorStats stats() const {
    return ErrorStats{n > 0 ? std::sqrt(sum_squares / static_cast<double>(n)) : 0.0, max};
  }
};

// Payload recovery: the last time after the step at which any error is above
// its band (position 5 mm, attitude 0.25°, each joint 0.25°), minus the step
// time; 0 if it never left the band.
constexpr double kRecoveryPosition = 0.005;
constexpr double kRecoveryAngle = 0.25 * 3.14159265358979323846 / 180.0;

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
  Accumulator position, attitude;
  std::array<Accumulator, 6> joints{};
  bool was_saturated = false, finite = true;
  double last_out_of_band = -1.0;
  const bool payload = setup.disturbances.has_payload;
  const double payload_time = setup.disturbances.payload.time;

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
    const Pose<double> ref_pose = trajectory.base_pose(t);
    const Vector3<double> e_x = ref_pose.translation - x.base_pose.translation;
    const Vector3<double> e_r =
        so3_log(Matrix3<double>(ref_pose.rotation * x.base_pose.rotation.transpose()));
    const auto q_ref = trajectory.joints(t, 0);
    const Vector6<double> e_q = q_ref - x.q;
    finite = finite && e_x.allFinite() && e_r.allFinite() && e_q.allFinite();
    if (t >= o.settle_time) {
      position.add(e_x.norm());
      attitude.add(e_r.norm());
      for (int j = 0; j < 6; ++j) joints[j].add(std::abs(e_q(j)));
    }
    if (payload && t >= payload_time &&
        (e_x.norm() > kRecoveryPosition || e_r.norm() > kRecoveryAngle ||
         e_q.cwiseAbs().maxCoeff() > kRecoveryAngle))
      last_out_of_band = t;

    const bool saturated = command.mode == HODYN_MODE_SATURATED;
    summary.saturated_steps += saturated ? 1 : 0;
    summary.saturation_switches += (k > 0 && saturated != was_saturated) ? 1 : 0;
    was_saturated = saturated;
    summary.safe_mode_steps +=
        (command.mode == HODYN_MODE_HOLD || command.mode == HODYN_MODE_HOVER) ? 1 : 0;

    if (samples != nullptr && o.record_every > 0 && k % o.record_every == 0) {
      Sample row;
      row.time = t;
      for (int i = 0; i < 3; ++i) {
        row.position[i] = x.base_pose.translation(i);
        row.position_reference[i] = ref_pose.translation(i);
        row.attitude_error[i] = e_r(i);
      }
      row.yaw = yaw_of(x.base_pose.rotation);
      row.yaw_reference = yaw_of(ref_pose.rotation);
      for (int j = 0; j < 6; ++j) {
        row.q[j] = x.q(j);
        row.q_reference[j] = q_ref(j);
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
    summary.plant_saturated_steps += plant.last_step_saturated() ? 1 : 0;
  }

  summary.steps = steps;
  summary.position = position.stats();
  summary.attitude = attitude.stats();
  for (int j = 0; j < 6; ++j) summary.joints[j] = joints[j].stats();
  summary.step_median = percentile(step_times, 0.5);
  summary.step_p99 = percentile(step_times, 0.99);
  summary.step_max =
      step_times.empty() ? 0.0 : *std::max_element(step_times.begin(), step_times.end());
  if (payload)
    summary.payload_recovery_time =
        last_out_of_band < 0.0 ? 0.0 : last_out_of_band + dt - payload_time;
  summary.stable = finite && summary.position.max < 0.5 && summary.safe_mode_steps == 0;
  controller.close();
  return Status::kOk;
}

}  // namespace closed_loop
}  // namespace hodyn
