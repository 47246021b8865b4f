// The feedback-linearization plugin module, for any Scalar: parameter table
// and frame conversion. Included by feedback_linearization_plugin.cpp (double)
// and feedback_linearization_plugin_float.cpp (float), which instantiate it.
#pragma once

#include "hodyn/control/feedback_linearization_plugin.hpp"

#include <array>
#include <cmath>
#include <type_traits>

#include "hodyn/plugin/frames.hpp"

namespace hodyn {
namespace control {
namespace {

using Settings = FeedbackLinearizationSettings;

struct ParameterSpec {
  const char* name;
  const char* unit;
  double min_value;
  double max_value;
  double (*get)(const Settings&);
  void (*set)(Settings&, double);
};

#define HODYN_PARAMETER(name, unit, lo, hi, expr)                                      \
  ParameterSpec {                                                                      \
    name, unit, lo, hi, [](const Settings& s) { return static_cast<double>(s.expr); }, \
        [](Settings& s, double v) { s.expr = v; }                                      \
  }

const std::array<ParameterSpec, 18> kParameters{{
    HODYN_PARAMETER("rate_hz", "Hz", 500.0, 4000.0, config.rate_hz),
    HODYN_PARAMETER("position_bandwidth", "rad/s", 0.5, 100.0, position_bandwidth),
    HODYN_PARAMETER("attitude_bandwidth", "rad/s", 0.5, 100.0, attitude_bandwidth),
    HODYN_PARAMETER("joint_bandwidth", "rad/s", 0.5, 100.0, joint_bandwidth),
    ParameterSpec{"integral_action", "0/1", 0.0, 1.0,
                  [](const Settings& s) { return s.integral_action ? 1.0 : 0.0; },
                  [](Settings& s, double v) { s.integral_action = v >= 0.5; }},
    HODYN_PARAMETER("max_position_error", "m", 1e-3, 10.0, config.max_position_error),
    HODYN_PARAMETER("max_attitude_error", "rad", 1e-3, 3.14, config.max_attitude_error),
    HODYN_PARAMETER("max_joint_error", "rad", 1e-3, 3.14, config.max_joint_error),
    HODYN_PARAMETER("max_integral", "m s", 0.0, 10.0, config.max_integral),
    HODYN_PARAMETER("reference_jump", "m", 1e-4, 10.0, config.reference_jump),
    HODYN_PARAMETER("hold_timeout", "s", 1e-3, 10.0, config.hold_timeout),
    HODYN_PARAMETER("safe_torque_fraction", "1", 0.0, 1.0, config.safe_torque_fraction),
    HODYN_PARAMETER("max_deflection", "rad", 1e-3, 3.14, config.max_deflection),
    HODYN_PARAMETER("joint_limit_margin", "rad", 1e-3, 10.0, config.joint_limit_margin),
    HODYN_PARAMETER("joint_limit", "rad", 0.1, 10.0, config.joint_limit),
    HODYN_PARAMETER("max_base_speed", "m/s", 0.1, 200.0, config.max_base_speed),
    HODYN_PARAMETER("max_base_rate", "rad/s", 0.1, 200.0, config.max_base_rate),
    HODYN_PARAMETER("max_joint_rate", "rad/s", 0.1, 200.0, config.max_joint_rate),
}};

#undef HODYN_PARAMETER

const ParameterSpec* find_parameter(const char (&name)[HODYN_NAME_LENGTH]) {
  for (const auto& p : kParameters)
    if (plugin::name_equals(name, p.name)) return &p;
  return nullptr;
}

// Frames are double; the controller's Scalar may be float. Conversions go
// through double (bit-identical for Scalar = double); a float rotation is
// re-orthonormalised to float precision.
template <class Scalar>
Matrix3<Scalar> to_scalar_rotation(const Matrix3<double>& r) {
  if constexpr (std::is_same<Scalar, double>::value) {
    return r;
  } else {
    return Eigen::Quaternion<Scalar>(r.cast<Scalar>()).normalized().toRotationMatrix();
  }
}

template <class Robot, class Scalar>
Status measurement_from_sensors(const hodyn_sensors& s,
                                typename FeedbackLinearization<Robot, Scalar>::Measurement& m) {
  using Controller = FeedbackLinearization<Robot, Scalar>;
  if (s.num_joints != Controller::kNumJoints || s.num_rotors != Controller::kNumRotors)
    return Status::kInvalidArgument;
  m.time = s.time;
  Pose<double> pose{};
  const Status r = plugin::rotation_from_quaternion(s.base_orientation, pose.rotation);
  if (r != Status::kOk) return r;
  pose.translation = Vector3<double>(s.base_position[0], s.base_position[1], s.base_position[2]);
  const Vector3<double> velocity(s.base_linear_velocity[0], s.base_linear_velocity[1],
                                 s.base_linear_velocity[2]);
  const Vector3<double> rate(s.base_angular_velocity[0], s.base_angular_velocity[1],
                             s.base_angular_velocity[2]);
  m.base_pose.rotation = to_scalar_rotation<Scalar>(pose.rotation);
  m.base_pose.translation = pose.translation.cast<Scalar>();
  m.base_twist = plugin::spatial_twist(pose, velocity, rate).template cast<Scalar>();
  for (int j = 0; j < Controller::kNumJoints; ++j) {
    m.q(j) = static_cast<Scalar>(s.joint_position[j]);
    m.q_dot(j) = static_cast<Scalar>(s.joint_velocity[j]);
    m.motor_position(j) = static_cast<Scalar>(s.motor_position[j]);
    m.motor_velocity(j) = static_cast<Scalar>(s.motor_velocity[j]);
  }
  for (int i = 0; i < Controller::kNumRotors; ++i)
    m.rotor_speed(i) = static_cast<Scalar>(s.rotor_speed[i]);
  return Status::kOk;
}

template <class Robot, class Scalar>
Status reference_from_frame(const hodyn_reference& f,
                            typename FeedbackLinearization<Robot, Scalar>::Reference& r) {
  using Controller = FeedbackLinearization<Robot, Scalar>;
  if (f.num_joints != Controller::kNumJoints) return Status::kInvalidArgument;
  for (int k = 0; k <= HODYN_REFERENCE_ORDER; ++k) {
    r.position[static_cast<std::size_t>(k)] =
        Vector3<double>(f.base_position[k][0], f.base_position[k][1], f.base_position[k][2])
            .cast<Scalar>();
    for (int j = 0; j < Controller::kNumJoints; ++j)
      r.joints[static_cast<std::size_t>(k)](j) = static_cast<Scalar>(f.joint_position[k][j]);
  }
  for (int k = 0; k < HODYN_REFERENCE_ORDER; ++k)
    r.angular_velocity[static_cast<std::size_t>(k)] =
        Vector3<double>(f.base_angular_velocity[k][0], f.base_angular_velocity[k][1],
                        f.base_angular_velocity[k][2])
            .cast<Scalar>();
  Matrix3<double> orientation;
  const Status s = plugin::rotation_from_quaternion(f.base_orientation, orientation);
  if (s != Status::kOk) return s;
  r.orientation = to_scalar_rotation<Scalar>(orientation);
  return Status::kOk;
}

template <class Robot, class Scalar>
void write_command(const typename FeedbackLinearization<Robot, Scalar>::Output& o, double time,
                   Status status, hodyn_command& c) {
  using Controller = FeedbackLinearization<Robot, Scalar>;
  c = hodyn_command{};
  c.time = time;
  c.num_joints = Controller::kNumJoints;
  c.num_rotors = Controller::kNumRotors;
  c.mode = static_cast<std::uint32_t>(o.mode);
  c.status = static_cast<std::int32_t>(status);
  for (int i = 0; i < Controller::kNumRotors; ++i)
    c.rotor_speed[i] = static_cast<double>(o.rotor_speed(i));
  for (int j = 0; j < Controller::kNumJoints; ++j)
    c.motor_torque[j] = static_cast<double>(o.motor_torque(j));
}

}  // namespace

template <class Robot, class Scalar>
BasicFeedbackLinearizationPlugin<Robot, Scalar>::BasicFeedbackLinearizationPlugin() noexcept {
  (void)controller_.configure(settings_.resolved());
}

template <class Robot, class Scalar>
Status BasicFeedbackLinearizationPlugin<Robot, Scalar>::configure(const plugin::Parameter* parameters,
                                                           std::size_t count) noexcept {
  Settings candidate = settings_;
  for (std::size_t i = 0; i < count; ++i) {
    const ParameterSpec* spec = find_parameter(parameters[i].name);
    if (spec == nullptr) return Status::kInvalidArgument;
    const double v = parameters[i].value;
    if (!std::isfinite(v)) return Status::kNonFiniteInput;
    if (v < spec->min_value || v > spec->max_value) return Status::kInvalidArgument;
    spec->set(candidate, v);
  }
  const Status s = controller_.configure(candidate.resolved());
  if (s != Status::kOk) return s;
  settings_ = candidate;
  return Status::kOk;
}

template <class Robot, class Scalar>
void BasicFeedbackLinearizationPlugin<Robot, Scalar>::reset() noexcept {
  controller_.reset();
}

template <class Robot, class Scalar>
Status BasicFeedbackLinearizationPlugin<Robot, Scalar>::update(const plugin::Sensors& sensors,
                                                        const plugin::Reference& reference,
                                                        plugin::Command& command) noexcept {
  Status s = measurement_from_sensors<Robot, Scalar>(sensors, measurement_);
  if (s == Status::kOk) s = reference_from_frame<Robot, Scalar>(reference, reference_);
  if (s == Status::kOk) {
    s = controller_.update(measurement_, reference_, output_);
  } else {
    controller_.safe_command(output_);
  }
  write_command<Robot, Scalar>(output_, sensors.time, s, command);
  return s;
}

template <class Robot, class Scalar>
std::size_t BasicFeedbackLinearizationPlugin<Robot, Scalar>::parameter_count() const noexcept {
  return kParameters.size();
}

template <class Robot, class Scalar>
Status BasicFeedbackLinearizationPlugin<Robot, Scalar>::parameter_info(
    std::size_t index, plugin::ParameterInfo& info) const noexcept {
  if (index >= kParameters.size()) return Status::kInvalidArgument;
  const ParameterSpec& p = kParameters[index];
  info = plugin::ParameterInfo{};
  plugin::copy_name(info.name, p.name);
  plugin::copy_name(info.unit, p.unit);
  info.default_value = p.get(Settings{});
  info.min_value = p.min_value;
  info.max_value = p.max_value;
  return Status::kOk;
}

}  // namespace control
}  // namespace hodyn
